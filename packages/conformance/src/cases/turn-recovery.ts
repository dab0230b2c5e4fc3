import assert from "node:assert/strict";
import type { AcceptAndAcquireRequest, Lock } from "@baton/core";
import { defineCases } from "../conformance-case.js";
import { assertRejectsWithCode, concurrently, entryId, queueEntry } from "./support.js";
import {
  firstAttempt,
  handedBackTurn,
  idsOf,
  startTurn,
  T0,
  T1,
  T2,
  turnOf,
  turnsOfClient,
  withTurns,
} from "./turn-support.js";

// Taking interrupted turns over (recoverTurn), filling records from the queue (takeQueuedTurn),
// narrowing them (writeTurn), and argument checks. Writing and ending records is in turns.ts.

const KEY = "thread:slack:C1:T1";
const QUEUE = { maxSize: 100, onFull: "drop-oldest" } as const;

function forged(lock: Lock): Lock {
  return { ...lock, token: `${lock.token}-forged` };
}

export const turnRecoveryCases = defineCases("turn recovery", {
  "recoverTurn takes an interrupted turn's lock with a larger fence, bumps its attempt and returns the record as it was":
    withTurns(async (turns, ctx) => {
      const turn = turnOf(["m1", "m2"]);
      const first = await startTurn(ctx, KEY, turn, ctx.shortTtlMs);
      await ctx.waitOut(ctx.shortTtlMs);
      const recovered = await turns.recoverTurn(KEY, ctx.longTtlMs, { startedAt: T1 });
      assert.ok(recovered, "a turn whose lease lapsed is recovered");
      const { lock } = recovered;
      assert.equal(lock.key, KEY);
      assert.ok(lock.token.length >= 16 && lock.token !== first.token, "a new, unguessable token");
      assert.ok(lock.fence > first.fence, "a new, larger fence");
      assert.deepEqual(
        recovered.interrupted,
        firstAttempt(first, turn),
        "no handedBack: it lapsed",
      );
      assert.deepEqual(await turns.inspectTurn(KEY), {
        key: KEY,
        entries: [...turn.entries],
        fence: lock.fence,
        attempt: 2,
        startedAt: T1,
      });
      assert.equal((await ctx.state.inspectLock(KEY))?.fence, lock.fence);
      assert.equal(await ctx.state.extendLock(lock, ctx.longTtlMs), true, "an ordinary lock");
      assert.equal(await ctx.state.releaseLock(lock, { turn: { kind: "end" } }), true);
      assert.equal(await turns.inspectTurn(KEY), null);
    }),

  "recoverTurn of a handed-back turn reports why it was handed back and clears the mark": withTurns(
    async (turns, ctx) => {
      const turn = turnOf(["m1"]);
      const first = await handedBackTurn(ctx, KEY, turn);
      const second = await turns.recoverTurn(KEY, ctx.longTtlMs, { startedAt: T1 });
      assert.ok(second);
      assert.deepEqual(second.interrupted, {
        ...firstAttempt(first, turn),
        handedBack: "shutdown",
      });
      const secondRecord = {
        key: KEY,
        entries: [...turn.entries],
        fence: second.lock.fence,
        attempt: 2,
        startedAt: T1,
      };
      assert.deepEqual(await turns.inspectTurn(KEY), secondRecord, "handedBack is cleared");
      const release = { kind: "hand-back", reason: "lease-lost" } as const;
      assert.equal(await ctx.state.releaseLock(second.lock, { turn: release }), true);
      const third = await turns.recoverTurn(KEY, ctx.longTtlMs, { startedAt: T2 });
      assert.ok(third);
      assert.deepEqual(third.interrupted, { ...secondRecord, handedBack: "lease-lost" });
      assert.equal((await turns.inspectTurn(KEY))?.attempt, 3);
    },
  ),

  "recoverTurn returns null and changes nothing on a live lock or a key without a turn record":
    withTurns(async (turns, ctx) => {
      const turn = turnOf(["m1"]);
      const live = await startTurn(ctx, KEY, turn);
      assert.equal(await turns.recoverTurn(KEY, ctx.longTtlMs, { startedAt: T1 }), null);
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(live, turn));
      assert.equal((await ctx.state.inspectLock(KEY))?.fence, live.fence);
      assert.equal(await ctx.state.releaseLock(live, { turn: { kind: "end" } }), true);
      assert.ok(await ctx.state.acquireLock("lapsed", ctx.shortTtlMs), "a plain lock, no record");
      await ctx.waitOut(ctx.shortTtlMs);
      for (const key of [KEY, "lapsed", "never-used"]) {
        assert.equal(await turns.recoverTurn(key, ctx.longTtlMs, { startedAt: T1 }), null, key);
        assert.equal(await ctx.state.inspectLock(key), null, `${key}: no lock was taken`);
        assert.equal(await turns.inspectTurn(key), null, `${key}: no record was written`);
      }
    }),

  "of concurrent recoverTurn calls on every client exactly one gets the turn": withTurns(
    async (turns, ctx) => {
      await handedBackTurn(ctx, KEY, turnOf(["m1"]));
      const results = await concurrently(10, (i) =>
        turnsOfClient(ctx, i).recoverTurn(KEY, ctx.longTtlMs, { startedAt: T1 + i }),
      );
      const winners = results.flatMap((result, i) => (result ? [{ result, i }] : []));
      assert.equal(winners.length, 1, "exactly one caller recovers the turn");
      const [{ result, i }] = winners as [(typeof winners)[0]];
      const record = await turns.inspectTurn(KEY);
      assert.equal(record?.attempt, 2, "the attempt is bumped once");
      assert.equal(record?.fence, result.lock.fence);
      assert.equal(record?.startedAt, T1 + i);
      assert.equal((await ctx.state.inspectLock(KEY))?.fence, result.lock.fence);
    },
  ),

  "a recovered turn's fence is above every earlier fence of its key, and the next turn's above it":
    withTurns(async (turns, ctx) => {
      const fences: number[] = [];
      const plain = await ctx.state.acquireLock(KEY, ctx.longTtlMs);
      assert.ok(plain);
      fences.push(plain.fence);
      assert.equal(await ctx.state.releaseLock(plain), true);
      fences.push((await startTurn(ctx, KEY, turnOf(["m1"]), ctx.shortTtlMs)).fence);
      await ctx.waitOut(ctx.shortTtlMs);
      const second = await turns.recoverTurn(KEY, ctx.shortTtlMs, { startedAt: T1 });
      assert.ok(second);
      fences.push(second.lock.fence);
      await ctx.waitOut(ctx.shortTtlMs);
      const third = await turnsOfClient(ctx, 1).recoverTurn(KEY, ctx.longTtlMs, { startedAt: T2 });
      assert.ok(third, "a recovered turn whose lease lapsed is recovered again");
      assert.equal(third.interrupted.fence, second.lock.fence);
      assert.equal(third.interrupted.attempt, 2);
      fences.push(third.lock.fence);
      assert.equal(await ctx.client(1).releaseLock(third.lock, { turn: { kind: "end" } }), true);
      fences.push((await startTurn(ctx, KEY, turnOf(["m2"]))).fence);
      for (let i = 1; i < fences.length; i += 1) {
        assert.ok((fences[i] ?? 0) > (fences[i - 1] ?? 0), `fences must increase: ${fences}`);
      }
    }),

  "takeQueuedTurn moves up to maxEntries of the oldest entries into a new turn record in one step":
    withTurns(async (turns, ctx) => {
      await handedBackTurn(ctx, KEY, turnOf(["m"]));
      const recovered = await turns.recoverTurn(KEY, ctx.longTtlMs, { startedAt: T1 });
      assert.ok(recovered);
      const { lock } = recovered;
      const entries = ["a", "b", "c"].map((id) => queueEntry(id, T0));
      for (const entry of entries) await ctx.state.enqueue(KEY, entry, QUEUE);
      assert.deepEqual(await turns.takeQueuedTurn(lock, { maxEntries: 2, startedAt: T1 }), [
        entries[0],
        entries[1],
      ]);
      const firstRound = { key: KEY, entries: entries.slice(0, 2), fence: lock.fence };
      assert.deepEqual(
        await turns.inspectTurn(KEY),
        { ...firstRound, attempt: 1, startedAt: T1 },
        "the recovered turn's record is replaced by a first attempt",
      );
      assert.equal(await ctx.state.queueDepth(KEY), 1);
      assert.deepEqual(await ctx.state.pendingQueueKeys(), [KEY]);
      const taken = await turns.takeQueuedTurn(lock, { maxEntries: 5, startedAt: T2 });
      assert.deepEqual(idsOf({ entries: taken }), ["c"]);
      const lastRound = { key: KEY, entries: [entries[2]], fence: lock.fence };
      assert.deepEqual(await turns.inspectTurn(KEY), { ...lastRound, attempt: 1, startedAt: T2 });
      assert.equal(await ctx.state.queueDepth(KEY), 0);
      assert.deepEqual(await ctx.state.pendingQueueKeys(), [], "an emptied queue leaves the index");
      assert.deepEqual(await turns.takeQueuedTurn(lock, { maxEntries: 5, startedAt: T0 }), []);
      assert.deepEqual(await turns.inspectTurn(KEY), { ...lastRound, attempt: 1, startedAt: T2 });
    }),

  "takeQueuedTurn returns [] and changes nothing when the token does not hold the lock or the queue is empty":
    withTurns(async (turns, ctx) => {
      const take = { maxEntries: 10, startedAt: T1 };
      const lapsed = await startTurn(ctx, "lapsed", turnOf(["l"]), ctx.shortTtlMs);
      await ctx.state.enqueue("lapsed", queueEntry("q-lapsed", T0), QUEUE);
      await ctx.waitOut(ctx.shortTtlMs);
      const live = await startTurn(ctx, KEY, turnOf(["m"]));
      await ctx.state.enqueue(KEY, queueEntry("q", T0), QUEUE);
      const empty = await startTurn(ctx, "empty", turnOf(["e"]));
      const released = await startTurn(ctx, "released", turnOf(["r"]));
      await ctx.state.enqueue("released", queueEntry("q-released", T0), QUEUE);
      assert.equal(await ctx.state.releaseLock(released), true);
      const before = await Promise.all(
        [KEY, "lapsed", "empty", "released"].map((key) => turns.inspectTurn(key)),
      );
      assert.deepEqual(await turns.takeQueuedTurn(forged(live), take), [], "forged token");
      assert.deepEqual(await turns.takeQueuedTurn(lapsed, take), [], "lapsed lease");
      assert.deepEqual(await turns.takeQueuedTurn(released, take), [], "released lock");
      assert.deepEqual(await turns.takeQueuedTurn(empty, take), [], "empty queue");
      const after = await Promise.all(
        [KEY, "lapsed", "empty", "released"].map((key) => turns.inspectTurn(key)),
      );
      assert.deepEqual(after, before, "no record changed");
      for (const key of [KEY, "lapsed", "released"]) {
        assert.equal(await ctx.state.queueDepth(key), 1, `${key}: nothing left the queue`);
      }
    }),

  "takeQueuedTurn loses no entry to concurrent enqueues: each is in the record or still queued":
    withTurns(async (turns, ctx) => {
      const lock = await startTurn(ctx, KEY, turnOf([]));
      const enqueue = (i: number) => ctx.client(i).enqueue(KEY, queueEntry(i, T0), QUEUE);
      const before = Array.from({ length: 5 }, (_, i) => enqueue(i));
      const taking = turns.takeQueuedTurn(lock, { maxEntries: 100, startedAt: T1 });
      const after = Array.from({ length: 5 }, (_, i) => enqueue(i + 5));
      await Promise.all([...before, ...after]);
      const taken = (await taking).map(entryId);
      const record = await turns.inspectTurn(KEY);
      assert.deepEqual(idsOf(record), taken, "the record holds what was taken");
      const queued: unknown[] = [];
      for (let entry = await ctx.state.dequeue(KEY); entry; entry = await ctx.state.dequeue(KEY)) {
        queued.push(entryId(entry));
      }
      const all = [...taken, ...queued].sort((a, b) => Number(a) - Number(b));
      assert.deepEqual(
        all,
        Array.from({ length: 10 }, (_, i) => i),
      );
    }),

  "writeTurn keeps the attempt of a record of the lock's fence and writes attempt 1 otherwise":
    withTurns(async (turns, ctx) => {
      await handedBackTurn(ctx, KEY, turnOf(["m1", "m2"]));
      const recovered = await turns.recoverTurn(KEY, ctx.longTtlMs, { startedAt: T1 });
      assert.ok(recovered);
      const narrowed = turnOf(["m2"], T2);
      assert.equal(await turns.writeTurn(recovered.lock, narrowed), true);
      assert.deepEqual(await turns.inspectTurn(KEY), {
        key: KEY,
        entries: [...narrowed.entries],
        fence: recovered.lock.fence,
        attempt: 2,
        startedAt: T2,
      });
      const plain = await ctx.state.acquireLock("fresh", ctx.longTtlMs);
      assert.ok(plain);
      assert.equal(await turns.inspectTurn("fresh"), null, "a plain acquire writes no record");
      assert.equal(await turns.writeTurn(plain, narrowed), true);
      assert.deepEqual(await turns.inspectTurn("fresh"), firstAttempt(plain, narrowed));
      const older = await handedBackTurn(ctx, "older", turnOf(["o1"]));
      const over = await ctx.state.acquireLock("older", ctx.longTtlMs);
      assert.ok(over, "a plain acquire takes the lock over an older record");
      assert.equal(await turns.writeTurn(over, narrowed), true);
      assert.ok(over.fence > older.fence);
      assert.deepEqual(await turns.inspectTurn("older"), firstAttempt(over, narrowed));
    }),

  "writeTurn returns false and changes nothing when the token does not hold the lock": withTurns(
    async (turns, ctx) => {
      const other = turnOf(["other"], T2);
      const lapsed = await startTurn(ctx, "lapsed", turnOf(["l"]), ctx.shortTtlMs);
      await ctx.waitOut(ctx.shortTtlMs);
      const live = await startTurn(ctx, KEY, turnOf(["m"]));
      const ended = await startTurn(ctx, "ended", turnOf(["e"]));
      assert.equal(await ctx.state.releaseLock(ended, { turn: { kind: "end" } }), true);
      const before = await Promise.all([KEY, "lapsed"].map((key) => turns.inspectTurn(key)));
      assert.equal(await turns.writeTurn(forged(live), other), false, "forged token");
      assert.equal(await turns.writeTurn(lapsed, other), false, "lapsed lease");
      assert.equal(await turns.writeTurn(ended, other), false, "released lock");
      assert.deepEqual(
        await Promise.all([KEY, "lapsed"].map((key) => turns.inspectTurn(key))),
        before,
      );
      assert.equal(await turns.inspectTurn("ended"), null, "an ended turn is not written again");
    },
  ),

  "turn operations reject bad arguments with VALIDATION and write nothing": withTurns(
    async (turns, ctx) => {
      const { state, longTtlMs } = ctx;
      const turn = turnOf(["m1"]);
      const accept = state.acceptAndAcquire?.bind(state);
      if (accept) {
        const request: AcceptAndAcquireRequest = {
          dedupeKey: "dedupe:slack:m1",
          dedupeTtlMs: longTtlMs,
          lockKey: KEY,
          lockTtlMs: 0,
          threadId: "slack:C1:T1",
          turn,
        };
        await assertRejectsWithCode(accept(request), "VALIDATION_FAILED", "accept, lockTtlMs 0");
        assert.equal(await state.setIfNotExists("dedupe:slack:m1", 1, longTtlMs), true, "no mark");
      }
      const bad = "VALIDATION_FAILED";
      await assertRejectsWithCode(state.acquireLock("", longTtlMs, { turn }), bad, "empty key");
      await assertRejectsWithCode(state.acquireLock(KEY, 0, { turn }), bad, "acquire, ttl 0");
      assert.equal(await state.inspectLock(KEY), null, "no lock was taken");
      assert.equal(await turns.inspectTurn(KEY), null, "no record was written");
      await handedBackTurn(ctx, "interrupted", turn);
      const record = await turns.inspectTurn("interrupted");
      await assertRejectsWithCode(turns.recoverTurn("", longTtlMs, { startedAt: T1 }), bad, "key");
      for (const ttlMs of [0, -1, Number.NaN]) {
        const recovering = turns.recoverTurn("interrupted", ttlMs, { startedAt: T1 });
        await assertRejectsWithCode(recovering, bad, `recover, ttl ${ttlMs}`);
      }
      assert.equal(await state.inspectLock("interrupted"), null, "no lock was taken");
      assert.deepEqual(await turns.inspectTurn("interrupted"), record, "the record is untouched");
      const lock = await startTurn(ctx, KEY, turn);
      await state.enqueue(KEY, queueEntry("q", T0), QUEUE);
      for (const maxEntries of [0, -1]) {
        const taking = turns.takeQueuedTurn(lock, { maxEntries, startedAt: T1 });
        await assertRejectsWithCode(taking, bad, `maxEntries ${maxEntries}`);
      }
      assert.equal(await state.queueDepth(KEY), 1, "nothing left the queue");
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(lock, turn));
      await assertRejectsWithCode(turns.pendingTurnKeys(0), bad, "limit 0");
      await assertRejectsWithCode(turns.inspectTurn(""), bad, "inspect, empty key");
    },
  ),

  "releaseAndNext with a turn release, when offered, ends or hands back the record in the same step":
    withTurns(async (turns, ctx) => {
      const releaseNext = ctx.state.releaseAndNext?.bind(ctx.state);
      if (!releaseNext) return;
      await ctx.state.enqueue(KEY, queueEntry("q", T0), QUEUE);
      const ended = await startTurn(ctx, KEY, turnOf(["m1"]));
      const endResult = await releaseNext(ended, { turn: { kind: "end" } });
      assert.equal(endResult.released, true);
      assert.equal(entryId(endResult.next), "q");
      assert.equal(await turns.inspectTurn(KEY), null, "the ended turn's record is deleted");
      const turn = turnOf(["m2"]);
      const back = await startTurn(ctx, KEY, turn);
      const release = { kind: "hand-back", reason: "shutdown" } as const;
      const backResult = await releaseNext(back, { turn: release });
      assert.equal(backResult.released, true);
      assert.equal(entryId(backResult.next), "q");
      assert.deepEqual(await turns.inspectTurn(KEY), {
        ...firstAttempt(back, turn),
        handedBack: "shutdown",
      });
      assert.equal(await ctx.state.queueDepth(KEY), 1, "the entry stays queued");
      const lapsed = await startTurn(ctx, "lapsed", turnOf(["l"]), ctx.shortTtlMs);
      await ctx.waitOut(ctx.shortTtlMs);
      const next = await ctx.client(1).acquireLock("lapsed", ctx.longTtlMs);
      assert.ok(next, "a plain acquire takes the lapsed lock");
      const lapsedResult = await releaseNext(lapsed, { turn: { kind: "end" } });
      assert.deepEqual(lapsedResult, { released: false, next: null });
      assert.equal(await turns.inspectTurn("lapsed"), null, "the turn did end");
      assert.equal((await ctx.state.inspectLock("lapsed"))?.fence, next.fence, "lock untouched");
    }),
});
