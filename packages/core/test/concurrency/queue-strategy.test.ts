import { describe, expect, it } from "vitest";
import { createQueueStrategy } from "../../src/concurrency/queue-strategy.js";
import { createStrategyHarness } from "./strategy-harness.js";

describe("queue strategy", () => {
  it("runs a lone message at once with no skipped messages", async () => {
    const h = await createStrategyHarness(createQueueStrategy);
    const first = h.deliver("one");
    await first.submitted;
    expect(h.runs.map((run) => [run.messageId, run.skippedIds])).toEqual([[first.id, []]]);
    expect(h.dispositionOf(first.key)).toEqual(["handled"]);
    expect(await h.state.inspectLock(h.lockKeyOfThread("mock:C1:T1", "thread"))).toBeNull();
  });

  it("queues messages that arrive during a run and runs the latest with the rest skipped", async () => {
    const h = await createStrategyHarness(createQueueStrategy);
    h.behave("slow", { durationMs: 5_000 });
    const first = h.deliver("slow");
    await h.clock.advance(10);
    const second = h.deliver("two");
    const third = h.deliver("three");
    await Promise.all([second.submitted, third.submitted]);
    expect(h.runs).toHaveLength(1);
    await h.clock.advance(5_000);
    await first.submitted;
    expect(h.runs.map((run) => [run.messageId, run.skippedIds])).toEqual([
      [first.id, []],
      [third.id, [second.id]],
    ]);
    expect(h.dispositionOf(second.key)).toEqual(["skipped"]);
    expect(h.dispositionOf(third.key)).toEqual(["handled"]);
  });

  it("keeps draining after a handler throws, so a message queued behind it is still handled", async () => {
    const h = await createStrategyHarness(createQueueStrategy);
    h.behave("boom", { durationMs: 1_000, fails: true });
    const first = h.deliver("boom");
    await h.clock.advance(10);
    const queued = h.deliver("after");
    await queued.submitted;
    await h.clock.advance(1_000);
    await first.submitted;
    expect(h.dispositionOf(first.key)).toEqual(["error"]);
    expect(h.dispositionOf(queued.key)).toEqual(["handled"]);
    expect(await h.state.queueDepth(h.lockKeyOfThread("mock:C1:T1", "thread"))).toBe(0);
  });

  it("gives each thread of a channel-scoped queue its own run in its own thread", async () => {
    const h = await createStrategyHarness(createQueueStrategy);
    h.useScope("channel");
    h.behave("slow", { durationMs: 2_000 });
    const first = h.deliver("slow", "mock:C1:A");
    await h.clock.advance(10);
    const fromB = h.deliver("for B", "mock:C1:B");
    const fromA = h.deliver("for A", "mock:C1:A");
    await Promise.all([fromB.submitted, fromA.submitted]);
    await h.clock.advance(2_000);
    await first.submitted;
    const drained = h.runs.slice(1).map((run) => [run.threadId, run.messageId, run.skippedIds]);
    expect(drained).toEqual([
      ["mock:C1:B", fromB.id, []],
      ["mock:C1:A", fromA.id, []],
    ]);
    expect(h.dispositionOf(fromB.key)).toEqual(["handled"]);
  });

  it("settles entries evicted from a full queue as preempted under drop-oldest", async () => {
    const h = await createStrategyHarness(createQueueStrategy, { maxQueueSize: 2 });
    h.behave("slow", { durationMs: 1_000 });
    const first = h.deliver("slow");
    await h.clock.advance(10);
    const waiting = ["a", "b", "c"].map((text) => h.deliver(text));
    await Promise.all(waiting.map((entry) => entry.submitted));
    expect(h.dispositionOf(waiting[0]?.key ?? "")).toEqual(["preempted"]);
    await h.clock.advance(1_000);
    await first.submitted;
    expect(h.runs.at(-1)?.skippedIds).toEqual([waiting[1]?.id]);
  });

  it("refuses the newest message of a full queue under drop-newest", async () => {
    const h = await createStrategyHarness(createQueueStrategy, {
      maxQueueSize: 1,
      onQueueFull: "drop-newest",
    });
    h.behave("slow", { durationMs: 1_000 });
    const first = h.deliver("slow");
    await h.clock.advance(10);
    const kept = h.deliver("kept");
    const refused = h.deliver("refused");
    await Promise.all([kept.submitted, refused.submitted]);
    expect(h.dispositionOf(refused.key)).toEqual(["preempted"]);
    await h.clock.advance(1_000);
    await first.submitted;
    expect(h.dispositionOf(kept.key)).toEqual(["handled"]);
  });

  it("settles a queued message that waited past queueEntryTtlMs as expired", async () => {
    const h = await createStrategyHarness(createQueueStrategy, { queueEntryTtlMs: 1_000 });
    h.behave("slow", { durationMs: 5_000 });
    const first = h.deliver("slow");
    await h.clock.advance(10);
    const stale = h.deliver("stale");
    await stale.submitted;
    await h.clock.advance(5_000);
    await first.submitted;
    expect(h.dispositionOf(stale.key)).toEqual(["expired"]);
    expect(h.runs).toHaveLength(1);
  });

  it("never runs two handlers at once on a lock key, even when a run lasts three lock TTLs", async () => {
    const h = await createStrategyHarness(createQueueStrategy, {
      lockTtlMs: 1_000,
      extendTimeoutMs: 300,
    });
    h.behaveByDefault({ durationMs: 3_000 });
    const deliveries = [h.deliver("a")];
    for (const text of ["b", "c", "d"]) {
      await h.clock.advance(700);
      deliveries.push(h.deliver(text));
    }
    await h.clock.advance(20_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    expect(h.peakInFlight).toBe(1);
    expect(h.runs.map((run) => run.messageId)).toEqual([deliveries[0]?.id, deliveries[3]?.id]);
    for (const delivery of deliveries) expect(h.dispositionOf(delivery.key)).toHaveLength(1);
  });

  it("handles a message enqueued between the holder's last empty dequeue and its release", async () => {
    const h = await createStrategyHarness(createQueueStrategy);
    const lockKey = h.lockKeyOfThread("mock:C1:T1", "thread");
    const realRelease = h.state.releaseLock.bind(h.state);
    let late: ReturnType<typeof h.deliver> | undefined;
    h.state.releaseLock = async (lock) => {
      if (!late) {
        late = h.deliver("late");
        await late.submitted;
      }
      return realRelease(lock);
    };
    const first = h.deliver("first");
    await first.submitted;
    await late?.submitted;
    expect(late && h.dispositionOf(late.key)).toEqual(["handled"]);
    expect(await h.state.queueDepth(lockKey)).toBe(0);
  });
});
