import { randomUUID } from "node:crypto";
import {
  type AcquireLockOptions,
  type AppendToListOptions,
  type ClaimState,
  type EnqueueOptions,
  type EnqueueResult,
  type FastPathState,
  type JsonValue,
  type Lock,
  type LockInfo,
  type QueueEntry,
  type ReleaseLockOptions,
  type StateAdapter,
  StateError,
  ValidationError,
} from "@baton/core";
import { escapeIdentifier } from "pg";
import { advisoryKey } from "./advisory-key.js";
import { createClaimMethods } from "./claims.js";
import type { Executor } from "./executor.js";
import { offeredFastPaths } from "./fast-paths.js";
import { type PostgresStateOptions, resolvePostgresStateOptions } from "./options.js";
import { PostgresConnection } from "./postgres-connection.js";
import type { PurgeResult } from "./purge.js";
import { type EnqueueRow, enqueueOutcome, type QueueEntryRow } from "./queue-rows.js";
import type { Statements } from "./sql.js";
import { createTurnMethods, type TurnMethods } from "./turns.js";
import {
  assertEnqueueOptions,
  assertKey,
  assertLimit,
  assertOptionalMaxLength,
  assertOptionalTtlMs,
  assertPlainObject,
  assertTtlMs,
  toJson,
} from "./validate.js";

interface ExpiryRow {
  expires_at_ms: number;
}

/**
 * The PostgreSQL State backend. Every operation is one statement or one transaction, so each is
 * atomic across any number of instances sharing the schema; no operation reads, decides in
 * JavaScript and writes back. Expiry is judged by the server's clock only, and every `expiresAt`
 * returned is the server's, in epoch milliseconds. Fences and claim generations come from one
 * sequence per schema that is never reset. Every call is bounded by `timeoutMs`; a timeout or a
 * lost connection rejects with a `StateError` and the pool recovers for later calls.
 */
export class PostgresState implements StateAdapter {
  readonly name = "postgres";
  /** The schema holding this store's tables. */
  readonly schema: string;
  /** The namespace of this store inside the schema (`""` for none). */
  readonly keyPrefix: string;
  private readonly connection: PostgresConnection;
  /** Present unless `fastPaths: false`; one statement. See `FastPathState` in @baton/core. */
  readonly acceptAndAcquire?: FastPathState["acceptAndAcquire"];
  /** Present unless `fastPaths: false`; one statement. See `FastPathState` in @baton/core. */
  readonly releaseAndNext?: FastPathState["releaseAndNext"];
  // Durable turn records (`TurnState`, DESIGN §6.1), always offered: one statement each, under
  // the lock key's advisory lock (turns.ts, turn-sql.ts). The lock calls hand a `turn` to them.
  private readonly turns: TurnMethods;
  readonly pendingTurnKeys: TurnMethods["pendingTurnKeys"];
  readonly recoverTurn: TurnMethods["recoverTurn"];
  readonly takeQueuedTurn: TurnMethods["takeQueuedTurn"];
  readonly writeTurn: TurnMethods["writeTurn"];
  readonly inspectTurn: TurnMethods["inspectTurn"];
  /** Fenced claims (DESIGN §7.3), one statement each; see claims.ts. */
  readonly claim: ClaimState["claim"];
  readonly completeClaim: ClaimState["completeClaim"];
  readonly rearmClaim: ClaimState["rearmClaim"];

