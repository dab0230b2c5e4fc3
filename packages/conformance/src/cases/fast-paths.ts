import assert from "node:assert/strict";
import type {
  AcceptAndAcquireRequest,
  AcceptAndAcquireResult,
  Lock,
  ReleaseAndNextResult,
  StateAdapter,
} from "@baton/core";
import { defineCases } from "../conformance-case.js";
import type { ConformanceContext } from "../harness.js";
import { assertRejectsWithCode, concurrently, entryId, queueEntry } from "./support.js";

// The fused fast paths (DESIGN §4.1) are optional State methods. A backend without them is
// served by the runtime's separate calls, so for it each case checks only that absence is
// consistent; a backend that offers one must keep every guarantee of the calls it replaces.

type Accept = (request: AcceptAndAcquireRequest) => Promise<AcceptAndAcquireResult>;
type ReleaseNext = (lock: Lock) => Promise<ReleaseAndNextResult>;

function acceptOf(state: StateAdapter): Accept | undefined {
  const method = state.acceptAndAcquire;
  if (method === undefined) return undefined;
  assert.equal(typeof method, "function", "acceptAndAcquire is a method when present");
  return (request) => method.call(state, request);
}

function releaseNextOf(state: StateAdapter): ReleaseNext | undefined {
  const method = state.releaseAndNext;
  if (method === undefined) return undefined;
  assert.equal(typeof method, "function", "releaseAndNext is a method when present");
  return (lock) => method.call(state, lock);
}

function request(
  id: string,
  ttlMs: number,
  lockKey = "thread:slack:C1:T1",
): AcceptAndAcquireRequest {
  return {
    dedupeKey: `dedupe:slack:${id}`,
    dedupeTtlMs: ttlMs,
    lockKey,
    lockTtlMs: ttlMs,
    threadId: "slack:C1:T1",
  };
}

/** Runs `body` with the backend's acceptAndAcquire; asserts nothing more for a backend without. */
function withAccept(body: (accept: Accept, ctx: ConformanceContext) => Promise<void>) {
  return async (ctx: ConformanceContext) => {
    const accept = acceptOf(ctx.state);
    if (accept) await body(accept, ctx);
  };
}

function withReleaseNext(
  body: (releaseNext: ReleaseNext, ctx: ConformanceContext) => Promise<void>,
) {
  return async (ctx: ConformanceContext) => {
    const releaseNext = releaseNextOf(ctx.state);
    if (releaseNext) await body(releaseNext, ctx);
  };
}

