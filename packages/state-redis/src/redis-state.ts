import {
  type AcceptAndAcquireRequest,
  type AcceptAndAcquireResult,
  type AcquireLockOptions,
  type AppendToListOptions,
  type Claim,
  type EnqueueOptions,
  type EnqueueResult,
  type JsonValue,
  type Lock,
  type LockInfo,
  type QueueEntry,
  type RecoveredTurn,
  type ReleaseAndNextResult,
  type ReleaseLockOptions,
  type StateAdapter,
  type TakeQueuedTurnOptions,
  type TurnRecord,
  type TurnWrite,
  ValidationError,
} from "@baton/core";
import { claimWork, finishClaim } from "./claims.js";
import { isClusterClient } from "./command-target.js";
import { RedisConnection } from "./connection.js";
import { type FastPathDeps, offeredFastPaths } from "./fast-paths.js";
import { RedisKeyLayout } from "./keys.js";
import { acquireLock, extendLock, forceReleaseLock, releaseLock } from "./locks.js";
import { type RedisStateOptions, resolveRedisStateOptions } from "./options.js";
import { ReplicaConfirmation } from "./replication.js";
import { APPEND_TO_LIST, DEQUEUE, ENQUEUE, INSPECT_LOCK, MERGE_OBJECT } from "./scripts.js";
import { inspectTurn, pendingTurnKeys, recoverTurn, takeQueuedTurn, writeTurn } from "./turns.js";
import {
  assertEnqueueOptions,
  assertOptionalTtlMs,
  assertPlainObject,
  assertPositiveInteger,
  assertReady,
  assertTtlMs,
  NO_KEY,
  parseStored,
  pxArgument,
  toJson,
} from "./validate.js";

/** What `pendingQueueKeys()` returns when no limit is given. */
const DEFAULT_PENDING_LIMIT = 100;

/**
 * The Redis State backend, on one Redis or a Redis Cluster. Every operation is one Redis command
 * or one Lua script — one round trip, atomic on the server, all its keys in one cluster slot —
 * and expiry is judged by the Redis server's clock (PX, PEXPIRE, PEXPIRETIME, TIME), so instances
 * with skewed clocks agree. Every call is bounded by `timeoutMs` and fails with a `StateError`
 * naming its step; invalid arguments reject with a `ValidationError` before anything is sent.
 * Data lives in Redis and survives `disconnect()`; fences strictly increase per lock key, also
 * after the lock and its fence record are gone (see `NEXT_FENCE` for the clock assumption).
 * With `replication`, lock writes are confirmed on replicas (`WAIT`) before they count.
 */
export class RedisState implements StateAdapter {
  readonly name = "redis";
  /** The prefix of every key this backend writes; one prefix is one isolated store. */
  readonly keyPrefix: string;
  private readonly keys: RedisKeyLayout;
  private readonly connection: RedisConnection;
  private readonly replicas: ReplicaConfirmation | undefined;
  /** What the calls split into modules of their own (locks, turns, claims, fast paths) need. */
  private readonly deps: FastPathDeps;

  /** One script; present unless `fastPaths: false`, absent on a Redis Cluster (ADR 0026). */
  readonly acceptAndAcquire?: (request: AcceptAndAcquireRequest) => Promise<AcceptAndAcquireResult>;
  /** One script; present unless `fastPaths: false`. See `FastPathState` in @baton/core. */
  readonly releaseAndNext?: (
    lock: Lock,
    options?: ReleaseLockOptions,
  ) => Promise<ReleaseAndNextResult>;

