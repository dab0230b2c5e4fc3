import { LockLostError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createDropStrategy } from "../../src/concurrency/drop-strategy.js";
import { createQueueStrategy } from "../../src/concurrency/queue-strategy.js";
import { createStrategyHarness } from "./strategy-harness.js";

describe("lease loss during a drain", () => {
  it("keeps the lock through an extend error before heldUntil, then stops draining and still releases", async () => {
    const h = await createStrategyHarness(createQueueStrategy, {
      lockTtlMs: 1_000,
      extendTimeoutMs: 300,
    });
    const lockKey = h.lockKeyOfThread("mock:C1:T1", "thread");
    const realExtend = h.state.extendLock.bind(h.state);
    const realRelease = h.state.releaseLock.bind(h.state);
    let failing = false;
    const released: number[] = [];
    h.state.extendLock = async (lock, ttlMs) => {
      if (failing) throw new Error("state unreachable");
      return realExtend(lock, ttlMs);
    };
    h.state.releaseLock = async (lock) => {
      released.push(lock.fence);
      return realRelease(lock);
    };
    h.behave("long", { durationMs: 5_000 });
    const first = h.deliver("long");
    await h.clock.advance(10);
    const queued = h.deliver("queued");
    await queued.submitted;
    failing = true;
    await h.clock.advance(500);
    const run = h.runs[0];
    expect(run?.signal.aborted).toBe(false);

    await h.clock.advance(1_500);
    expect(run?.signal.aborted).toBe(true);
    expect(run?.signal.reason).toBeInstanceOf(LockLostError);
    failing = false;
    await h.clock.advance(5_000);
    await first.submitted;
    expect(released[0]).toBe(run?.fence);
    const rerun = h.runs.find((candidate) => candidate.messageId === queued.id);
    expect(rerun && rerun.fence !== run?.fence).toBe(true);
    expect(h.dispositionOf(queued.key)).toEqual(["handled"]);
    expect(await h.state.queueDepth(lockKey)).toBe(0);
  });

  it("stops renewing after maxLockLifetimeMs, so the next message gets the lock within one TTL", async () => {
    const h = await createStrategyHarness(createDropStrategy, {
      lockTtlMs: 1_000,
      extendTimeoutMs: 300,
      maxLockLifetimeMs: 2_000,
    });
    h.behave("stuck", { durationMs: 60_000 });
    const stuck = h.deliver("stuck");
    await h.clock.advance(2_000 + 1_000);
    const next = h.deliver("next");
    await next.submitted;
    expect(h.dispositionOf(next.key)).toEqual(["handled"]);
    expect(h.runs[0]?.signal.reason).toBeInstanceOf(LockLostError);
    await h.clock.advance(60_000);
    await stuck.submitted;
  });
});
