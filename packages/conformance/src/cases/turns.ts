import assert from "node:assert/strict";
import type { AcceptAndAcquireRequest } from "@baton/core";
import { defineCases } from "../conformance-case.js";
import { concurrently, entryId, queueEntry } from "./support.js";
import {
  firstAttempt,
  handedBackTurn,
  idsOf,
  startTurn,
  T0,
  T1,
  turnOf,
  turnsOf,
  withTurns,
} from "./turn-support.js";

// Turn records (DESIGN §6.1): written with the lock that runs the turn, ended or handed back with
// its release, listed while interrupted. Recovery and drains are in turn-recovery.ts.

const KEY = "thread:slack:C1:T1";

function acceptRequest(id: string, ttlMs: number): AcceptAndAcquireRequest {
  return {
    dedupeKey: `dedupe:slack:${id}`,
    dedupeTtlMs: ttlMs,
    lockKey: KEY,
    lockTtlMs: ttlMs,
    threadId: "slack:C1:T1",
  };
}

export const turnRecordCases = defineCases("turn records", {
  "turn records are offered whole or not at all, by every client, and whenever the harness requires them":
    async (ctx) => {
      const offered = ctx.clients.map((client) => turnsOf(client) !== undefined);
      assert.ok(
        offered.every((has) => has === offered[0]),
        "the backend's clients agree on turn records",
      );
      if (ctx.requires("turns")) {
        assert.equal(offered[0], true, 'the harness requires turn records (requires: ["turns"])');
      }
    },

  "acquireLock with a turn writes its record with the new lock's fence, attempt 1 and the entries and startedAt as given":
    withTurns(async (turns, ctx) => {
      const turn = turnOf(["m1", "m2"], T1);
      const lock = await startTurn(ctx, KEY, turn);
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(lock, turn));
      assert.equal((await ctx.state.inspectLock(KEY))?.fence, lock.fence);
      assert.equal(await ctx.state.queueDepth(KEY), 0, "a turn's entries are not queued");
    }),

  "of concurrent acquireLock calls with turns exactly one wins, and the record is the winner's":
    withTurns(async (turns, ctx) => {
      const locks = await concurrently(10, (i) =>
        ctx.client(i).acquireLock(KEY, ctx.longTtlMs, { turn: turnOf([i]) }),
      );
      const winners = locks.flatMap((lock, i) => (lock ? [{ lock, i }] : []));
      assert.equal(winners.length, 1, "exactly one acquire wins");
      const [{ lock, i }] = winners as [(typeof winners)[0]];
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(lock, turnOf([i])));
    }),

  "acquireLock with a turn fails and writes nothing while an interrupted turn waits, and succeeds once that turn ended":
    withTurns(async (turns, ctx) => {
      const lapsed = await startTurn(ctx, "lapsed", turnOf(["a"]), ctx.shortTtlMs);
      const handedBack = await handedBackTurn(ctx, "handed-back", turnOf(["b"]));
      await ctx.waitOut(ctx.shortTtlMs);
      for (const key of ["lapsed", "handed-back"]) {
        const before = await turns.inspectTurn(key);
        assert.ok(before, `${key} keeps its record`);
        assert.equal(
          await ctx.state.acquireLock(key, ctx.longTtlMs, { turn: turnOf(["new"]) }),
          null,
        );
        assert.equal(await ctx.state.inspectLock(key), null, `${key}: no lock was taken`);
        assert.deepEqual(await turns.inspectTurn(key), before, `${key}: the record is untouched`);
      }
      assert.equal(await ctx.state.releaseLock(lapsed, { turn: { kind: "end" } }), false);
      assert.equal(await ctx.state.releaseLock(handedBack, { turn: { kind: "end" } }), false);
      for (const key of ["lapsed", "handed-back"]) {
        assert.equal(await turns.inspectTurn(key), null, `${key}: ending the turn deletes it`);
        const lock = await ctx.state.acquireLock(key, ctx.longTtlMs, { turn: turnOf(["new"]) });
        assert.ok(lock, `${key}: free again once the interrupted turn ended`);
        assert.deepEqual(await turns.inspectTurn(key), firstAttempt(lock, turnOf(["new"])));
      }
    }),

  "acceptAndAcquire with a turn, when offered, answers busy while an interrupted turn waits and writes the record with its lock":
    withTurns(async (turns, ctx) => {
      const accept = ctx.state.acceptAndAcquire?.bind(ctx.state);
      if (!accept) return;
      const stale = await handedBackTurn(ctx, KEY, turnOf(["old"]));
      const before = await turns.inspectTurn(KEY);
      const turn = turnOf(["m2"]);
      assert.deepEqual(await accept({ ...acceptRequest("m2", ctx.longTtlMs), turn }), {
        kind: "busy",
      });
      assert.equal(
        await ctx.state.setIfNotExists("dedupe:slack:m2", 1, ctx.longTtlMs),
        false,
        "the mark is written",
      );
      assert.equal(await ctx.state.inspectLock(KEY), null, "no lock was taken");
      assert.deepEqual(await turns.inspectTurn(KEY), before, "the record is untouched");
      assert.equal(await ctx.state.releaseLock(stale, { turn: { kind: "end" } }), false);
      const result = await accept({ ...acceptRequest("m3", ctx.longTtlMs), turn });
      assert.ok(result.kind === "acquired", "free once the interrupted turn ended");
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(result.lock, turn));
    }),

  "releaseLock ending a turn deletes its record and frees the lock": withTurns(
    async (turns, ctx) => {
      const lock = await startTurn(ctx, KEY, turnOf(["m1"]));
      assert.equal(await ctx.state.releaseLock(lock, { turn: { kind: "end" } }), true);
      assert.equal(await turns.inspectTurn(KEY), null);
      assert.equal(await ctx.state.inspectLock(KEY), null);
      assert.deepEqual(await turns.pendingTurnKeys(), []);
    },
  ),

  "ending a turn after its lease lapsed deletes its record and leaves the next holder's lock alone":
    withTurns(async (turns, ctx) => {
      const stale = await startTurn(ctx, KEY, turnOf(["m1"]), ctx.shortTtlMs);
      await ctx.waitOut(ctx.shortTtlMs);
      const next = await ctx.client(1).acquireLock(KEY, ctx.longTtlMs);
      assert.ok(next, "a plain acquire takes the lapsed lock");
      const held = await ctx.state.inspectLock(KEY);
      assert.equal(await ctx.state.releaseLock(stale, { turn: { kind: "end" } }), false);
      assert.equal(await turns.inspectTurn(KEY), null, "the turn did end");
      assert.deepEqual(await ctx.state.inspectLock(KEY), held, "the next holder's lock is intact");
      assert.equal(await ctx.client(1).releaseLock(next), true);
    }),

  "a stale holder's end or hand-back leaves a newer holder's turn record alone": withTurns(
    async (turns, ctx) => {
      const stale = await startTurn(ctx, KEY, turnOf(["m1"]), ctx.shortTtlMs);
      await ctx.waitOut(ctx.shortTtlMs);
      const recovered = await turnsOf(ctx.client(1))?.recoverTurn(KEY, ctx.longTtlMs, {
        startedAt: T1,
      });
      assert.ok(recovered, "the lapsed turn is recovered");
      const record = await turns.inspectTurn(KEY);
      const held = await ctx.state.inspectLock(KEY);
      for (const turn of [{ kind: "end" }, { kind: "hand-back", reason: "lease-lost" }] as const) {
        assert.equal(await ctx.state.releaseLock(stale, { turn }), false);
        assert.deepEqual(await turns.inspectTurn(KEY), record, `${turn.kind}: record untouched`);
        assert.deepEqual(await ctx.state.inspectLock(KEY), held, `${turn.kind}: lock untouched`);
      }
    },
  ),

  "handing a turn back frees the lock and keeps the record, marked with the reason": withTurns(
    async (turns, ctx) => {
      const turn = turnOf(["m1", "m2"]);
      const lock = await startTurn(ctx, KEY, turn);
      const release = { kind: "hand-back", reason: "shutdown" } as const;
      assert.equal(await ctx.state.releaseLock(lock, { turn: release }), true);
      assert.equal(await ctx.state.inspectLock(KEY), null);
      assert.deepEqual(await turns.inspectTurn(KEY), {
        ...firstAttempt(lock, turn),
        handedBack: "shutdown",
      });
      assert.deepEqual(await turns.pendingTurnKeys(), [KEY], "recoverable at once");
    },
  ),

  "a hand-back after the lease lapsed still marks the turn's record": withTurns(
    async (turns, ctx) => {
      const turn = turnOf(["m1"]);
      const lock = await startTurn(ctx, KEY, turn, ctx.shortTtlMs);
      await ctx.waitOut(ctx.shortTtlMs);
      const release = { kind: "hand-back", reason: "lease-lost" } as const;
      assert.equal(await ctx.state.releaseLock(lock, { turn: release }), false);
      assert.deepEqual(await turns.inspectTurn(KEY), {
        ...firstAttempt(lock, turn),
        handedBack: "lease-lost",
      });
    },
  ),

  "releaseLock and acquireLock without turn options leave the record untouched": withTurns(
    async (turns, ctx) => {
      const turn = turnOf(["m1"]);
      const lock = await startTurn(ctx, KEY, turn);
      assert.equal(await ctx.state.releaseLock(lock), true);
      assert.equal(await ctx.state.inspectLock(KEY), null);
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(lock, turn));
      assert.deepEqual(await turns.pendingTurnKeys(), [KEY], "the turn is now interrupted");
      const plain = await ctx.state.acquireLock(KEY, ctx.longTtlMs);
      assert.ok(plain, "only an acquire with a turn waits for the interrupted turn");
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(lock, turn));
      assert.deepEqual(await turns.pendingTurnKeys(), [], "a live-locked key is not pending");
      assert.equal(await ctx.state.releaseLock(plain), true);
      assert.deepEqual(await turns.inspectTurn(KEY), firstAttempt(lock, turn));
      assert.deepEqual(await turns.pendingTurnKeys(), [KEY]);
    },
  ),

  "pendingTurnKeys lists interrupted turns — lapsed, handed back, force-released — and no live or ended one":
    withTurns(async (turns, ctx) => {
      await startTurn(ctx, "live", turnOf(["a"]));
      await startTurn(ctx, "lapsed", turnOf(["b"]), ctx.shortTtlMs);
      await handedBackTurn(ctx, "handed-back", turnOf(["c"]));
      await startTurn(ctx, "forced", turnOf(["d"]));
      await ctx.state.forceReleaseLock("forced");
      const ended = await startTurn(ctx, "ended", turnOf(["e"]));
      assert.equal(await ctx.state.releaseLock(ended, { turn: { kind: "end" } }), true);
      assert.deepEqual((await turns.pendingTurnKeys()).sort(), ["forced", "handed-back"]);
      await ctx.waitOut(ctx.shortTtlMs);
      assert.deepEqual(idsOf(await turns.inspectTurn("lapsed")), ["b"], "a record never expires");
      assert.deepEqual((await turns.pendingTurnKeys()).sort(), ["forced", "handed-back", "lapsed"]);
      assert.ok(await turns.recoverTurn("lapsed", ctx.longTtlMs, { startedAt: T1 }));
      assert.deepEqual((await turns.pendingTurnKeys()).sort(), ["forced", "handed-back"]);
    }),

  "pendingTurnKeys returns at most limit keys": withTurns(async (turns, ctx) => {
    const keys = ["t1", "t2", "t3", "t4"];
    for (const key of keys) await handedBackTurn(ctx, key, turnOf([key]));
    const some = await turns.pendingTurnKeys(2);
    assert.equal(some.length, 2);
    assert.ok(some.every((key) => keys.includes(key)));
    assert.equal(new Set(some).size, 2);
  }),

  "turn records have their own namespace: a value, a queue, a list and a lock named turn:{key} leave them alone":
    withTurns(async (turns, ctx) => {
      const { state, longTtlMs } = ctx;
      const turn = turnOf(["m1"]);
      const lock = await startTurn(ctx, "x", turn);
      await state.set("turn:x", "value");
      await state.enqueue("turn:x", queueEntry("q", T0), { maxSize: 3, onFull: "drop-oldest" });
      await state.appendToList("turn:x", "item");
      const other = await state.acquireLock("turn:x", longTtlMs);
      assert.ok(other, "a lock named turn:x is its own lock");
      assert.equal(await state.releaseLock(other, { turn: { kind: "end" } }), true);
      await state.delete("turn:x");
      assert.deepEqual(await turns.inspectTurn("x"), firstAttempt(lock, turn));
      assert.equal(await turns.inspectTurn("turn:x"), null);
      assert.equal(await state.queueDepth("x"), 0, "a record is not the key's queue");
      assert.equal(entryId(await state.dequeue("turn:x")), "q");
      assert.deepEqual(await state.getList("turn:x"), ["item"]);
      await state.set("turn:x", "again");
      assert.equal(await state.releaseLock(lock, { turn: { kind: "end" } }), true);
      assert.equal(await state.get("turn:x"), "again", "ending the turn leaves the value");
    }),

  "inspectTurn returns copies: changing a written or returned record changes nothing stored":
    withTurns(async (turns, ctx) => {
      const turn = turnOf(["m1"]);
      const lock = await startTurn(ctx, KEY, turn);
      const expected = structuredClone(firstAttempt(lock, turn));
      (turn.entries[0]?.value as { id: string }).id = "changed after the write";
      const seen = await turns.inspectTurn(KEY);
      assert.ok(seen);
      (seen.entries[0]?.value as { id: string }).id = "changed after the read";
      seen.entries.push(queueEntry("extra", T0));
      assert.deepEqual(await turns.inspectTurn(KEY), expected);
    }),
});
