import type { Lock, QueueEntry, TurnWrite } from "@baton/core";
import { silentLogger } from "@baton/core";
import { escapeIdentifier, type Pool, type PoolClient } from "pg";
import { afterEach, expect } from "vitest";
import { advisoryKey } from "../src/advisory-key.js";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { dropSchema, PGBOUNCER_STATE_URL, sleep, TEST_URL, uniqueSchema } from "./support.js";

// What the turn-record tests (turns, turn-recovery, turn-races) share: fixed entries and turns,
// and a fixture per describe block that opens clients of fresh schemas and reads the tables
// behind the backend's back through an admin pool on the server itself.

/** Every turn-record test runs directly and through PgBouncer in transaction mode. */
export const ROUTES = [
  ["directly", TEST_URL],
  ["through pgbouncer", PGBOUNCER_STATE_URL],
] as const;

export const LONG_TTL_MS = 30_000;
export const SHORT_TTL_MS = 300;
export const KEY = "thread:slack:C1:T1";

export function entryOf(id: string): QueueEntry {
  return { value: { id, text: `message ${id}` }, enqueuedAt: 1_733_140_800_000, expiresAt: 2e12 };
}

export function turnOf(...ids: string[]): TurnWrite {
  return { entries: ids.map(entryOf), startedAt: 1_733_140_801_234.5 };
}

export const ids = (entries: readonly QueueEntry[]) =>
  entries.map((e) => (e.value as { id: string }).id);

/** Waits until a statement containing `marker` (in its first 1 kB) waits for a lock. */
export async function untilBlocked(admin: Pool, marker: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [marker],
    );
    if (rows[0].n > 0) return;
    await sleep(10);
  }
  throw new Error(`no statement with ${marker} ever waited for a lock`);
}

/**
 * Clients of fresh schemas reached through `url`, and readers of their tables through `admin`;
 * everything opened is closed, and every schema dropped, after each test. Call inside a describe.
 */
export function turnFixture(admin: Pool, url: string) {
  const opened: PostgresState[] = [];
  const pools: Pool[] = [];
  const schemas: string[] = [];
  const openTransactions: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const finish of openTransactions.splice(0)) await finish();
    for (const state of opened.splice(0)) await state.disconnect();
    for (const pool of pools.splice(0)) await pool.end();
    for (const schema of schemas.splice(0)) await dropSchema(admin, schema);
  });

  /** `count` clients of one fresh schema, each with its own pool. */
  async function states(count: number): Promise<PostgresState[]> {
    const schema = uniqueSchema();
    schemas.push(schema);
    const made: PostgresState[] = [];
    for (let i = 0; i < count; i++) {
      const state = createPostgresState({ url, schema, purgeIntervalMs: 0, logger: silentLogger });
      await state.connect();
      opened.push(state);
      made.push(state);
    }
    return made;
  }

  const table = (state: PostgresState, name: string) => `${escapeIdentifier(state.schema)}.${name}`;

  return {
    states,
    one: async (): Promise<PostgresState> => (await states(1))[0] as PostgresState,
    table,
    /** Closes `state` (or ends `pool`) and drops `schema` after the test. */
    track: (things: { state?: PostgresState; pool?: Pool; schema?: string }) => {
      if (things.state) opened.push(things.state);
      if (things.pool) pools.push(things.pool);
      if (things.schema) schemas.push(things.schema);
    },

    async turnRows(state: PostgresState) {
      const { rows } = await admin.query(
        `SELECT prefix, key, entries, fence, attempt, started_at_ms, handed_back
         FROM ${table(state, "turns")} ORDER BY prefix, key`,
      );
      return rows.map((row) => ({ ...row, fence: Number(row.fence) }));
    },

    async lockRow(state: PostgresState, key = KEY) {
      const { rows } = await admin.query(
        `SELECT token, fence, expires_at > now() AS live FROM ${table(state, "locks")}
         WHERE key = $1`,
        [key],
      );
      return rows[0] ? { ...rows[0], fence: Number(rows[0].fence) } : undefined;
    },

    /** The last fence the schema's sequence handed out, 0 before the first. */
    async lastFence(state: PostgresState): Promise<number> {
      const { rows } = await admin.query(
        `SELECT last_value, is_called FROM ${table(state, "fence_seq")}`,
      );
      return rows[0].is_called ? Number(rows[0].last_value) : 0;
    },

    /** Leaves an interrupted turn on KEY: taken with a record, then the lease ran out. */
    async interrupted(state: PostgresState, ...entryIds: string[]): Promise<Lock> {
      const lock = await state.acquireLock(KEY, SHORT_TTL_MS, { turn: turnOf(...entryIds) });
      expect(lock).not.toBeNull();
      await sleep(SHORT_TTL_MS + 100);
      return lock as Lock;
    },

    /** A transaction of our own holding KEY's per-key advisory lock, which turn writers wait for. */
    async holdGate(state: PostgresState): Promise<{
      client: PoolClient;
      commit: () => Promise<void>;
    }> {
      const client = await admin.connect();
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [
        advisoryKey(state.schema, state.keyPrefix, "lock", KEY),
      ]);
      let open = true;
      const commit = async () => {
        if (!open) return;
        open = false;
        await client.query("COMMIT");
        client.release();
      };
      openTransactions.push(commit);
      return { client, commit };
    },
  };
}