export const fastPathCases = defineCases("fast paths", {
  "acceptAndAcquire, when offered, writes the mark, takes the lock and reads the subscription":
    withAccept(async (accept, { state, longTtlMs }) => {
      await state.subscribe("slack:C1:T1");
      const result = await accept(request("m1", longTtlMs));
      assert.equal(result.kind, "acquired");
      assert.ok(result.kind === "acquired");
      assert.equal(result.subscribed, true);
      assert.equal(result.lock.key, "thread:slack:C1:T1");
      assert.ok(result.lock.token.length >= 16, "the token must be unguessable");
      assert.ok(Number.isSafeInteger(result.lock.fence) && result.lock.fence > 0);
      assert.equal(
        await state.setIfNotExists("dedupe:slack:m1", 1, longTtlMs),
        false,
        "mark written",
      );
      assert.equal(await state.acquireLock("thread:slack:C1:T1", longTtlMs), null, "lock held");
      assert.equal(await state.releaseLock(result.lock), true, "the lock is an ordinary lock");
    }),

  "acceptAndAcquire, when offered, reports an unsubscribed thread as not subscribed": withAccept(
    async (accept, { longTtlMs }) => {
      const result = await accept(request("m1", longTtlMs));
      assert.ok(result.kind === "acquired");
      assert.equal(result.subscribed, false);
    },
  ),

  "acceptAndAcquire, when offered, answers duplicate and touches nothing for a marked message":
    withAccept(async (accept, { state, longTtlMs }) => {
      assert.equal(await state.setIfNotExists("dedupe:slack:m1", 1, longTtlMs), true);
      assert.deepEqual(await accept(request("m1", longTtlMs)), { kind: "duplicate" });
      assert.equal(await state.inspectLock("thread:slack:C1:T1"), null, "no lock was taken");
    }),

  "acceptAndAcquire, when offered, answers busy under another holder and still writes the mark":
    withAccept(async (accept, { state, longTtlMs }) => {
      const holder = await state.acquireLock("thread:slack:C1:T1", longTtlMs);
      assert.ok(holder);
      assert.deepEqual(await accept(request("m2", longTtlMs)), { kind: "busy" });
      assert.equal(
        await state.setIfNotExists("dedupe:slack:m2", 1, longTtlMs),
        false,
        "mark written",
      );
      assert.equal((await state.inspectLock("thread:slack:C1:T1"))?.fence, holder.fence);
    }),

  "acceptAndAcquire, when offered, lets exactly one of concurrent distinct messages take the lock":
    withAccept(async (_accept, ctx) => {
      const results = await concurrently(10, (i) => {
        const accept = acceptOf(ctx.client(i));
        assert.ok(accept, "every client of the backend offers the method");
        return accept(request(`m${i}`, ctx.longTtlMs));
      });
      assert.equal(results.filter((result) => result.kind === "acquired").length, 1);
      assert.equal(results.filter((result) => result.kind === "busy").length, 9);
    }),

  "acceptAndAcquire, when offered, lets exactly one of concurrent copies of one message in":
    withAccept(async (_accept, ctx) => {
      const results = await concurrently(10, (i) => {
        const accept = acceptOf(ctx.client(i));
        assert.ok(accept);
        return accept(request("same", ctx.longTtlMs, `thread:slack:C1:T${i}`));
      });
      assert.equal(results.filter((result) => result.kind !== "duplicate").length, 1);
    }),

  "acceptAndAcquire, when offered, fences its lock above every earlier acquire of the key":
    withAccept(async (accept, { state, longTtlMs }) => {
      const first = await state.acquireLock("thread:slack:C1:T1", longTtlMs);
      assert.ok(first);
      assert.equal(await state.releaseLock(first), true);
      const result = await accept(request("m1", longTtlMs));
      assert.ok(result.kind === "acquired");
      assert.ok(result.lock.fence > first.fence, "fences strictly increase per key");
    }),

  "acceptAndAcquire, when offered, takes a lock whose lease ran out and lets its mark expire":
    withAccept(async (accept, ctx) => {
      assert.ok(await ctx.state.acquireLock("thread:slack:C1:T1", ctx.shortTtlMs));
      const short = { ...request("m1", ctx.shortTtlMs) };
      await ctx.waitOut(ctx.shortTtlMs);
      const result = await accept(short);
      assert.equal(result.kind, "acquired", "an expired lock is free");
      await ctx.waitOut(ctx.shortTtlMs);
      assert.equal(await ctx.state.setIfNotExists("dedupe:slack:m1", 1, ctx.longTtlMs), true);
    }),

  "acceptAndAcquire, when offered, rejects bad arguments with VALIDATION and writes nothing":
    withAccept(async (accept, { state, longTtlMs }) => {
      await assertRejectsWithCode(
        accept({ ...request("m1", longTtlMs), lockTtlMs: 0 }),
        "VALIDATION_FAILED",
        "lockTtlMs 0",
      );
      await assertRejectsWithCode(
        accept({ ...request("m1", longTtlMs), dedupeTtlMs: -1 }),
        "VALIDATION_FAILED",
        "dedupeTtlMs -1",
      );
      await assertRejectsWithCode(
        accept({ ...request("m1", longTtlMs), lockKey: "" }),
        "VALIDATION_FAILED",
        "empty lockKey",
      );
      await assertRejectsWithCode(
        accept({ ...request("m1", longTtlMs), dedupeKey: "" }),
        "VALIDATION_FAILED",
        "empty dedupeKey",
      );
      assert.equal(
        await state.setIfNotExists("dedupe:slack:m1", 1, longTtlMs),
        true,
        "no mark left",
      );
      assert.equal(await state.inspectLock("thread:slack:C1:T1"), null, "no lock left");
    }),

  "releaseAndNext, when offered, releases the lock and reports an empty queue as null":
    withReleaseNext(async (releaseNext, { state, longTtlMs }) => {
      const lock = await state.acquireLock("thread:slack:C1:T1", longTtlMs);
      assert.ok(lock);
      assert.deepEqual(await releaseNext(lock), { released: true, next: null });
      assert.equal(await state.inspectLock("thread:slack:C1:T1"), null);
    }),

  "releaseAndNext, when offered, reports the oldest queued entry and leaves it queued":
    withReleaseNext(async (releaseNext, { state, longTtlMs }) => {
      const key = "thread:slack:C1:T1";
      const lock = await state.acquireLock(key, longTtlMs);
      assert.ok(lock);
      await state.enqueue(key, queueEntry("a"), { maxSize: 10, onFull: "drop-oldest" });
      await state.enqueue(key, queueEntry("b"), { maxSize: 10, onFull: "drop-oldest" });
      const result = await releaseNext(lock);
      assert.equal(result.released, true);
      assert.equal(entryId(result.next), "a");
      assert.equal(await state.queueDepth(key), 2, "the entry is not removed");
      assert.equal(entryId(await state.dequeue(key)), "a");
      assert.ok(await state.acquireLock(key, longTtlMs), "the lock is free");
    }),

  "releaseAndNext, when offered, releases nothing for a stale token but still reports the queue":
    withReleaseNext(async (releaseNext, { state, longTtlMs }) => {
      const key = "thread:slack:C1:T1";
      const lock = await state.acquireLock(key, longTtlMs);
      assert.ok(lock);
      await state.enqueue(key, queueEntry("a"), { maxSize: 10, onFull: "drop-oldest" });
      const result = await releaseNext({ ...lock, token: `${lock.token}-forged` });
      assert.equal(result.released, false);
      assert.equal(entryId(result.next), "a");
      assert.equal((await state.inspectLock(key))?.fence, lock.fence, "still held");
    }),

  "releaseAndNext, when offered, sees an entry enqueued just before it by another client":
    withReleaseNext(async (releaseNext, ctx) => {
      const key = "thread:slack:C1:T1";
      const lock = await ctx.state.acquireLock(key, ctx.longTtlMs);
      assert.ok(lock);
      await ctx.client(1).enqueue(key, queueEntry("late"), { maxSize: 10, onFull: "drop-oldest" });
      const result = await releaseNext(lock);
      assert.equal(entryId(result.next), "late", "no lost wake-up");
    }),
});
