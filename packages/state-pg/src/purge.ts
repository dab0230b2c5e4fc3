import type { Executor } from "./executor.js";

/** Rows one purge deleted, per table. */
export interface PurgeResult {
  /** Expired key-value rows (dedupe marks and values with a TTL). */
  readonly values: number;
  /** Expired locks. */
  readonly locks: number;
  /** Expired lists, with their items. */
  readonly lists: number;
  /** Lapsed or re-armed claims; completed claims are kept forever (they must not rerun). */
  readonly claims: number;
}

/** Rows per table per statement, so one purge never holds many row locks or runs long. */
const BATCH_SIZE = 1_000;

/** Batches per purge; what is left waits for the next run. */
const MAX_BATCHES = 20;

/**
 * Builds the purge statement for schema `s`: one statement deleting up to `$1` expired rows from
 * each table. Deleting an expired row is invisible to callers — every read already treats it as
 * absent — so this only bounds table size. `FOR UPDATE SKIP LOCKED` skips rows a live operation
 * holds, so purging never waits for, nor blocks, the hot path, and several instances may purge
 * at once; the row lock re-checks the expiry, so a row renewed meanwhile is kept. `now()` keeps
 * the expires_at indexes usable.
 */
export function purgeStatement(s: string): string {
  const doomed = (table: string, where: string) =>
    `SELECT prefix, key FROM ${s}.${table} WHERE ${where} LIMIT $1 FOR UPDATE SKIP LOCKED`;
  const remove = (table: string, from: string) =>
    `DELETE FROM ${s}.${table} t USING ${from} d WHERE t.prefix = d.prefix AND t.key = d.key
      RETURNING 1`;
  return `WITH
    kv_doomed AS (${doomed("kv", "expires_at <= now()")}),
    kv_gone AS (${remove("kv", "kv_doomed")}),
    locks_doomed AS (${doomed("locks", "expires_at <= now()")}),
    locks_gone AS (${remove("locks", "locks_doomed")}),
    lists_doomed AS (${doomed("lists", "expires_at <= now()")}),
    lists_gone AS (${remove("lists", "lists_doomed")}),
    claims_doomed AS (${doomed("claims", "status <> 'completed' AND expires_at <= now()")}),
    claims_gone AS (${remove("claims", "claims_doomed")})
  SELECT (SELECT count(*) FROM kv_gone)::int AS values,
    (SELECT count(*) FROM locks_gone)::int AS locks,
    (SELECT count(*) FROM lists_gone)::int AS lists,
    (SELECT count(*) FROM claims_gone)::int AS claims`;
}

/**
 * Deletes expired rows of every key prefix in the schema, in batches, until none is left or
 * {@link MAX_BATCHES} ran. Each batch is one statement, so each is atomic on its own.
 */
export async function purgeExpiredRows(
  executor: Executor,
  statement: string,
): Promise<PurgeResult> {
  const total = { values: 0, locks: 0, lists: 0, claims: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const result = await executor.query<typeof total>("purge expired rows", statement, [
      BATCH_SIZE,
    ]);
    const row = result.rows[0] ?? { values: 0, locks: 0, lists: 0, claims: 0 };
    total.values += row.values;
    total.locks += row.locks;
    total.lists += row.lists;
    total.claims += row.claims;
    if (Math.max(row.values, row.locks, row.lists, row.claims) < BATCH_SIZE) break;
  }
  return total;
}
