import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { LeaseKeeper } from "../../src/concurrency/lease-keeper.js";
import { LockLostError } from "../../src/errors/index.js";

// The keeper arms one checkpoint timer until the first of its deadlines is due (hot path: most
// handlers end before the first renewal). These pin that it costs one timer, and that no
// deadline — renewal, lifetime, lease end — is observed later because of it.
const TTL_MS = 30_000;

async function startedKeeper(maxLockLifetimeMs?: number) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  await state.connect();
  const lock = await state.acquireLock("thread:mock:C1:T1", TTL_MS);
  if (!lock) throw new Error("the lock must be free");
  const extendLock = vi.fn((held: typeof lock, ttlMs: number) => state.extendLock(held, ttlMs));
  const keeper = new LeaseKeeper({
    state: { extendLock },
    lock,
    lockTtlMs: TTL_MS,
    clock,
    ...(maxLockLifetimeMs === undefined ? {} : { maxLockLifetimeMs }),
  });
  keeper.start();
  return { clock, keeper, extendLock };
}

describe("lease keeper checkpoint", () => {
  it("holds one timer until the first renewal is due, and none after stop", async () => {
    const { clock, keeper, extendLock } = await startedKeeper();
    expect(clock.pendingTimers).toBe(1);
    await keeper.stop();
    expect(clock.pendingTimers).toBe(0);
    expect(extendLock).not.toHaveBeenCalled();
  });

  it("still renews at a third of the TTL", async () => {
    const { clock, keeper, extendLock } = await startedKeeper();
    await clock.advance(TTL_MS / 3 - 1);
    expect(extendLock).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(extendLock).toHaveBeenCalledTimes(1);
    expect(keeper.held).toBe(true);
    await keeper.stop();
  });

  it("still stops renewing at a lifetime shorter than the renewal interval", async () => {
    const { clock, keeper, extendLock } = await startedKeeper(5_000);
    await clock.advance(TTL_MS);
    expect(extendLock).not.toHaveBeenCalled();
    expect(keeper.held).toBe(false);
    expect(keeper.signal.aborted).toBe(true);
    expect(keeper.signal.reason).toBeInstanceOf(LockLostError);
    expect(keeper.lostWith?.message).toMatch(/maxLockLifetimeMs/);
  });
});
