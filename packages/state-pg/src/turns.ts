import { randomUUID } from "node:crypto";
import {
  type Lock,
  type QueueEntry,
  type RecoveredTurn,
  type TakeQueuedTurnOptions,
  type TurnRecord,
  type TurnRelease,
  type TurnState,
  type TurnWrite,
  ValidationError,
} from "@baton/core";
import { advisoryKey } from "./advisory-key.js";
import type { Executor } from "./executor.js";
import { createTurnStatements, type TurnStatements } from "./turn-sql.js";
import { assertLimit, assertPlainObject, assertTtlMs, toJson } from "./validate.js";

/** What the turn operations need of their backend (the same as the fast paths'). */
export interface TurnDeps {
  readonly schema: string;
  /** `schema` quoted as an identifier. */
  readonly quotedSchema: string;
  readonly keyPrefix: string;
  /** The executor while connected, else a `disconnected` StateError; then checks the keys. */
  ready(step: string, ...keys: string[]): { executor: Executor };
}

/**
 * Every member of `TurnState`, plus the `turn` variants of `acquireLock` and `releaseLock` that
 * the backend's own methods hand over to. One statement each (turn-sql.ts).
 */
export interface TurnMethods extends Required<TurnState> {
  acquireLock(key: string, ttlMs: number, turn: TurnWrite): Promise<Lock | null>;
  releaseLock(lock: Lock, turn: TurnRelease): Promise<boolean>;
}

interface LockRow {
  fence: string;
  expires_at_ms: number;
}

interface RecordRow {
  entries: QueueEntry[];
  fence: string;
  attempt: number;
  started_at_ms: number;
  handed_back: TurnRecord["handedBack"] | null;
}

/** Builds the turn methods of one backend. */
export function createTurnMethods(deps: TurnDeps): TurnMethods {
  const sql = createTurnStatements(deps.quotedSchema);
  const lockAdvisoryKey = (key: string) => advisoryKey(deps.schema, deps.keyPrefix, "lock", key);
  return {
    acquireLock: (key, ttlMs, turn) => acquireLock(deps, sql, lockAdvisoryKey, key, ttlMs, turn),
    releaseLock: async (lock, turn) => {
      const step = "release lock";
      const { executor } = deps.ready(step, lock?.key as string);
      const result = await executor.query<{ released: boolean }>(step, sql.releaseLock, [
        deps.keyPrefix,
        lock.key,
        String(lock.token),
        lockAdvisoryKey(lock.key),
        ...turnReleaseValues(step, lock, turn),
      ]);
      return result.rows[0]?.released === true;
    },
    pendingTurnKeys: async (limit = 100) => {
      const step = "list pending turns";
      const { executor } = deps.ready(step);
      assertLimit(step, limit);
      const result = await executor.query<{ key: string }>(step, sql.pendingTurnKeys, [
        deps.keyPrefix,
        limit,
      ]);
      return result.rows.map((row) => row.key);
    },
    recoverTurn: (key, ttlMs, options) =>
      recoverTurn(deps, sql, lockAdvisoryKey(key), key, ttlMs, options),
    takeQueuedTurn: async (lock, options) => {
      const step = "take queued turn";
      const { executor } = deps.ready(step, lock?.key as string);
      assertPlainObject(step, "options", options);
      if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
        throw new ValidationError(
          `maxEntries must be a positive integer, got ${options.maxEntries}`,
          { step },
        );
      }
      assertStartedAt(step, options.startedAt);
      const result = await executor.query<{ entries: QueueEntry[] | null }>(
        step,
        sql.takeQueuedTurn,
        [
          deps.keyPrefix,
          lock.key,
          lockAdvisoryKey(lock.key),
          String(lock.token),
          options.maxEntries,
          options.startedAt,
        ],
      );
      return result.rows[0]?.entries ?? [];
    },
    writeTurn: async (lock, turn) => {
      const step = "write turn";
      const { executor } = deps.ready(step, lock?.key as string);
      const result = await executor.query<{ written: boolean }>(step, sql.writeTurn, [
        deps.keyPrefix,
        lock.key,
        lockAdvisoryKey(lock.key),
        String(lock.token),
        ...turnWriteValues(step, turn),
      ]);
      return result.rows[0]?.written === true;
    },
    inspectTurn: async (key) => {
      const step = "inspect turn";
      const { executor } = deps.ready(step, key);
      const result = await executor.query<RecordRow>(step, sql.inspectTurn, [deps.keyPrefix, key]);
      const row = result.rows[0];
      return row ? toRecord(key, row) : null;
    },
  };
}

