import { type DispatchOutcome, type Logger, type Observer, sleep } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

function recordingLogger() {
  const events: string[] = [];
  const logger: Logger = {
    debug: (message) => events.push(message),
    info: (message) => events.push(message),
    warn: (message) => events.push(message),
    error: (message) => events.push(message),
  };
  return { logger, events };
}

function recordingObserver() {
  const ended: Array<{ outcome: DispatchOutcome; reason: string | undefined }> = [];
  const counters = new Map<string, number>();
  const adapters = new Set<string>();
  const observer: Observer = {
    startDispatch: () => ({
      setAttributes: () => {},
      end: (outcome, reason) => ended.push({ outcome, reason }),
    }),
    count: (name, value, attributes) => {
      adapters.add(String(attributes.adapter));
      const key = `${name}:${attributes.outcome}`;
      counters.set(key, (counters.get(key) ?? 0) + value);
    },
  };
  return { observer, ended, counters, adapters };
}

describe("every drop is logged and observed", () => {
  it("logs message-dropped and ends the span as dropped-lock-conflict under drop", async () => {
    const { logger, events } = recordingLogger();
    const { observer, ended } = recordingObserver();
    const h = await createChatHarness({ logger, observer });
    h.chat.onNewMention(async () => {
      await sleep(h.clock, 100);
    });
    const first = h.send("@bot one");
    await h.clock.advance(1);
    await h.send("@bot two").done;
    await h.clock.advance(100);
    await first.done;
    expect(events).toContain("message-dropped");
    expect(ended.map((span) => span.outcome).sort()).toEqual(["dropped-lock-conflict", "handled"]);
  });

  it("logs message-queued, message-superseded and message-expired and observes each outcome", async () => {
    const { logger, events } = recordingLogger();
    const { observer, ended, counters, adapters } = recordingObserver();
    const h = await createChatHarness({
      logger,
      observer,
      concurrency: { strategy: "queue", maxQueueSize: 1, queueEntryTtlMs: 1_000 },
    });
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text === "@bot slow") await sleep(h.clock, 2_000);
    });
    const slow = h.send("@bot slow");
    await h.clock.advance(1);
    const superseded = h.send("@bot superseded");
    const expired = h.send("@bot expired");
    await h.clock.advance(2_000);
    const outcomes = await Promise.all([slow.done, superseded.done, expired.done]);
    expect(outcomes.map((result) => result.outcome)).toEqual(["handled", "preempted", "expired"]);
    expect(events).toEqual(
      expect.arrayContaining(["message-queued", "message-superseded", "message-expired"]),
    );
    expect(ended.map((span) => span.outcome).sort()).toEqual(["expired", "handled", "preempted"]);
    expect(counters.get("baton.deliveries:preempted")).toBe(1);
    expect(counters.get("baton.deliveries:expired")).toBe(1);
    expect(counters.get("baton.deliveries:handled")).toBe(1);
    expect([...adapters]).toEqual(["mock"]);
  });

  it("keeps dispatching when the observer throws", async () => {
    const h = await createChatHarness({
      observer: {
        startDispatch: () => {
          throw new Error("observer down");
        },
        count: () => {
          throw new Error("observer down");
        },
      },
    });
    const seen: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      seen.push(message.text);
    });
    expect(await h.send("@bot hi").done).toEqual({ outcome: "handled" });
    expect(seen).toEqual(["@bot hi"]);
  });
});
