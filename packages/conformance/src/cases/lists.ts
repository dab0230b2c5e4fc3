import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { concurrently } from "./support.js";

export const listCases = defineCases("lists", {
  "should append and retrieve list items": async ({ state }) => {
    await state.appendToList("history", { n: 1 });
    await state.appendToList("history", { n: 2 });
    assert.deepEqual(await state.getList("history"), [{ n: 1 }, { n: 2 }]);
  },

  "should return empty array for non-existent list": async ({ state }) => {
    assert.deepEqual(await state.getList("never"), []);
  },

  "should trim to maxLength, keeping newest": async ({ state }) => {
    for (let n = 1; n <= 5; n += 1) await state.appendToList("h", n, { maxLength: 3 });
    assert.deepEqual(await state.getList("h"), [3, 4, 5]);
  },

  "should respect TTL on lists": async (ctx) => {
    await ctx.state.appendToList("h", 1, { ttlMs: ctx.shortTtlMs });
    await ctx.waitOut(ctx.shortTtlMs);
    assert.deepEqual(await ctx.state.getList("h"), []);
  },

  "should refresh TTL on subsequent appends": async (ctx) => {
    const half = Math.ceil(ctx.shortTtlMs / 2);
    await ctx.state.appendToList("h", 1, { ttlMs: ctx.shortTtlMs });
    await ctx.advanceTime(half);
    await ctx.state.appendToList("h", 2, { ttlMs: ctx.shortTtlMs });
    await ctx.advanceTime(half);
    assert.deepEqual(await ctx.state.getList("h"), [1, 2], "the second append refreshed the TTL");
    await ctx.waitOut(ctx.shortTtlMs);
    assert.deepEqual(await ctx.state.getList("h"), []);
  },

  "should keep lists isolated by key": async ({ state }) => {
    await state.appendToList("a", "a1");
    await state.appendToList("b", "b1");
    assert.deepEqual(await state.getList("a"), ["a1"]);
    assert.deepEqual(await state.getList("b"), ["b1"]);
  },

  "should start fresh after expired list": async (ctx) => {
    await ctx.state.appendToList("h", "old", { ttlMs: ctx.shortTtlMs });
    await ctx.waitOut(ctx.shortTtlMs);
    await ctx.state.appendToList("h", "new", { ttlMs: ctx.longTtlMs });
    assert.deepEqual(await ctx.state.getList("h"), ["new"]);
  },

  "concurrent appends with maxLength keep exactly the bound and lose no slot": async (ctx) => {
    await concurrently(30, (i) => ctx.client(i).appendToList("h", i, { maxLength: 10 }));
    const items = await ctx.state.getList<number>("h");
    assert.equal(items.length, 10);
    assert.equal(new Set(items).size, 10);
    assert.ok(items.every((item) => item >= 0 && item < 30));
  },

  "returns copies of list items": async ({ state }) => {
    await state.appendToList("h", { n: 1 });
    const read = await state.getList<{ n: number }>("h");
    if (read[0]) read[0].n = 99;
    assert.deepEqual(await state.getList("h"), [{ n: 1 }]);
  },
});
