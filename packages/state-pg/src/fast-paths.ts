import { randomUUID } from "node:crypto";
import type {
  AcceptAndAcquireRequest,
  AcceptAndAcquireResult,
  FastPathState,
  JsonValue,
  Lock,
  ReleaseAndNextResult,
  ReleaseLockOptions,
} from "@baton/core";
import { advisoryKey } from "./advisory-key.js";
import type { Executor } from "./executor.js";
import { createTurnStatements, type TurnStatements } from "./turn-sql.js";
import { turnReleaseValues, turnWriteValues } from "./turns.js";
import { assertKey, assertTtlMs } from "./validate.js";

/** The fused fast paths a backend offers; absent members fall back to the separate calls. */
export type OfferedFastPaths = FastPathState;

/** What the fused paths need of their backend. */
export interface FastPathDeps {
  readonly schema: string;
  /** `schema` quoted as an identifier. */
  readonly quotedSchema: string;
  readonly keyPrefix: string;
  /** The executor while connected, else a `disconnected` StateError; then checks the keys. */
  ready(step: string, ...keys: string[]): { executor: Executor };
}

/** `ms` milliseconds (a float8 parameter) after `base`. */
function after(base: string, ms: string): string {
  return `${base} + ${ms}::float8 * interval '1 millisecond'`;
}

/**
 * The two statements, one round trip each. Their writes are those of `setIfNotExists`,
 * `acquireLock` and `releaseLock` (sql.ts), with the same clocks and the same per-key advisory
 * lock, so fences of a key stay in acquisition order whichever path took the lock.
 *
 * Their reads are not plain: a plain read in a statement uses the snapshot of the statement's
 * start, and the statement may wait (for the advisory lock, or for a row a releasing holder
 * has locked) while other clients commit. The subscription and the queue head are therefore
 * read through the VOLATILE functions of migration 2, which take a fresh snapshot and are
 * called with the write's outcome as an argument, so only after it:
 * - release + peek: a contender enqueues, commits, then tries the lock. If that try fails, our
 *   DELETE had not yet taken the lock row, so the enqueue committed before it — and the fresh
 *   snapshot after the DELETE sees the entry (no lost wake-up).
 * - accept: the previous holder's writes (e.g. `subscribe`) committed before its release, which
 *   committed before our INSERT got the lock row, so the read after the INSERT sees them.
 */
export function createFastPathStatements(s: string) {
  return {
    /**
     * $1 prefix, $2 dedupe key, $3 dedupe ttlMs, $4 lock key, $5 advisory key, $6 token,
     * $7 lock ttlMs, $8 thread id. Mark first; only a fresh mark goes on to the lock, so a
     * duplicate draws no fence and waits for no lock.
     */
    acceptAndAcquire: `WITH mark AS (
        INSERT INTO ${s}.kv AS kv (prefix, key, value, expires_at)
        VALUES ($1, $2, '1'::jsonb, ${after("now()", "$3")})
        ON CONFLICT (prefix, key) DO UPDATE
          SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at
          WHERE kv.expires_at <= now()
        RETURNING 1
      ),
      gate AS MATERIALIZED (SELECT pg_advisory_xact_lock($5::bigint) FROM mark),
      taken AS (
        INSERT INTO ${s}.locks AS l (prefix, key, token, fence, expires_at)
        SELECT $1, $4, $6, nextval('${s}.fence_seq'), ${after("clock_timestamp()", "$7")}
        FROM gate
        ON CONFLICT (prefix, key) DO UPDATE
          SET token = EXCLUDED.token, fence = EXCLUDED.fence, expires_at = EXCLUDED.expires_at
          WHERE l.expires_at <= clock_timestamp()
        RETURNING fence, floor(extract(epoch FROM expires_at) * 1000)::float8 AS expires_at_ms
      )
      SELECT EXISTS (SELECT 1 FROM mark) AS marked, t.fence, t.expires_at_ms,
        ${s}.subscribed_now($1, $8, t.fence) AS subscribed
      FROM (SELECT 1) AS one LEFT JOIN taken t ON true`,
    /** $1 prefix, $2 lock key, $3 token. The count orders the peek after the DELETE. */
    releaseAndNext: `WITH released AS (
        DELETE FROM ${s}.locks
        WHERE prefix = $1 AND key = $2 AND token = $3 AND expires_at > now()
        RETURNING 1
      ),
      outcome AS MATERIALIZED (SELECT count(*) AS n FROM released)
      SELECT o.n > 0 AS released, h.enqueued_at_ms IS NOT NULL AS found, h.value, h.enqueued_at_ms, h.expires_at_ms
      FROM outcome o LEFT JOIN LATERAL ${s}.queue_head_now($1, $2, o.n) h ON true`,
  };
}

