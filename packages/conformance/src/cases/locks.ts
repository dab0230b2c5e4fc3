import assert from "node:assert/strict";
import type { Lock } from "@baton/core";
import { defineCases } from "../conformance-case.js";
import { assertRejectsWithCode, concurrently } from "./support.js";

function forged(lock: Lock): Lock {
  return { ...lock, token: `${lock.token}-forged` };
}

export const lockCases = defineCases("locks", {
  "should acquire a lock": async ({ state, longTtlMs }) => {
    const lock = await state.acquireLock("thread:slack:C1:T1", longTtlMs);
    assert.ok(lock, "a free lock must be acquired");
    assert.equal(lock.key, "thread:slack:C1:T1");
    assert.equal(typeof lock.token, "string");
    assert.ok(lock.token.length >= 16, "the token must be unguessable");
    assert.ok(Number.isSafeInteger(lock.fence) && lock.fence > 0, "fence is a positive integer");
    assert.ok(lock.expiresAt > Date.UTC(2020, 0, 1), "expiresAt is in epoch milliseconds");
  },

  "should prevent double-locking": async ({ state, longTtlMs }) => {
    assert.ok(await state.acquireLock("k", longTtlMs));
    assert.equal(await state.acquireLock("k", longTtlMs), null);
  },

  "a conflict resolves to null for every contender, never a rejection": async (ctx) => {
    assert.ok(await ctx.state.acquireLock("k", ctx.longTtlMs));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => ctx.client(i).acquireLock("k", ctx.longTtlMs)),
    );
    for (const result of results) {
      assert.equal(result.status, "fulfilled");
      assert.equal(result.status === "fulfilled" ? result.value : undefined, null);
    }
  },

  "should release a lock": async ({ state, longTtlMs }) => {
    const lock = await state.acquireLock("k", longTtlMs);
    assert.ok(lock);
    assert.equal(await state.releaseLock(lock), true);
    assert.equal(await state.inspectLock("k"), null);
    assert.ok(await state.acquireLock("k", longTtlMs));
  },

  "releasing twice returns false the second time": async ({ state, longTtlMs }) => {
    const lock = await state.acquireLock("k", longTtlMs);
    assert.ok(lock);
    assert.equal(await state.releaseLock(lock), true);
    assert.equal(await state.releaseLock(lock), false);
  },

  "should not release a lock with wrong token": async ({ state, longTtlMs }) => {
    const lock = await state.acquireLock("k", longTtlMs);
    assert.ok(lock);
    assert.equal(await state.releaseLock(forged(lock)), false);
    assert.equal(await state.acquireLock("k", longTtlMs), null, "the lock must still be held");
    assert.equal(await state.releaseLock(lock), true);
  },

  "should extend a lock": async (ctx) => {
    const lock = await ctx.state.acquireLock("k", ctx.shortTtlMs);
    assert.ok(lock);
    assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), true);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.acquireLock("k", ctx.shortTtlMs), null, "extend must push expiry");
    const info = await ctx.state.inspectLock("k");
    assert.ok(info && info.expiresAt > lock.expiresAt, "expiresAt must move later");
    assert.equal(await ctx.state.releaseLock(lock), true);
  },

  "only the token holder can extend; a forged extend leaves the expiry alone": async (ctx) => {
    const lock = await ctx.state.acquireLock("k", ctx.shortTtlMs);
    assert.ok(lock);
    const before = await ctx.state.inspectLock("k");
    assert.equal(await ctx.state.extendLock(forged(lock), ctx.longTtlMs), false);
    assert.deepEqual(await ctx.state.inspectLock("k"), before);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.ok(await ctx.state.acquireLock("k", ctx.longTtlMs), "the lock must have expired");
  },

  "should allow re-locking after expiry": async (ctx) => {
    assert.ok(await ctx.state.acquireLock("k", ctx.shortTtlMs));
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.inspectLock("k"), null);
    assert.ok(await ctx.state.acquireLock("k", ctx.longTtlMs));
  },

  "should not extend an expired lock": async (ctx) => {
    const lock = await ctx.state.acquireLock("k", ctx.shortTtlMs);
    assert.ok(lock);
    await ctx.waitOut(ctx.shortTtlMs);
    assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), false);
    assert.equal(await ctx.state.inspectLock("k"), null, "an expired lock is never resurrected");
    assert.ok(await ctx.state.acquireLock("k", ctx.longTtlMs));
  },

  "a stale holder's extend and release return false and leave the new lock intact": async (ctx) => {
    const stale = await ctx.state.acquireLock("k", ctx.shortTtlMs);
    assert.ok(stale);
    await ctx.waitOut(ctx.shortTtlMs);
    const fresh = await ctx.client(1).acquireLock("k", ctx.longTtlMs);
    assert.ok(fresh);
    const held = await ctx.state.inspectLock("k");
    assert.equal(await ctx.state.extendLock(stale, ctx.shortTtlMs), false);
    assert.equal(await ctx.state.releaseLock(stale), false);
    assert.deepEqual(await ctx.state.inspectLock("k"), held, "the new lock must be untouched");
    assert.equal(await ctx.state.acquireLock("k", ctx.longTtlMs), null);
    assert.equal(await ctx.client(1).extendLock(fresh, ctx.longTtlMs), true);
    assert.equal(await ctx.client(1).releaseLock(fresh), true);
  },

  "should force-release a lock regardless of token": async ({ state, longTtlMs }) => {
    const lock = await state.acquireLock("k", longTtlMs);
    assert.ok(lock);
    await state.forceReleaseLock("k");
    assert.equal(await state.inspectLock("k"), null);
    assert.equal(await state.releaseLock(lock), false);
    assert.ok(await state.acquireLock("k", longTtlMs));
  },

  "should no-op when force-releasing a non-existent lock": async ({ state, longTtlMs }) => {
    await state.forceReleaseLock("never-locked");
    assert.ok(await state.acquireLock("never-locked", longTtlMs));
  },

  "of many concurrent acquirers exactly one wins": async (ctx) => {
    const results = await concurrently(25, (i) => ctx.client(i).acquireLock("race", ctx.longTtlMs));
    const winners = results.filter((lock) => lock !== null);
    assert.equal(winners.length, 1);
    assert.equal((await ctx.state.inspectLock("race"))?.fence, winners[0]?.fence);
  },

  "locks on different keys are independent": async ({ state, longTtlMs }) => {
    const a = await state.acquireLock("thread:a", longTtlMs);
    const b = await state.acquireLock("thread:b", longTtlMs);
    assert.ok(a && b);
    assert.notEqual(a.token, b.token);
    assert.equal(await state.releaseLock(a), true);
    assert.ok(await state.inspectLock("thread:b"));
  },

  "inspectLock shows the holder's fence and expiry but never its token": async (ctx) => {
    const lock = await ctx.state.acquireLock("k", ctx.longTtlMs);
    assert.ok(lock);
    const info = await ctx.state.inspectLock("k");
    assert.ok(info);
    assert.equal(info.key, "k");
    assert.equal(info.fence, lock.fence);
    assert.ok(Math.abs(info.expiresAt - lock.expiresAt) < 1_000);
    assert.equal(JSON.stringify(info).includes(lock.token), false);
  },

  "rejects a lock TTL that is not a positive number": async ({ state }) => {
    await assertRejectsWithCode(state.acquireLock("k", 0), "VALIDATION_FAILED", "ttl 0");
    await assertRejectsWithCode(state.acquireLock("k", Number.NaN), "VALIDATION_FAILED", "ttl NaN");
    assert.equal(await state.inspectLock("k"), null);
  },
});
