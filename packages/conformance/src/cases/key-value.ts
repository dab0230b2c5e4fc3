import assert from "node:assert/strict";
import { defineCases } from "../conformance-case.js";
import { assertRejectsWithCode, concurrently } from "./support.js";

export const keyValueCases = defineCases("key-value", {
  "returns null for a key that was never set": async ({ state }) => {
    assert.equal(await state.get("missing"), null);
  },

  "stores and returns JSON values of every shape": async ({ state }) => {
    const value = {
      text: "héllo ✓",
      count: 3,
      ratio: 0.5,
      ok: false,
      list: [1, "two", { n: null }],
    };
    await state.set("shape", value);
    await state.set("number", 42);
    await state.set("string", "plain");
    assert.deepEqual(await state.get("shape"), value);
    assert.equal(await state.get("number"), 42);
    assert.equal(await state.get("string"), "plain");
  },

  "returns copies: mutating a read or the written object changes nothing stored": async ({
    state,
  }) => {
    const written = { items: [1, 2] };
    await state.set("copy", written);
    written.items.push(3);
    const read = await state.get<{ items: number[] }>("copy");
    assert.deepEqual(read, { items: [1, 2] });
    read?.items.push(99);
    assert.deepEqual(await state.get("copy"), { items: [1, 2] });
  },

  "a value set with a TTL disappears once the TTL has passed": async (ctx) => {
    await ctx.state.set("ttl", "soon gone", ctx.shortTtlMs);
    await ctx.state.set("forever", "stays");
    assert.equal(await ctx.state.get("ttl"), "soon gone");
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.get("ttl"), null);
    assert.equal(await ctx.state.get("forever"), "stays");
  },

  "set replaces the previous value and its TTL": async (ctx) => {
    await ctx.state.set("replaced", 1, ctx.shortTtlMs);
    await ctx.state.set("replaced", 2);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.get("replaced"), 2);
  },

  "delete removes a key, and deleting an absent key does nothing": async ({ state }) => {
    await state.set("doomed", "x");
    await state.delete("doomed");
    await state.delete("never-there");
    assert.equal(await state.get("doomed"), null);
  },

  "should set a value when key does not exist": async ({ state }) => {
    assert.equal(await state.setIfNotExists("dedupe:slack:1", "first"), true);
    assert.equal(await state.get("dedupe:slack:1"), "first");
  },

  "should not overwrite an existing key": async ({ state }) => {
    await state.setIfNotExists("dedupe:slack:1", "first");
    assert.equal(await state.setIfNotExists("dedupe:slack:1", "second"), false);
    assert.equal(await state.get("dedupe:slack:1"), "first");
  },

  "should allow setting after TTL expiry": async (ctx) => {
    assert.equal(await ctx.state.setIfNotExists("k", "first", ctx.shortTtlMs), true);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.setIfNotExists("k", "second", ctx.shortTtlMs), true);
    assert.equal(await ctx.state.get("k"), "second");
  },

  "should respect TTL on the new value": async (ctx) => {
    await ctx.state.setIfNotExists("k", "v", ctx.shortTtlMs);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.get("k"), null);
  },

  "a losing setIfNotExists with a longer TTL does not extend the first value's TTL": async (
    ctx,
  ) => {
    assert.equal(await ctx.state.setIfNotExists("k", "first", ctx.shortTtlMs), true);
    assert.equal(await ctx.state.setIfNotExists("k", "second", ctx.longTtlMs), false);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.get("k"), null);
    assert.equal(await ctx.state.setIfNotExists("k", "third"), true);
  },

  "of many concurrent setIfNotExists calls exactly one wins": async (ctx) => {
    const results = await concurrently(24, (i) =>
      ctx.client(i).setIfNotExists("dedupe:race", `caller-${i}`, ctx.longTtlMs),
    );
    assert.equal(results.filter(Boolean).length, 1);
    const winner = results.indexOf(true);
    assert.equal(await ctx.state.get("dedupe:race"), `caller-${winner}`);
  },

  "mergeObject creates the object when the key is absent and merges shallowly after": async ({
    state,
  }) => {
    assert.deepEqual(await state.mergeObject("thread-state", { topic: "billing" }), {
      topic: "billing",
    });
    const merged = await state.mergeObject("thread-state", { step: 2, topic: "refunds" });
    assert.deepEqual(merged, { topic: "refunds", step: 2 });
    assert.deepEqual(await state.get("thread-state"), { topic: "refunds", step: 2 });
  },

  "concurrent mergeObject calls lose no key": async (ctx) => {
    await concurrently(20, (i) => ctx.client(i).mergeObject("thread-state", { [`k${i}`]: i }));
    const stored = await ctx.state.get<Record<string, number>>("thread-state");
    assert.equal(Object.keys(stored ?? {}).length, 20);
    assert.equal(stored?.k7, 7);
  },

  "mergeObject keeps an existing TTL unless given a new one": async (ctx) => {
    await ctx.state.mergeObject("ttl-kept", { a: 1 }, ctx.shortTtlMs);
    await ctx.state.mergeObject("ttl-kept", { b: 2 });
    await ctx.state.mergeObject("ttl-renewed", { a: 1 }, ctx.shortTtlMs);
    await ctx.state.mergeObject("ttl-renewed", { b: 2 }, ctx.longTtlMs);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.get("ttl-kept"), null);
    assert.deepEqual(await ctx.state.get("ttl-renewed"), { a: 1, b: 2 });
  },

  "mergeObject rejects merging into a value that is not an object": async ({ state }) => {
    await state.set("scalar", 5);
    await state.set("null-value", null);
    await assertRejectsWithCode(
      state.mergeObject("null-value", { a: 1 }),
      "VALIDATION_FAILED",
      "merge into null",
    );
    await assertRejectsWithCode(
      state.mergeObject("scalar", { a: 1 }),
      "VALIDATION_FAILED",
      "merge into a number",
    );
    assert.equal(await state.get("scalar"), 5);
  },

  "rejects a TTL that is not a positive number, writing nothing": async ({ state }) => {
    await assertRejectsWithCode(state.set("bad", 1, 0), "VALIDATION_FAILED", "set with ttl 0");
    await assertRejectsWithCode(
      state.setIfNotExists("bad", 1, -5),
      "VALIDATION_FAILED",
      "setIfNotExists with ttl -5",
    );
    assert.equal(await state.get("bad"), null);
  },
});