  constructor(options: PostgresStateOptions) {
    const resolved = resolvePostgresStateOptions(options);
    this.schema = resolved.schema;
    this.keyPrefix = resolved.keyPrefix;
    this.connection = new PostgresConnection(resolved);
    const { schema, keyPrefix } = this;
    const ready = (step: string, ...keys: string[]) => this.ready(step, ...keys);
    const quotedSchema = escapeIdentifier(schema);
    const deps = { schema, quotedSchema, keyPrefix, ready };
    const fused = offeredFastPaths(deps, resolved.fastPaths);
    const turns = createTurnMethods(deps);
    this.turns = turns;
    this.pendingTurnKeys = turns.pendingTurnKeys;
    this.recoverTurn = turns.recoverTurn;
    this.takeQueuedTurn = turns.takeQueuedTurn;
    this.writeTurn = turns.writeTurn;
    this.inspectTurn = turns.inspectTurn;
    ({
      claim: this.claim,
      completeClaim: this.completeClaim,
      rearmClaim: this.rearmClaim,
    } = createClaimMethods(deps));
    if (fused.acceptAndAcquire) this.acceptAndAcquire = fused.acceptAndAcquire;
    if (fused.releaseAndNext) this.releaseAndNext = fused.releaseAndNext;
  }

  /**
   * Opens the pool (or adopts the given one) and migrates the schema, within `timeoutMs`.
   * Idempotent: concurrent calls share one attempt, a call after success does nothing, a call
   * after a failure tries again.
   */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  /**
   * Stops the purge timer and ends the pool the backend created (a pool passed in `pool` is left
   * open). Idempotent. Every later call except `connect()` rejects with `StateError`
   * `disconnected`. Data stays in Postgres; a later `connect()` finds it again.
   */
  disconnect(): Promise<void> {
    return this.connection.disconnect();
  }

  async subscribe(threadId: string): Promise<void> {
    const { executor, sql } = this.ready("subscribe", threadId);
    await executor.query("subscribe", sql.subscribe, [this.keyPrefix, threadId]);
  }

  async unsubscribe(threadId: string): Promise<void> {
    const { executor, sql } = this.ready("unsubscribe", threadId);
    await executor.query("unsubscribe", sql.unsubscribe, [this.keyPrefix, threadId]);
  }

