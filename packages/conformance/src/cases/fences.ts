import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { concurrently } from "./support.js";

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

  "fences strictly increase across different keys": async ({ state, longTtlMs }) => {
    const fences: number[] = [];
    for (const key of ["a", "b", "c", "d"]) {
      const lock = await state.acquireLock(key, longTtlMs);
      assert.ok(lock);
      fences.push(lock.fence);
    }
    for (let i = 1; i < fences.length; i += 1) {
      assert.ok((fences[i] ?? 0) > (fences[i - 1] ?? 0), `fences must increase: ${fences}`);
    }
  },

  "concurrent acquires of different keys all get distinct fences": async (ctx) => {
    const locks = await concurrently(20, (i) =>
      ctx.client(i).acquireLock(`key-${i}`, ctx.longTtlMs),
    );
    const fences = locks.map((lock) => lock?.fence);
    assert.ok(fences.every((fence) => typeof fence === "number"));
    assert.equal(new Set(fences).size, fences.length);
  },

  "extend keeps the fence": async (ctx) => {
    const lock = await ctx.state.acquireLock("k", ctx.shortTtlMs);
    assert.ok(lock);
    assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), true);
    assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), true);
    assert.equal((await ctx.state.inspectLock("k"))?.fence, lock.fence);
    const other = await ctx.state.acquireLock("other", ctx.longTtlMs);
    assert.ok(other && other.fence > lock.fence);
  },
});