/**
 * Both sets: a call with a `turn` (durable turns) runs the variant in turn-sql.ts, which adds the
 * record's write or end as CTEs, so it too is one statement.
 */
interface FastPathStatements extends ReturnType<typeof createFastPathStatements> {
  readonly turns: TurnStatements;
}

interface AcceptRow {
  marked: boolean;
  fence: string | null;
  expires_at_ms: number | null;
  subscribed: boolean | null;
}

interface ReleaseRow {
  released: boolean;
  /** Apart from `value`, which is SQL NULL for no head but JS null for a head holding `null`. */
  found: boolean;
  value: JsonValue | null;
  enqueued_at_ms: number | null;
  expires_at_ms: number | null;
}

/** Both fused paths, or none with `enabled` false. Decided once, at construction. */
export function offeredFastPaths(deps: FastPathDeps, enabled: boolean): OfferedFastPaths {
  if (!enabled) return {};
  const sql = {
    ...createFastPathStatements(deps.quotedSchema),
    turns: createTurnStatements(deps.quotedSchema),
  };
  return {
    acceptAndAcquire: (request) => acceptAndAcquire(deps, sql, request),
    releaseAndNext: (lock, options) => releaseAndNext(deps, sql, lock, options),
  };
}

async function acceptAndAcquire(
  deps: FastPathDeps,
  sql: FastPathStatements,
  request: AcceptAndAcquireRequest,
): Promise<AcceptAndAcquireResult> {
  const step = "accept and acquire";
  const { executor } = deps.ready(step, request?.dedupeKey);
  assertKey(step, request.lockKey);
  assertKey(step, request.threadId);
  assertTtlMs(step, request.dedupeTtlMs);
  assertTtlMs(step, request.lockTtlMs);
  const turn = request.turn === undefined ? [] : turnWriteValues(step, request.turn);
  const token = randomUUID();
  const values = [
    deps.keyPrefix,
    request.dedupeKey,
    request.dedupeTtlMs,
    request.lockKey,
    advisoryKey(deps.schema, deps.keyPrefix, "lock", request.lockKey),
    token,
    request.lockTtlMs,
    request.threadId,
    ...turn,
  ];
  const text = request.turn === undefined ? sql.acceptAndAcquire : sql.turns.acceptAndAcquire;
  const result = await executor.query<AcceptRow>(step, text, values);
  const row = result.rows[0];
  if (!row?.marked) return { kind: "duplicate" };
  if (row.fence === null || row.expires_at_ms === null) return { kind: "busy" };
  const lock: Lock = {
    key: request.lockKey,
    token,
    fence: Number(row.fence),
    expiresAt: row.expires_at_ms,
  };
  return { kind: "acquired", lock, subscribed: row.subscribed === true };
}

async function releaseAndNext(
  deps: FastPathDeps,
  sql: FastPathStatements,
  lock: Lock,
  options?: ReleaseLockOptions,
): Promise<ReleaseAndNextResult> {
  const step = "release lock and peek queue";
  const { executor } = deps.ready(step, lock?.key as string);
  const values = [deps.keyPrefix, lock.key, String(lock.token)];
  const turn = options?.turn;
  const result =
    turn === undefined
      ? await executor.query<ReleaseRow>(step, sql.releaseAndNext, values)
      : await executor.query<ReleaseRow>(step, sql.turns.releaseAndNext, [
          ...values,
          advisoryKey(deps.schema, deps.keyPrefix, "lock", lock.key),
          ...turnReleaseValues(step, lock, turn),
        ]);
  const row = result.rows[0];
  const next =
    row?.found !== true
      ? null
      : {
          value: row.value as JsonValue,
          enqueuedAt: row.enqueued_at_ms as number,
          expiresAt: row.expires_at_ms as number,
        };
  return { released: row?.released === true, next };
}