  constructor(options: RedisStateOptions) {
    const resolved = resolveRedisStateOptions(options);
    this.keyPrefix = resolved.keyPrefix;
    this.keys = new RedisKeyLayout(resolved.keyPrefix);
    this.connection = new RedisConnection(resolved);
    this.replicas =
      resolved.replication && new ReplicaConfirmation(this.connection, resolved.replication);
    // Known before connect(): a borrowed cluster client is recognised by its shape.
    const isCluster = resolved.cluster !== undefined || isClusterClient(resolved.client);
    this.deps = { connection: this.connection, keys: this.keys, replicas: this.replicas };
    const fused = offeredFastPaths(this.deps, resolved.fastPaths, isCluster);
    if (fused.acceptAndAcquire) this.acceptAndAcquire = fused.acceptAndAcquire;
    if (fused.releaseAndNext) this.releaseAndNext = fused.releaseAndNext;
  }

  /** True when connected to (or configured for) a Redis Cluster. */
  get isCluster(): boolean {
    return this.connection.isCluster;
  }

  /**
   * Opens the connection (with `url`) or checks the given client is open, then checks the server
   * is Redis 7+, all within `timeoutMs`. Idempotent: concurrent calls share one attempt, and a
   * failed attempt (a `StateError`) can be retried.
   */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  /**
   * Idempotent. Closes the client this backend created (never a client passed in `client`).
   * Stored data stays in Redis. Every later call except `connect()` rejects with `disconnected`.
   */
  disconnect(): Promise<void> {
    return this.connection.disconnect();
  }

  /** One `SET` of `<prefix>:sub:{<threadId>}`; subscriptions have no TTL. */
  async subscribe(threadId: string): Promise<void> {
    this.ready("subscribe", threadId);
    await this.connection.command("subscribe", ["SET", this.keys.subscription(threadId), "1"]);
  }

  async unsubscribe(threadId: string): Promise<void> {
    this.ready("unsubscribe", threadId);
    await this.connection.command("unsubscribe", ["DEL", this.keys.subscription(threadId)]);
  }

