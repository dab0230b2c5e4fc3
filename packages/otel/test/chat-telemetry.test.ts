import { Chat, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { createOtelObserver, DISPATCH_SPAN_NAME } from "../src/index.js";
import { createOtelKit } from "./otel-test-kit.js";

/** A `Chat` on the real memory state and a fake clock, reporting to an in-memory OTel SDK. */
async function createTelemetryHarness() {
  const kit = createOtelKit();
  const clock = createFakeClock();
  const adapter = createMockAdapter("mock");
  const chat = new Chat({
    userName: "bot",
    adapters: { mock: adapter },
    state: createMemoryState({ clock }),
    logger: "silent",
    clock,
    observer: createOtelObserver({ tracer: kit.tracer, meter: kit.meter }),
  });
  await chat.initialize();
  return { kit, clock, adapter, chat };
}

describe("a Chat reporting to OpenTelemetry", () => {
  it("ends one span per delivery with its outcome and fills the delivery and handler metrics", async () => {
    const { kit, clock, adapter, chat } = await createTelemetryHarness();
    chat.onNewMention(async () => {
      await sleep(clock, 100);
    });
    const first = createTestMessage({ threadId: "mock:C1:T1", text: "@bot secret plan" });
    const second = createTestMessage({ threadId: "mock:C1:T1", text: "@bot also secret" });

    const handled = chat.processMessage(adapter, first.threadId, first);
    await clock.advance(1);
    // The first handler holds the thread's lock: under `drop` the second message is dropped.
    const dropped = await chat.processMessage(adapter, second.threadId, second);
    await clock.advance(100);
    expect(await handled).toEqual({ outcome: "handled" });
    expect(dropped.outcome).toBe("dropped-lock-conflict");
    // The platform retries the first message: its id was accepted already.
    const duplicate = await chat.processMessage(adapter, first.threadId, first);
    expect(duplicate.outcome).toBe("duplicate");

    const spans = kit.finishedSpans();
    expect(spans).toHaveLength(3);
    expect(spans.every((span) => span.name === DISPATCH_SPAN_NAME)).toBe(true);
    expect(spans.every((span) => span.kind === SpanKind.INTERNAL)).toBe(true);
    const outcomes = spans.map((span) => span.attributes["baton.outcome"]);
    expect(outcomes.sort()).toEqual(["dropped-lock-conflict", "duplicate", "handled"]);
    const handledSpan = spans.find((span) => span.attributes["baton.outcome"] === "handled");
    expect(handledSpan?.attributes).toMatchObject({
      "baton.adapter": "mock",
      "baton.strategy": "drop",
      "baton.route": "mention",
    });
    expect(spans.every((span) => span.status.code === SpanStatusCode.OK)).toBe(true);

    expect(await kit.counterByOutcome("baton.deliveries")).toMatchObject({
      handled: 1,
      "dropped-lock-conflict": 1,
    });
    const durations = await kit.histogramPoints("baton.handler.duration");
    expect(durations).toHaveLength(1);
    expect(durations[0]?.value).toMatchObject({ count: 1, sum: 100 });
    expect((await kit.metricNamed("baton.handler.duration"))?.descriptor.unit).toBe("ms");
  });

  it("writes no message text, user id or thread id into spans or data points", async () => {
    const { kit, adapter, chat } = await createTelemetryHarness();
    chat.onNewMention(async () => {});
    const message = createTestMessage({ threadId: "mock:C9:T9", text: "@bot my card 4111" });
    await chat.processMessage(adapter, message.threadId, message);
    const written = JSON.stringify([
      kit.finishedSpans().map((span) => span.attributes),
      await kit.metricNamed("baton.deliveries"),
      await kit.metricNamed("baton.handler.duration"),
    ]);
    expect(written).toContain("baton.outcome");
    expect(written).not.toContain("4111");
    expect(written).not.toContain(message.author.userId);
    expect(written).not.toContain("C9");
  });
});
