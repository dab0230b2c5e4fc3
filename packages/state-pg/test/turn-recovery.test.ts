import type { Lock } from "@baton/core";
import { isBatonError } from "@baton/core";
import { afterAll, describe, expect, it } from "vitest";
import { type PostgresState } from "../src/index.js";
import { createAdminPool, sleep } from "./support.js";
import {
  entryOf,
  ids,
  KEY,
  LONG_TTL_MS,
  ROUTES,
  SHORT_TTL_MS,
  turnFixture,
  turnOf,
} from "./turn-support.js";

// recoverTurn, takeQueuedTurn and writeTurn against the real server, directly and through
// PgBouncer: the `turns` and `locks` rows each leaves, and that a refused call changes nothing.
const admin = createAdminPool();
afterAll(() => admin.end());

describe.each(ROUTES)("postgres turn recovery %s", (_how, url) => {
  const { states, one, turnRows, lockRow, lastFence, interrupted } = turnFixture(admin, url);

  describe("recoverTurn", () => {
    it("takes the lock with a new fence and the record's next attempt, returning the record as it was", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const first = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      expect(
        await state.releaseLock(first, { turn: { kind: "hand-back", reason: "shutdown" } }),
      ).toBe(true);
      const recovered = await peer.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 42.5 });
      expect(recovered).not.toBeNull();
      const { lock, interrupted: before } = recovered as NonNullable<typeof recovered>;
      expect(lock.fence).toBeGreaterThan(first.fence);
      expect(lock.token).not.toBe(first.token);
      expect(before).toEqual({
        key: KEY,
        entries: [entryOf("m1")],
        fence: first.fence,
        attempt: 1,
        startedAt: turnOf().startedAt,
        handedBack: "shutdown",
      });
      expect(await turnRows(state)).toMatchObject([
        {
          fence: lock.fence,
          attempt: 2,
          started_at_ms: 42.5,
          handed_back: null,
          entries: [entryOf("m1")],
        },
      ]);
      expect(await lockRow(state)).toMatchObject({ token: lock.token, fence: lock.fence });
      expect(await state.pendingTurnKeys()).toEqual([]);
      expect((await state.inspectLock(KEY))?.fence).toBe(lock.fence);
    });

    it("recovers a turn whose lease ran out (no hand-back mark) and keeps counting attempts", async () => {
      const state = await one();
      await interrupted(state, "m1");
      const second = await state.recoverTurn(KEY, SHORT_TTL_MS, { startedAt: 2 });
      expect(second?.interrupted).toMatchObject({ attempt: 1 });
      expect(second?.interrupted.handedBack).toBeUndefined();
      await sleep(SHORT_TTL_MS + 100);
      const third = await state.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 3 });
      expect(third?.interrupted).toMatchObject({ attempt: 2, startedAt: 2 });
      expect(third?.lock.fence).toBeGreaterThan(second?.lock.fence as number);
      expect(await turnRows(state)).toMatchObject([{ attempt: 3, fence: third?.lock.fence }]);
    });

    it("returns null and changes nothing without a record, or while the lock is live", async () => {
      const state = await one();
      expect(await state.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 1 })).toBeNull();
      expect(await lockRow(state)).toBeUndefined();
      expect(await lastFence(state)).toBe(0);
      const live = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      expect(await state.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 1 })).toBeNull();
      expect(await turnRows(state)).toMatchObject([{ fence: live.fence, attempt: 1 }]);
      expect(await lockRow(state)).toMatchObject({ token: live.token });
    });

    it("gives the turn to exactly one of many concurrent recoverers and acquirers", async () => {
      const clients = await states(4);
      const state = clients[0] as PostgresState;
      const first = await interrupted(state, "m1");
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) => {
          const client = clients[i % clients.length] as PostgresState;
          return i % 2 === 0
            ? client.recoverTurn(KEY, LONG_TTL_MS, { startedAt: i }).then((r) => r?.lock ?? null)
            : client.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf(`x${i}`) });
        }),
      );
      const winners = results.filter((lock): lock is Lock => lock !== null);
      expect(winners).toHaveLength(1);
      expect(results.findIndex((lock) => lock !== null) % 2).toBe(0);
      expect(await turnRows(state)).toMatchObject([
        { fence: winners[0]?.fence, attempt: 2, entries: [entryOf("m1")] },
      ]);
      expect(winners[0]?.fence).toBeGreaterThan(first.fence);
    });
  });

  describe("takeQueuedTurn and writeTurn", () => {
    it("moves the oldest entries from the queue into the record of the lock's fence", async () => {
      const state = await one();
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m0") })) as Lock;
      for (const id of ["q1", "q2", "q3"]) {
        await state.enqueue(KEY, entryOf(id), { maxSize: 10, onFull: "drop-oldest" });
      }
      const taken = await state.takeQueuedTurn(lock, { maxEntries: 2, startedAt: 77 });
      expect(taken).toEqual([entryOf("q1"), entryOf("q2")]);
      expect(await state.queueDepth(KEY)).toBe(1);
      expect(await turnRows(state)).toMatchObject([
        { fence: lock.fence, attempt: 1, started_at_ms: 77, entries: taken },
      ]);
      expect(ids(await state.takeQueuedTurn(lock, { maxEntries: 5, startedAt: 78 }))).toEqual([
        "q3",
      ]);
      // An empty queue changes nothing.
      expect(await state.takeQueuedTurn(lock, { maxEntries: 5, startedAt: 79 })).toEqual([]);
      expect(await turnRows(state)).toMatchObject([
        { started_at_ms: 78, entries: [entryOf("q3")] },
      ]);
    });

    it("takes nothing, and writes nothing, without the lock", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const lapsed = await interrupted(state, "m1");
      await peer.enqueue(KEY, entryOf("q1"), { maxSize: 10, onFull: "drop-oldest" });
      expect(await state.takeQueuedTurn(lapsed, { maxEntries: 5, startedAt: 1 })).toEqual([]);
      expect(await state.writeTurn(lapsed, turnOf("m9"))).toBe(false);
      const live = (await peer.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 1 }))?.lock as Lock;
      const forged = { ...live, token: "not-the-token" };
      expect(await state.takeQueuedTurn(forged, { maxEntries: 5, startedAt: 1 })).toEqual([]);
      expect(await state.writeTurn(forged, turnOf("m9"))).toBe(false);
      expect(await state.queueDepth(KEY)).toBe(1);
      expect(await turnRows(state)).toMatchObject([
        { fence: live.fence, attempt: 2, entries: [entryOf("m1")] },
      ]);
    });

    it("writeTurn keeps the attempt of a record of the lock's fence, and starts a new one otherwise", async () => {
      const state = await one();
      await interrupted(state, "m1", "m2");
      const recovered = await state.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 10 });
      const lock = recovered?.lock as Lock;
      expect(await state.writeTurn(lock, { entries: [entryOf("m2")], startedAt: 11 })).toBe(true);
      expect(await turnRows(state)).toMatchObject([
        { fence: lock.fence, attempt: 2, started_at_ms: 11, entries: [entryOf("m2")] },
      ]);
      expect(await state.releaseLock(lock)).toBe(true); // no turn option: the record stays
      const plain = (await state.acquireLock(KEY, LONG_TTL_MS)) as Lock;
      expect(await state.writeTurn(plain, { entries: [], startedAt: 12 })).toBe(true);
      expect(await turnRows(state)).toMatchObject([
        { fence: plain.fence, attempt: 1, started_at_ms: 12, entries: [], handed_back: null },
      ]);
    });

    it("rejects maxEntries below 1 before taking anything", async () => {
      const state = await one();
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf() })) as Lock;
      await state.enqueue(KEY, entryOf("q1"), { maxSize: 10, onFull: "drop-oldest" });
      const error = await state
        .takeQueuedTurn(lock, { maxEntries: 0, startedAt: 1 })
        .catch((e: unknown) => e);
      expect(isBatonError(error) && error.code).toBe("VALIDATION_FAILED");
      expect(await state.queueDepth(KEY)).toBe(1);
    });
  });
});
