import { createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createQueueStrategy } from "../../src/concurrency/queue-strategy.js";
import { toQueueEntry } from "../../src/concurrency/queued-message.js";
import type { StrategyContext } from "../../src/concurrency/strategy.js";
import { Sweeper } from "../../src/concurrency/sweeper.js";
import { createStrategyHarness } from "./strategy-harness.js";

describe("sweeper", () => {
  it("drains a queue whose holder died within one lock TTL plus one sweep interval", async () => {
    let context: StrategyContext | undefined;
    const h = await createStrategyHarness(
      (ctx, holders) => {
        context = ctx;
        return createQueueStrategy(ctx, holders);
      },
      { lockTtlMs: 3_000, sweepIntervalMs: 1_000 },
    );
    const threadId = "mock:C1:T1";
    const lockKey = h.lockKeyOfThread(threadId, "thread");
    // A holder in another process took the lock, a contender queued behind it, then the holder died.
    await h.state.acquireLock(lockKey, 3_000);
    const message = createTestMessage({ threadId, text: "stranded" });
    const key = `mock:${message.id}`;
    await h.state.enqueue(
      lockKey,
      toQueueEntry({ key, adapter: h.adapter, threadId, lockKey, message }, h.clock.now(), 90_000),
      { maxSize: 10, onFull: "drop-oldest" },
    );
    if (!context) throw new Error("no context");
    const sweeper = new Sweeper(context, h.strategy, h.holders);
    sweeper.start();
    await h.clock.advance(2_999);
    expect(h.runs).toHaveLength(0);
    await h.clock.advance(3_000 + 1_000);
    await sweeper.stop();
    expect(h.runs.map((run) => run.messageId)).toEqual([message.id]);
    expect(h.dispositionOf(key)).toEqual(["handled"]);
    expect(await h.state.queueDepth(lockKey)).toBe(0);
  });

  it("leaves queues alone whose holder is in this process", async () => {
    let context: StrategyContext | undefined;
    const h = await createStrategyHarness(
      (ctx, holders) => {
        context = ctx;
        return createQueueStrategy(ctx, holders);
      },
      { sweepIntervalMs: 100 },
    );
    h.behave("slow", { durationMs: 1_000 });
    const first = h.deliver("slow");
    await h.clock.advance(10);
    const queued = h.deliver("queued");
    await queued.submitted;
    if (!context) throw new Error("no context");
    const sweeper = new Sweeper(context, h.strategy, h.holders);
    sweeper.start();
    await h.clock.advance(1_000);
    await first.submitted;
    await sweeper.stop();
    expect(h.peakInFlight).toBe(1);
    expect(h.dispositionOf(queued.key)).toEqual(["handled"]);
  });
});
