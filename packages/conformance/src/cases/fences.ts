import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { concurrently } from "./support.js";

// Fences are strictly increasing per lock key (DESIGN §4.1), not per backend: nothing here
// compares fences of different keys, which lets a backend keep every operation of one key in one
// shard (a Redis Cluster slot).
export const fenceCases = defineCases("fences", {
  "fences strictly increase across acquire, expiry and re-acquire of one key": async (ctx) => {
    const fences: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const lock = await ctx.client(round).acquireLock("k", ctx.shortTtlMs);
      assert.ok(lock);
      fences.push(lock.fence);
      await ctx.waitOut(ctx.shortTtlMs);
    }
    const released = await ctx.state.acquireLock("k", ctx.longTtlMs);
    assert.ok(released);
    assert.equal(await ctx.state.releaseLock(released), true);
    const again = await ctx.state.acquireLock("k", ctx.longTtlMs);
    assert.ok(again);
    fences.push(released.fence, again.fence);
    for (let i = 1; i < fences.length; i += 1) {
      assert.ok((fences[i] ?? 0) > (fences[i - 1] ?? 0), `fences must increase: ${fences}`);
    }
  },

  "fences of one key strictly increase across holders on different clients, release and force-release":
    async (ctx) => {
      const fences: number[] = [];
      for (let round = 0; round < 6; round += 1) {
        const lock = await ctx.client(round).acquireLock("k", ctx.longTtlMs);
        assert.ok(lock, `round ${round} must acquire`);
        fences.push(lock.fence);
        if (round % 2 === 0) assert.equal(await ctx.client(round).releaseLock(lock), true);
        else await ctx.client(round + 1).forceReleaseLock("k");
      }
      for (let i = 1; i < fences.length; i += 1) {
        assert.ok((fences[i] ?? 0) > (fences[i - 1] ?? 0), `fences must increase: ${fences}`);
      }
    },

  "each key's fences increase on their own: other keys' acquires neither block nor reset them":
    async ({ state, longTtlMs }) => {
      const byKey = new Map<string, number[]>();
      for (let round = 0; round < 3; round += 1) {
        for (const key of ["a", "b", "c"]) {
          const lock = await state.acquireLock(key, longTtlMs);
          assert.ok(lock);
          byKey.set(key, [...(byKey.get(key) ?? []), lock.fence]);
          assert.equal(await state.releaseLock(lock), true);
        }
      }
      for (const [key, fences] of byKey) {
        for (let i = 1; i < fences.length; i += 1) {
          assert.ok(
            (fences[i] ?? 0) > (fences[i - 1] ?? 0),
            `fences of ${key} must increase: ${fences}`,
          );
        }
      }
    },

  "concurrent acquires of one key after each release hand out distinct, increasing fences": async (
    ctx,
  ) => {
    const seen: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const locks = await concurrently(6, (i) => ctx.client(i).acquireLock("k", ctx.longTtlMs));
      const winners = locks.filter((lock) => lock !== null);
      assert.equal(winners.length, 1, "exactly one of the racers wins");
      const winner = winners[0] as NonNullable<(typeof winners)[0]>;
      seen.push(winner.fence);
      assert.equal(await ctx.state.releaseLock(winner), true);
    }
    for (let i = 1; i < seen.length; i += 1) {
      assert.ok((seen[i] ?? 0) > (seen[i - 1] ?? 0), `fences must increase: ${seen}`);
    }
  },

  "extend keeps the fence": async (ctx) => {
    const lock = await ctx.state.acquireLock("k", ctx.shortTtlMs);
    assert.ok(lock);
    assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), true);
    assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), true);
    assert.equal((await ctx.state.inspectLock("k"))?.fence, lock.fence);
    assert.equal(await ctx.state.releaseLock(lock), true);
    const next = await ctx.state.acquireLock("k", ctx.longTtlMs);
    assert.ok(next && next.fence > lock.fence, "the next holder's fence is higher");
  },
});