async function acquireLock(
  deps: TurnDeps,
  sql: TurnStatements,
  lockAdvisoryKey: (key: string) => string,
  key: string,
  ttlMs: number,
  turn: TurnWrite,
): Promise<Lock | null> {
  const step = "acquire lock";
  const { executor } = deps.ready(step, key);
  assertTtlMs(step, ttlMs);
  const values = turnWriteValues(step, turn);
  const token = randomUUID();
  const result = await executor.query<LockRow>(step, sql.acquireLock, [
    deps.keyPrefix,
    key,
    lockAdvisoryKey(key),
    token,
    ttlMs,
    ...values,
  ]);
  const row = result.rows[0];
  if (!row) return null;
  return { key, token, fence: Number(row.fence), expiresAt: row.expires_at_ms };
}

async function recoverTurn(
  deps: TurnDeps,
  sql: TurnStatements,
  lockAdvisoryKey: string,
  key: string,
  ttlMs: number,
  options: { readonly startedAt: number },
): Promise<RecoveredTurn | null> {
  const step = "recover turn";
  const { executor } = deps.ready(step, key);
  assertTtlMs(step, ttlMs);
  assertPlainObject(step, "options", options);
  assertStartedAt(step, options.startedAt);
  const token = randomUUID();
  const result = await executor.query<LockRow & RecordRow & { prior_fence: string }>(
    step,
    sql.recoverTurn,
    [deps.keyPrefix, key, lockAdvisoryKey, token, ttlMs, options.startedAt],
  );
  const row = result.rows[0];
  if (!row) return null;
  return {
    lock: { key, token, fence: Number(row.fence), expiresAt: row.expires_at_ms },
    interrupted: toRecord(key, { ...row, fence: row.prior_fence }),
  };
}

function toRecord(key: string, row: RecordRow): TurnRecord {
  const record = {
    key,
    entries: row.entries,
    fence: Number(row.fence),
    attempt: row.attempt,
    startedAt: row.started_at_ms,
  };
  return row.handed_back ? { ...record, handedBack: row.handed_back } : record;
}

/**
 * The parameters a turn write adds to a statement: its entries as one JSON array, each entry
 * exactly `{ value, enqueuedAt, expiresAt }` as a queue stores it, and `startedAt`. Rejects with
 * a `ValidationError`, before anything is sent, what JSON cannot carry.
 */
export function turnWriteValues(step: string, turn: TurnWrite): [string, number] {
  assertPlainObject(step, "turn", turn);
  if (!Array.isArray(turn.entries)) {
    throw new ValidationError(`turn.entries must be an array, got ${String(turn.entries)}`, {
      step,
    });
  }
  const entries = turn.entries.map((entry): QueueEntry => {
    assertPlainObject(step, "each turn entry", entry);
    toJson(step, entry.value);
    for (const time of [entry.enqueuedAt, entry.expiresAt]) {
      if (typeof time !== "number" || !Number.isFinite(time)) {
        throw new ValidationError(
          `a turn entry's enqueuedAt and expiresAt must be finite numbers, got ${time}`,
          { step },
        );
      }
    }
    return { value: entry.value, enqueuedAt: entry.enqueuedAt, expiresAt: entry.expiresAt };
  });
  assertStartedAt(step, turn.startedAt);
  return [JSON.stringify(entries), turn.startedAt];
}

/**
 * The parameters a turn release adds: the lock's fence (NULL when it is not a safe integer, so
 * it matches no record), `end` or `hand-back`, and the hand-back reason (NULL for `end`).
 */
export function turnReleaseValues(
  step: string,
  lock: Lock,
  release: TurnRelease,
): [number | null, string, string | null] {
  assertPlainObject(step, "turn", release);
  const fence = Number.isSafeInteger(lock.fence) ? lock.fence : null;
  if (release.kind === "end") return [fence, "end", null];
  if (release.kind === "hand-back") {
    if (release.reason !== "shutdown" && release.reason !== "lease-lost") {
      throw new ValidationError(
        `a hand-back's reason must be "shutdown" or "lease-lost", got ${JSON.stringify(release.reason)}`,
        { step },
      );
    }
    return [fence, "hand-back", release.reason];
  }
  throw new ValidationError(
    `turn.kind must be "end" or "hand-back", got ${JSON.stringify((release as { kind?: unknown }).kind)}`,
    { step },
  );
}

function assertStartedAt(step: string, startedAt: number): void {
  if (typeof startedAt !== "number" || !Number.isFinite(startedAt)) {
    throw new ValidationError(`startedAt must be a finite number of epoch ms, got ${startedAt}`, {
      step,
    });
  }
}
