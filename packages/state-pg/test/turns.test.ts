import type { Lock, TurnWrite } from "@baton/core";
import { isBatonError, silentLogger } from "@baton/core";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { createAdminPool, sleep } from "./support.js";
import {
  entryOf,
  KEY,
  LONG_TTL_MS,
  ROUTES,
  SHORT_TTL_MS,
  turnFixture,
  turnOf,
} from "./turn-support.js";

// Durable turn records (DESIGN §6.1) against the real server, directly and through PgBouncer in
// transaction mode, looking behind the backend's back: what the `turns` table holds after each
// lock call with a turn, that a refused acquire wrote nothing (no row, no fence drawn), and that
// pending keys and purging treat records as the contract says. Recovery, drains and races are in
// turn-recovery.test.ts and turn-races.test.ts.
const admin = createAdminPool();
afterAll(() => admin.end());

describe.each(ROUTES)("postgres turn records %s", (_how, url) => {
  const { states, one, turnRows, lockRow, lastFence, interrupted, track } = turnFixture(admin, url);

  describe("the table the migration adds", () => {
    it("holds one row per key with entries as jsonb, and the function that reads it fresh", async () => {
      const state = await one();
      const { rows } = await admin.query(
        `SELECT column_name, data_type, is_nullable FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = 'turns' ORDER BY ordinal_position`,
        [state.schema],
      );
      expect(rows.map((r) => [r.column_name, r.data_type, r.is_nullable])).toEqual([
        ["prefix", "text", "NO"],
        ["key", "text", "NO"],
        ["entries", "jsonb", "NO"],
        ["fence", "bigint", "NO"],
        ["attempt", "integer", "NO"],
        ["started_at_ms", "double precision", "NO"],
        ["handed_back", "text", "YES"],
      ]);
      const pk = await admin.query(
        `SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index
         WHERE indrelid = $1::regclass AND indisprimary`,
        [`${state.schema}.turns`],
      );
      expect(pk.rows[0].def).toContain("(prefix, key)");
      const fn = await admin.query(
        `SELECT provolatile FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE n.nspname = $1 AND p.proname = 'turn_now'`,
        [state.schema],
      );
      expect(fn.rows).toEqual([{ provolatile: "v" }]);
    });
  });

  describe("acquireLock and releaseLock with a turn", () => {
    it("writes the record with the new lock's fence in the acquire, exactly as given", async () => {
      const state = await one();
      const turn = turnOf("m1", "m2");
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn })) as Lock;
      expect(lock).not.toBeNull();
      expect(await turnRows(state)).toEqual([
        {
          prefix: "",
          key: KEY,
          entries: turn.entries,
          fence: lock.fence,
          attempt: 1,
          started_at_ms: turn.startedAt,
          handed_back: null,
        },
      ]);
      expect(await state.inspectTurn(KEY)).toEqual({
        key: KEY,
        entries: turn.entries,
        fence: lock.fence,
        attempt: 1,
        startedAt: turn.startedAt,
      });
      expect(await lockRow(state)).toMatchObject({ token: lock.token, fence: lock.fence });
    });

    it("refuses while an interrupted turn's record sits on the key, drawing no fence", async () => {
      const state = await one();
      const first = await interrupted(state, "m1");
      const fenceBefore = await lastFence(state);
      expect(await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m2") })).toBeNull();
      expect(await lastFence(state)).toBe(fenceBefore);
      expect(await turnRows(state)).toMatchObject([
        { fence: first.fence, entries: [entryOf("m1")] },
      ]);
      expect(await lockRow(state)).toMatchObject({ token: first.token, live: false });
      // A plain acquire (no durable turns) is not refused and leaves the record alone.
      const plain = await state.acquireLock(KEY, LONG_TTL_MS);
      expect(plain?.fence).toBeGreaterThan(first.fence);
      expect(await turnRows(state)).toMatchObject([{ fence: first.fence }]);
    });

    it("refuses a live lock like a plain acquire, writing no record", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const holder = (await state.acquireLock(KEY, LONG_TTL_MS)) as Lock;
      expect(await peer.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })).toBeNull();
      expect(await turnRows(state)).toEqual([]);
      expect(await lockRow(state)).toMatchObject({ token: holder.token });
    });

    it("end deletes the record and the lock; a lapsed lease ends the record but not the lock row", async () => {
      const state = await one();
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      expect(await state.releaseLock(lock, { turn: { kind: "end" } })).toBe(true);
      expect(await turnRows(state)).toEqual([]);
      expect(await lockRow(state)).toBeUndefined();

      const lapsed = await interrupted(state, "m2");
      expect(await state.releaseLock(lapsed, { turn: { kind: "end" } })).toBe(false);
      expect(await turnRows(state)).toEqual([]);
      expect(await lockRow(state)).toMatchObject({ token: lapsed.token, live: false });
    });

    it("end and hand-back leave a record of another fence alone", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const stale = await interrupted(state, "m1");
      const recovered = await peer.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 5 });
      expect(recovered).not.toBeNull();
      const current = recovered?.lock as Lock;
      for (const turn of [{ kind: "end" }, { kind: "hand-back", reason: "shutdown" }] as const) {
        expect(await state.releaseLock(stale, { turn })).toBe(false);
      }
      expect(await turnRows(state)).toMatchObject([
        { fence: current.fence, attempt: 2, handed_back: null },
      ]);
      expect(await lockRow(state)).toMatchObject({ token: current.token, live: true });
    });

    it("hand-back keeps the record, marked, and frees the lock, so the turn is pending at once", async () => {
      const state = await one();
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      expect(await state.pendingTurnKeys()).toEqual([]);
      const turn = { kind: "hand-back", reason: "shutdown" } as const;
      expect(await state.releaseLock(lock, { turn })).toBe(true);
      expect(await turnRows(state)).toMatchObject([
        { fence: lock.fence, attempt: 1, handed_back: "shutdown", entries: [entryOf("m1")] },
      ]);
      expect(await lockRow(state)).toBeUndefined();
      expect(await state.pendingTurnKeys()).toEqual([KEY]);
      expect((await state.inspectTurn(KEY))?.handedBack).toBe("shutdown");
    });

    it("hand-back after the lease lapsed still marks the record (lease-lost), touching no lock", async () => {
      const state = await one();
      const lapsed = await interrupted(state, "m1");
      const turn = { kind: "hand-back", reason: "lease-lost" } as const;
      expect(await state.releaseLock(lapsed, { turn })).toBe(false);
      expect(await turnRows(state)).toMatchObject([{ handed_back: "lease-lost" }]);
      expect(await lockRow(state)).toMatchObject({ token: lapsed.token, live: false });
    });

    it("rejects a malformed turn before writing anything", async () => {
      const state = await one();
      const bad: unknown[] = [
        { entries: "m1", startedAt: 1 },
        { entries: [entryOf("m1")], startedAt: Number.NaN },
        { entries: [{ value: undefined, enqueuedAt: 1, expiresAt: 2 }], startedAt: 1 },
        {
          entries: [{ value: 1, enqueuedAt: Number.POSITIVE_INFINITY, expiresAt: 2 }],
          startedAt: 1,
        },
      ];
      for (const turn of bad) {
        const error = await state
          .acquireLock(KEY, LONG_TTL_MS, { turn: turn as TurnWrite })
          .catch((e: unknown) => e);
        expect(isBatonError(error) && error.code).toBe("VALIDATION_FAILED");
      }
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      for (const turn of [{ kind: "drop" }, { kind: "hand-back", reason: "lease-expired" }]) {
        const error = await state
          .releaseLock(lock, { turn: turn as never })
          .catch((e: unknown) => e);
        expect(isBatonError(error) && error.code).toBe("VALIDATION_FAILED");
      }
      expect(await lockRow(state)).toMatchObject({ token: lock.token, live: true });
      expect(await turnRows(state)).toMatchObject([{ fence: lock.fence, handed_back: null }]);
    });
  });

  describe("pendingTurnKeys and purging", () => {
    it("lists records whose lock is missing or expired, within the store's key prefix and limit", async () => {
      const [state] = (await states(1)) as [PostgresState];
      const other = createPostgresState({
        url,
        schema: state.schema,
        keyPrefix: "other",
        purgeIntervalMs: 0,
        logger: silentLogger,
      });
      await other.connect();
      track({ state: other });
      expect(await state.acquireLock("k-live", LONG_TTL_MS, { turn: turnOf() })).not.toBeNull();
      const handed = (await state.acquireLock("k-handed", LONG_TTL_MS, { turn: turnOf() })) as Lock;
      await state.releaseLock(handed, { turn: { kind: "hand-back", reason: "shutdown" } });
      await state.acquireLock("k-expired", SHORT_TTL_MS, { turn: turnOf() });
      await other.acquireLock("k-other", SHORT_TTL_MS, { turn: turnOf() });
      const forced = (await state.acquireLock("k-forced", LONG_TTL_MS, { turn: turnOf() })) as Lock;
      await state.forceReleaseLock(forced.key);
      await sleep(SHORT_TTL_MS + 100);
      expect((await state.pendingTurnKeys()).sort()).toEqual(["k-expired", "k-forced", "k-handed"]);
      expect(await other.pendingTurnKeys()).toEqual(["k-other"]);
      expect(await state.pendingTurnKeys(2)).toHaveLength(2);
    });

    it("purging expired locks never removes a turn record", async () => {
      const state = await one();
      await interrupted(state, "m1");
      const purged = await state.purgeExpired();
      expect(purged.locks).toBe(1);
      expect(await lockRow(state)).toBeUndefined();
      expect(await turnRows(state)).toMatchObject([{ entries: [entryOf("m1")], attempt: 1 }]);
      expect(await state.pendingTurnKeys()).toEqual([KEY]);
      expect(
        (await state.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 1 }))?.interrupted.attempt,
      ).toBe(1);
    });
  });
});
