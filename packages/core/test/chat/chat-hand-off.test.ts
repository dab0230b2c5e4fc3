import { type MessageContext, type Observer, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { botInstance, createChatHarness } from "./chat-harness.js";
import { outcomeRecorder } from "./outcome-recorder.js";

const T1 = "mock:C1:T1";

describe("hand-off outcome (ADR 0011)", () => {
  it("ends the span of a message queued behind a holder in another instance as handed-off, and the holder counts its real outcome", async () => {
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    const make = async (observer: Observer) => {
      const { chat, adapter } = botInstance(state, clock, { concurrency: "queue", observer });
      const runs: string[] = [];
      chat.onNewMention(async (_thread, message, context: MessageContext) => {
        runs.push(message.id);
        if (message.id === "long") await sleep(clock, 1_000, context.signal);
      });
      await chat.initialize();
      return { chat, adapter, runs };
    };
    const holder = outcomeRecorder();
    const receiver = outcomeRecorder();
    const first = await make(holder.observer);
    const second = await make(receiver.observer);

    const long = first.chat.processMessage(
      first.adapter,
      T1,
      createTestMessage({ id: "long", text: "@bot long", threadId: T1 }),
    );
    await clock.advance(10);
    expect(first.runs).toEqual(["long"]);
    const queued = await second.chat.processMessage(
      second.adapter,
      T1,
      createTestMessage({ id: "waits", text: "@bot waits", threadId: T1 }),
    );
    expect(queued).toEqual({ outcome: "queued", reason: "held by another instance" });
    expect(receiver.ends).toEqual([{ outcome: "handed-off", reason: "held by another instance" }]);
    expect(receiver.counted).toEqual(["handed-off"]);

    await clock.advance(1_000);
    expect(await long).toEqual({ outcome: "handled" });
    await clock.advance(10);
    expect(first.runs).toEqual(["long", "waits"]);
    expect(second.runs).toEqual([]);
    // The drained message was accepted on the receiver, so only its disposition is counted here.
    expect(holder.counted).toEqual(["handled", "handled"]);
    expect(holder.ends).toEqual([{ outcome: "handled", reason: undefined }]);
    await Promise.all([first.chat.shutdown(), second.chat.shutdown()]);
  });

  it("ends the span of a message parked at shutdown as handed-off, keeping the reason", async () => {
    const { ends, counted, observer } = outcomeRecorder();
    const h = await createChatHarness({ concurrency: "queue", observer });
    h.chat.onNewMention(async () => {});
    const acquire = h.state.acquireLock.bind(h.state);
    let shutdown: Promise<void> | undefined;
    h.state.acquireLock = async (key, ttlMs) => {
      const lock = await acquire(key, ttlMs);
      shutdown ??= h.chat.shutdown();
      return lock;
    };
    const result = await h.send("@bot racing shutdown").done;
    await shutdown;
    expect(result).toEqual({ outcome: "queued", reason: "parked at shutdown" });
    expect(ends).toEqual([{ outcome: "handed-off", reason: "parked at shutdown" }]);
    expect(counted).toEqual(["handed-off"]);
  });
});