  async isSubscribed(threadId: string): Promise<boolean> {
    this.ready("check subscription", threadId);
    const key = this.keys.subscription(threadId);
    return (await this.connection.command<number>("check subscription", ["EXISTS", key])) === 1;
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | null> {
    this.ready("get value", key);
    const text = await this.connection.command<string | null>("get value", [
      "GET",
      this.keys.value(key),
    ]);
    return text === null ? null : (parseStored("get value", key, text) as T);
  }

  async set(key: string, value: JsonValue, ttlMs?: number): Promise<void> {
    this.ready("set value", key);
    assertOptionalTtlMs("set value", ttlMs);
    const args = ["SET", this.keys.value(key), toJson("set value", "value", value)];
    if (ttlMs !== undefined) args.push("PX", pxArgument(ttlMs));
    await this.connection.command("set value", args);
  }

  async delete(key: string): Promise<void> {
    this.ready("delete value", key);
    await this.connection.command("delete value", ["DEL", this.keys.value(key)]);
  }

  /** One `SET NX [PX]`: first writer wins, and a losing call leaves the TTL alone. */
  async setIfNotExists(key: string, value: JsonValue, ttlMs?: number): Promise<boolean> {
    const step = "set value if absent";
    this.ready(step, key);
    assertOptionalTtlMs(step, ttlMs);
    const args = ["SET", this.keys.value(key), toJson(step, "value", value), "NX"];
    if (ttlMs !== undefined) args.push("PX", pxArgument(ttlMs));
    return (await this.connection.command<string | null>(step, args)) !== null;
  }

  /** One script: reads, checks for a JSON object, merges and writes (KEEPTTL without `ttlMs`). */
  async mergeObject(
    key: string,
    patch: { readonly [field: string]: JsonValue },
    ttlMs?: number,
  ): Promise<{ [field: string]: JsonValue }> {
    const step = "merge object";
    this.ready(step, key);
    assertOptionalTtlMs(step, ttlMs);
    assertPlainObject(step, "patch", patch);
    const args = [ttlMs === undefined ? "" : pxArgument(ttlMs)];
    for (const [field, value] of Object.entries(patch)) {
      // As in JSON, a field whose value is undefined is not stored.
      if (value !== undefined)
        args.push(
          JSON.stringify(field),
          toJson(step, `patch field ${JSON.stringify(field)}`, value),
        );
    }
    const reply = await this.connection.script<[number, string?]>(
      step,
      MERGE_OBJECT,
      [this.keys.value(key)],
      args,
    );
    if (reply[0] !== 1 || reply[1] === undefined) {
      throw new ValidationError(
        `the value stored at ${JSON.stringify(key)} must be a plain object to merge into`,
        { step },
      );
    }
    return parseStored(step, key, reply[1]) as { [field: string]: JsonValue };
  }

  /**
   * One script: the lock with the next fence of this key and, with `options.turn`, its turn
   * record (see locks.ts). `expiresAt` is the key's PEXPIRETIME, by the Redis server's clock.
   */
  acquireLock(key: string, ttlMs: number, options?: AcquireLockOptions): Promise<Lock | null> {
    return acquireLock(this.deps, key, ttlMs, options);
  }

  /** One script: compares the token, then `PEXPIRE`; an expired key is gone, never revived. */
  extendLock(lock: Lock, ttlMs: number): Promise<boolean> {
    return extendLock(this.deps, lock, ttlMs);
  }

  /** One script: compares the token, then `DEL`; `options.turn` ends or hands back the record. */
  releaseLock(lock: Lock, options?: ReleaseLockOptions): Promise<boolean> {
    return releaseLock(this.deps, lock, options);
  }

  forceReleaseLock(key: string): Promise<void> {
    return forceReleaseLock(this.deps, key);
  }

  /** One script: the fence and PEXPIRETIME of the live lock, never its token. */
  async inspectLock(key: string): Promise<LockInfo | null> {
    const step = "inspect lock";
    this.ready(step, key);
    const reply = await this.connection.script<[number, number] | []>(
      step,
      INSPECT_LOCK,
      [this.keys.lock(key)],
      [],
    );
    if (reply.length === 0) return null;
    return { key, fence: Number(reply[0]), expiresAt: Number(reply[1]) };
  }

  /**
   * One script: full check, eviction (`LPOP n`), `RPUSH` and the update of the queue's
   * pending-index shard (same slot as the queue).
   */
  async enqueue(key: string, entry: QueueEntry, options: EnqueueOptions): Promise<EnqueueResult> {
    this.ready("enqueue", key);
    assertEnqueueOptions(options);
    const text = toJson("enqueue", "entry", entry);
    const reply = await this.connection.script<[number, number, ...string[]]>(
      "enqueue",
      ENQUEUE,
      [this.keys.queue(key), this.keys.pendingShard(key)],
      [text, String(options.maxSize), options.onFull, key],
    );
    const [depth, refused, ...evicted] = reply;
    if (refused === 1) return { depth: Number(depth), evicted: [JSON.parse(text) as QueueEntry] };
    return {
      depth: Number(depth),
      evicted: evicted.map((item) => parseStored("enqueue", key, item) as unknown as QueueEntry),
    };
  }

  /** One script: `LPOP`, and the queue leaves the pending index when it is empty. */
  async dequeue(key: string): Promise<QueueEntry | null> {
    this.ready("dequeue", key);
    const reply = await this.connection.script<[string] | []>(
      "dequeue",
      DEQUEUE,
      [this.keys.queue(key), this.keys.pendingShard(key)],
      [key],
    );
    const head = reply[0];
    return head === undefined ? null : (parseStored("dequeue", key, head) as unknown as QueueEntry);
  }

  async queueDepth(key: string): Promise<number> {
    this.ready("read queue depth", key);
    return Number(
      await this.connection.command<number>("read queue depth", ["LLEN", this.keys.queue(key)]),
    );
  }

  /**
   * Up to `limit` distinct keys drawn at random from the shards of the pending-queue index: one
   * `SRANDMEMBER` per shard, sent together (pipelined, to every master at once on a cluster),
   * never a keyspace scan. Shards are visited from a random one on, and random draws mean that
   * when more than `limit` queues wait, repeated sweeps reach all of them rather than the same
   * few. Each shard costs one command per sweep, whether empty or not.
   */
  async pendingQueueKeys(limit = DEFAULT_PENDING_LIMIT): Promise<string[]> {
    const step = "list pending queues";
    this.ready(step);
    assertPositiveInteger(step, "limit", limit);
    const shards = this.keys.pendingShards;
    const start = Math.floor(Math.random() * shards.length);
    const ordered = [...shards.slice(start), ...shards.slice(0, start)];
    const draws = await Promise.all(
      ordered.map((shard) =>
        this.connection.command<string[]>(step, ["SRANDMEMBER", shard, String(limit)]),
      ),
    );
    return draws.flat().slice(0, limit);
  }

  /** One script: `RPUSH`, `LTRIM` and `PEXPIRE` together. */
  async appendToList(
    key: string,
    value: JsonValue,
    options: AppendToListOptions = {},
  ): Promise<void> {
    const step = "append to list";
    this.ready(step, key);
    assertOptionalTtlMs(step, options.ttlMs);
    if (options.maxLength !== undefined) {
      assertPositiveInteger(step, "maxLength", options.maxLength);
    }
    await this.connection.script(
      step,
      APPEND_TO_LIST,
      [this.keys.list(key)],
      [
        toJson(step, "value", value),
        options.maxLength === undefined ? "" : String(options.maxLength),
        options.ttlMs === undefined ? "" : pxArgument(options.ttlMs),
      ],
    );
  }

  async getList<T extends JsonValue = JsonValue>(key: string): Promise<T[]> {
    this.ready("read list", key);
    const items = await this.connection.command<string[]>("read list", [
      "LRANGE",
      this.keys.list(key),
      "0",
      "-1",
    ]);
    return items.map((item) => parseStored("read list", key, item) as T);
  }

  /** One script; see `claimWork` (claims.ts). Generations strictly increase per key. */
  claim(key: string, ttlMs: number): Promise<Claim | null> {
    return claimWork(this.deps, key, ttlMs);
  }

  completeClaim(claim: Claim): Promise<boolean> {
    return finishClaim(this.deps, claim, "completed");
  }

  rearmClaim(claim: Claim): Promise<boolean> {
    return finishClaim(this.deps, claim, "armed");
  }

  /** One script per index shard, pipelined; see turns.ts. Only records whose lease ended. */
  pendingTurnKeys(limit?: number): Promise<string[]> {
    return pendingTurnKeys(this.deps, limit);
  }

  /** One script: lock (new fence) and record (attempt + 1) together; see turns.ts. */
  recoverTurn(
    key: string,
    ttlMs: number,
    options: { readonly startedAt: number },
  ): Promise<RecoveredTurn | null> {
    return recoverTurn(this.deps, key, ttlMs, options);
  }

  /** One script: `LPOP n` of the lock's queue into its turn record. */
  takeQueuedTurn(lock: Lock, options: TakeQueuedTurnOptions): Promise<QueueEntry[]> {
    return takeQueuedTurn(this.deps, lock, options);
  }

  writeTurn(lock: Lock, turn: TurnWrite): Promise<boolean> {
    return writeTurn(this.deps, lock, turn);
  }

  inspectTurn(key: string): Promise<TurnRecord | null> {
    return inspectTurn(this.deps, key);
  }

  /** Rejects when not connected (first, as the memory backend does), then checks the key. */
  private ready(step: string, key: string | typeof NO_KEY = NO_KEY): void {
    assertReady(this.connection, step, key);
  }
}

/**
 * Creates a Redis State backend. Validates `options` at once (a `ConfigError` listing every
 * problem); call `connect()` before use.
 */
export function createRedisState(options: RedisStateOptions): RedisState {
  return new RedisState(options);
}