  async isSubscribed(threadId: string): Promise<boolean> {
    const step = "check subscription";
    const { executor, sql } = this.ready(step, threadId);
    const result = await executor.query<{ subscribed: boolean }>(step, sql.isSubscribed, [
      this.keyPrefix,
      threadId,
    ]);
    return result.rows[0]?.subscribed === true;
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | null> {
    const step = "get value";
    const { executor, sql } = this.ready(step, key);
    const result = await executor.query<{ value: T }>(step, sql.get, [this.keyPrefix, key]);
    return result.rows[0]?.value ?? null;
  }

  async set(key: string, value: JsonValue, ttlMs?: number): Promise<void> {
    const step = "set value";
    const { executor, sql } = this.ready(step, key);
    assertOptionalTtlMs(step, ttlMs);
    await executor.query(step, sql.set, [this.keyPrefix, key, toJson(step, value), ttlMs ?? null]);
  }

  async delete(key: string): Promise<void> {
    const step = "delete value";
    const { executor, sql } = this.ready(step, key);
    await executor.query(step, sql.delete, [this.keyPrefix, key]);
  }

  /** One `INSERT … ON CONFLICT … WHERE expired`: first wins; a loser changes nothing. */
  async setIfNotExists(key: string, value: JsonValue, ttlMs?: number): Promise<boolean> {
    const step = "set value if absent";
    const { executor, sql } = this.ready(step, key);
    assertOptionalTtlMs(step, ttlMs);
    const result = await executor.query(step, sql.setIfNotExists, [
      this.keyPrefix,
      key,
      toJson(step, value),
      ttlMs ?? null,
    ]);
    return result.rowCount === 1;
  }

  /** One upsert with jsonb `||`; a non-object stored value fails its WHERE → ValidationError. */
  async mergeObject(
    key: string,
    patch: { readonly [field: string]: JsonValue },
    ttlMs?: number,
  ): Promise<{ [field: string]: JsonValue }> {
    const step = "merge object";
    const { executor, sql } = this.ready(step, key);
    assertOptionalTtlMs(step, ttlMs);
    assertPlainObject(step, "patch", patch);
    const result = await executor.query<{ value: { [field: string]: JsonValue } }>(
      step,
      sql.mergeObject,
      [this.keyPrefix, key, toJson(step, patch), ttlMs ?? null],
    );
    const merged = result.rows[0]?.value;
    if (merged === undefined) {
      // The statement's WHERE refused: the live value is not an object (checked with
      // jsonb_typeof in the same statement, so nothing was written).
      throw new ValidationError(
        `the value stored at ${JSON.stringify(key)} must be a plain object to merge into`,
        { step },
      );
    }
    return merged;
  }

  /**
   * One upsert that takes over only an expired row; the fence is drawn under a per-key advisory
   * lock inside the same statement, so fences of one key follow acquisition order. With
   * `options.turn`, one statement too: it also checks for and writes the turn record.
   */
  async acquireLock(
    key: string,
    ttlMs: number,
    options?: AcquireLockOptions,
  ): Promise<Lock | null> {
    if (options?.turn !== undefined) return this.turns.acquireLock(key, ttlMs, options.turn);
    const step = "acquire lock";
    const { executor, sql } = this.ready(step, key);
    assertTtlMs(step, ttlMs);
    const token = randomUUID();
    const result = await executor.query<ExpiryRow & { fence: string }>(step, sql.acquireLock, [
      this.keyPrefix,
      key,
      advisoryKey(this.schema, this.keyPrefix, "lock", key),
      token,
      ttlMs,
    ]);
    const row = result.rows[0];
    if (!row) return null;
    return { key, token, fence: Number(row.fence), expiresAt: row.expires_at_ms };
  }

  /** One UPDATE comparing token and liveness: an expired lock is never resurrected. */
  async extendLock(lock: Lock, ttlMs: number): Promise<boolean> {
    const step = "extend lock";
    const { executor, sql } = this.ready(step, lock?.key as string);
    assertTtlMs(step, ttlMs);
    const result = await executor.query(step, sql.extendLock, [
      this.keyPrefix,
      lock.key,
      String(lock.token),
      ttlMs,
    ]);
    return result.rowCount === 1;
  }

  /**
   * One DELETE comparing token and liveness; with `options.turn`, one statement that also ends
   * or hands back the turn record (turn-sql.ts).
   */
  async releaseLock(lock: Lock, options?: ReleaseLockOptions): Promise<boolean> {
    if (options?.turn !== undefined) return this.turns.releaseLock(lock, options.turn);
    const step = "release lock";
    const { executor, sql } = this.ready(step, lock?.key as string);
    const result = await executor.query(step, sql.releaseLock, [
      this.keyPrefix,
      lock.key,
      String(lock.token),
    ]);
    return result.rowCount === 1;
  }

  async forceReleaseLock(key: string): Promise<void> {
    const step = "force-release lock";
    const { executor, sql } = this.ready(step, key);
    await executor.query(step, sql.forceReleaseLock, [this.keyPrefix, key]);
  }

  /** Fence and expiry of the live lock; the token never leaves the database here. */
  async inspectLock(key: string): Promise<LockInfo | null> {
    const step = "inspect lock";
    const { executor, sql } = this.ready(step, key);
    const result = await executor.query<ExpiryRow & { fence: string }>(step, sql.inspectLock, [
      this.keyPrefix,
      key,
    ]);
    const row = result.rows[0];
    return row ? { key, fence: Number(row.fence), expiresAt: row.expires_at_ms } : null;
  }

  /**
   * One transaction holding the queue's advisory lock: count, evict and insert in one statement,
   * so concurrent enqueues never overfill the queue and each evicted entry is returned once.
   */
  async enqueue(key: string, entry: QueueEntry, options: EnqueueOptions): Promise<EnqueueResult> {
    const step = "enqueue";
    const { executor, sql } = this.ready(step, key);
    assertPlainObject(step, "entry", entry);
    assertEnqueueOptions(options);
    const values = [
      this.keyPrefix,
      key,
      toJson(step, entry.value),
      entry.enqueuedAt,
      entry.expiresAt,
      options.maxSize,
      options.onFull,
    ];
    const lockKey = advisoryKey(this.schema, this.keyPrefix, "queue", key);
    const result = await executor.transactionStatement<EnqueueRow>(
      step,
      lockKey,
      sql.enqueue,
      values,
    );
    const row = result.rows[0];
    return enqueueOutcome(step, row, entry, options);
  }

  /** One DELETE of the head with `FOR UPDATE SKIP LOCKED`: concurrent consumers never collide. */
  async dequeue(key: string): Promise<QueueEntry | null> {
    const step = "dequeue";
    const { executor, sql } = this.ready(step, key);
    const result = await executor.query<QueueEntryRow>(step, sql.dequeue, [this.keyPrefix, key]);
    const row = result.rows[0];
    if (!row) return null;
    return { value: row.value, enqueuedAt: row.enqueued_at_ms, expiresAt: row.expires_at_ms };
  }

  async queueDepth(key: string): Promise<number> {
    const step = "read queue depth";
    const { executor, sql } = this.ready(step, key);
    const result = await executor.query<{ depth: number }>(step, sql.queueDepth, [
      this.keyPrefix,
      key,
    ]);
    return result.rows[0]?.depth ?? 0;
  }

  /** `SELECT DISTINCT key … LIMIT` on the queue table's index; no other table is read. */
  async pendingQueueKeys(limit = 100): Promise<string[]> {
    const step = "list pending queues";
    const { executor, sql } = this.ready(step);
    assertLimit(step, limit);
    const result = await executor.query<{ key: string }>(step, sql.pendingQueueKeys, [
      this.keyPrefix,
      limit,
    ]);
    return result.rows.map((row) => row.key);
  }

  /** One transaction holding the list's advisory lock: append, trim and TTL refresh together. */
  async appendToList(
    key: string,
    value: JsonValue,
    options: AppendToListOptions = {},
  ): Promise<void> {
    const step = "append to list";
    const { executor, sql } = this.ready(step, key);
    assertOptionalTtlMs(step, options.ttlMs);
    assertOptionalMaxLength(step, options.maxLength);
    const values = [
      this.keyPrefix,
      key,
      toJson(step, value),
      options.ttlMs ?? null,
      options.maxLength ?? null,
    ];
    const lockKey = advisoryKey(this.schema, this.keyPrefix, "list", key);
    await executor.transactionStatement(step, lockKey, sql.appendToList, values);
  }

  async getList<T extends JsonValue = JsonValue>(key: string): Promise<T[]> {
    const step = "read list";
    const { executor, sql } = this.ready(step, key);
    const result = await executor.query<{ value: T }>(step, sql.getList, [this.keyPrefix, key]);
    return result.rows.map((row) => row.value);
  }

  /**
   * Deletes expired values, locks and lists and lapsed or re-armed claims now, for every key
   * prefix in the schema; returns how many rows went. The purge timer calls this; operators and
   * tests may too. Never changes what a read returns.
   */
  purgeExpired(): Promise<PurgeResult> {
    this.ready("purge expired rows");
    return this.connection.purgeExpired();
  }

  /** The executor and statements, or a `disconnected` StateError; then checks the keys. */
  private ready(step: string, ...keys: string[]): { executor: Executor; sql: Statements } {
    const open = this.connection.current();
    if (!open) {
      throw new StateError(
        "disconnected",
        "the Postgres state is not connected; call connect() first (and not after disconnect())",
        { step },
      );
    }
    for (const key of keys) assertKey(step, key);
    return open;
  }
}

/**
 * Creates the PostgreSQL State backend. Validates `options` at once (a `ConfigError` lists every
 * problem); touches the database only on `connect()`.
 */
export function createPostgresState(options: PostgresStateOptions): PostgresState {
  return new PostgresState(options);
}
