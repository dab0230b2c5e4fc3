import {
  type AcquireLockOptions,
  type AppendToListOptions,
  assertPositiveInteger,
  type Claim,
  type Clock,
  ConfigError,
  type EnqueueOptions,
  type EnqueueResult,
  type FastPathState,
  type JsonValue,
  type Lock,
  type LockInfo,
  type QueueEntry,
  type RecoveredTurn,
  type ReleaseLockOptions,
  type StateAdapter,
  StateError,
  type TakeQueuedTurnOptions,
  type TurnRecord,
  type TurnWrite,
} from "@baton/core";
import { ClaimTable } from "./claim-table.js";
import { ExpiringMap } from "./expiring-map.js";
import { fusedFastPaths } from "./fast-paths.js";
import { LockTable } from "./lock-table.js";
import { assertTurnRelease, assertTurnWrite } from "./turn-table.js";
import {
  assertEnqueueOptions,
  assertKey,
  assertOptionalTtlMs,
  assertPlainObject,
  assertTtlMs,
} from "./validate.js";

/** Options of {@link createMemoryState}. */
export interface MemoryStateOptions {
  /** The time source for every expiry. Default: the system clock. Tests pass a fake clock. */
  clock?: Pick<Clock, "now">;
  /**
   * How often, at most, a write sweeps all expired entries out of memory. Reads always hide
   * expired entries at once; this only bounds memory. Default 60 000.
   */
  purgeIntervalMs?: number;
  /**
   * Offer the fused fast paths `acceptAndAcquire` and `releaseAndNext` (DESIGN §4.1), which the
   * runtime then uses instead of the separate calls. Off by default, so a test that spies on
   * or fails `setIfNotExists`/`acquireLock`/`releaseLock` sees the calls it expects.
   */
  fastPaths?: boolean;
}

const DEFAULT_PURGE_INTERVAL_MS = 60_000;

/**
 * The in-memory State backend: the reference implementation of the contract and the embedded
 * default. Every operation runs synchronously inside its promise, so each is atomic. State lives
 * in this process only: it is for one instance, tests and the playground. It has durable turn
 * records (`TurnState`), kept in process like everything else.
 */
export class MemoryState implements StateAdapter {
  readonly name = "memory";
  private readonly now: () => number;
  private readonly purgeIntervalMs: number;
  private connected = false;
  private lastPurgeAt: number;
  /** Never reset, not even by `disconnect()`: fences and generations must never repeat. */
  private fenceSequence = 0;

  private readonly subscriptions = new Set<string>();
  private readonly values: ExpiringMap<JsonValue>;
  private readonly queues = new Map<string, QueueEntry[]>();
  /** The locks and the turn records beside them. */
  private readonly locks: LockTable;
  private readonly lists: ExpiringMap<JsonValue[]>;
  private readonly claims = new ClaimTable(
    () => this.now(),
    () => this.nextFence(),
  );

  /** Present only with `fastPaths: true`; see `FastPathState` in @baton/core. */
  readonly acceptAndAcquire?: FastPathState["acceptAndAcquire"];
  /** Present only with `fastPaths: true`; see `FastPathState` in @baton/core. */
  readonly releaseAndNext?: FastPathState["releaseAndNext"];

  constructor(options: MemoryStateOptions = {}) {
    const clock = options.clock ?? { now: () => Date.now() };
    this.now = () => clock.now();
    this.purgeIntervalMs = options.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS;
    if (!(this.purgeIntervalMs > 0 && Number.isFinite(this.purgeIntervalMs))) {
      throw new ConfigError([
        `purgeIntervalMs: must be a positive number of milliseconds, got ${options.purgeIntervalMs}`,
      ]);
    }
    this.values = new ExpiringMap(this.now);
    this.locks = new LockTable(this.now, () => this.nextFence(), this.queues);
    this.lists = new ExpiringMap(this.now);
    this.lastPurgeAt = this.now();
    if (options.fastPaths) {
      const fused = fusedFastPaths({
        values: this.values,
        subscriptions: this.subscriptions,
        queues: this.queues,
        locks: this.locks,
        ready: (step, key) => this.ready(step, key),
        maybePurge: () => this.maybePurge(),
      });
      this.acceptAndAcquire = fused.acceptAndAcquire;
      this.releaseAndNext = fused.releaseAndNext;
    }
  }

  async connect(): Promise<void> {
    this.connected = true;
  }

  /** Closes the backend and forgets all data; the fence sequence continues after a reconnect. */
  async disconnect(): Promise<void> {
    this.connected = false;
    this.subscriptions.clear();
    this.values.clear();
    this.locks.clear();
    this.queues.clear();
    this.lists.clear();
    this.claims.clear();
  }

  async subscribe(threadId: string): Promise<void> {
    this.ready("subscribe", threadId);
    this.subscriptions.add(threadId);
  }

  async unsubscribe(threadId: string): Promise<void> {
    this.ready("unsubscribe", threadId);
    this.subscriptions.delete(threadId);
  }

  async isSubscribed(threadId: string): Promise<boolean> {
    this.ready("check subscription", threadId);
    return this.subscriptions.has(threadId);
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | null> {
    this.ready("get value", key);
    const value = this.values.get(key);
    return value === undefined ? null : (structuredClone(value) as T);
  }

  async set(key: string, value: JsonValue, ttlMs?: number): Promise<void> {
    this.ready("set value", key);
    assertOptionalTtlMs("set value", ttlMs);
    this.values.set(key, structuredClone(value), ttlMs);
    this.maybePurge();
  }

  async delete(key: string): Promise<void> {
    this.ready("delete value", key);
    this.values.delete(key);
  }

  async setIfNotExists(key: string, value: JsonValue, ttlMs?: number): Promise<boolean> {
    this.ready("set value if absent", key);
    assertOptionalTtlMs("set value if absent", ttlMs);
    if (this.values.has(key)) return false;
    this.values.set(key, structuredClone(value), ttlMs);
    this.maybePurge();
    return true;
  }

  async mergeObject(
    key: string,
    patch: { readonly [field: string]: JsonValue },
    ttlMs?: number,
  ): Promise<{ [field: string]: JsonValue }> {
    this.ready("merge object", key);
    assertOptionalTtlMs("merge object", ttlMs);
    assertPlainObject("merge object", "patch", patch);
    const stored = this.values.get(key);
    const current = stored === undefined ? {} : stored;
    assertPlainObject("merge object", `the value stored at ${JSON.stringify(key)}`, current);
    const merged = { ...(current as Record<string, JsonValue>), ...structuredClone(patch) };
    this.values.set(key, merged, ttlMs ?? this.remainingMs(this.values.expiresAt(key)));
    this.maybePurge();
    return structuredClone(merged);
  }

  async acquireLock(
    key: string,
    ttlMs: number,
    options: AcquireLockOptions = {},
  ): Promise<Lock | null> {
    this.ready("acquire lock", key);
    assertTtlMs("acquire lock", ttlMs);
    if (options.turn !== undefined) assertTurnWrite("acquire lock", options.turn);
    const lock = this.locks.take(key, ttlMs, options.turn);
    this.maybePurge();
    return lock;
  }

  async extendLock(lock: Lock, ttlMs: number): Promise<boolean> {
    this.ready("extend lock", lock.key);
    assertTtlMs("extend lock", ttlMs);
    return this.locks.extend(lock, ttlMs);
  }

  async releaseLock(lock: Lock, options: ReleaseLockOptions = {}): Promise<boolean> {
    this.ready("release lock", lock.key);
    assertTurnRelease("release lock", options.turn);
    return this.locks.free(lock, options.turn);
  }

  async forceReleaseLock(key: string): Promise<void> {
    this.ready("force-release lock", key);
    this.locks.forceFree(key);
  }

  async inspectLock(key: string): Promise<LockInfo | null> {
    this.ready("inspect lock", key);
    return this.locks.info(key);
  }

  async enqueue(key: string, entry: QueueEntry, options: EnqueueOptions): Promise<EnqueueResult> {
    this.ready("enqueue", key);
    assertEnqueueOptions(options);
    const queue = this.queues.get(key) ?? [];
    const evicted: QueueEntry[] = [];
    if (queue.length >= options.maxSize && options.onFull === "drop-newest") {
      return { depth: queue.length, evicted: [structuredClone(entry)] };
    }
    while (queue.length >= options.maxSize) {
      const head = queue.shift();
      if (head) evicted.push(head);
    }
    queue.push(structuredClone(entry));
    this.queues.set(key, queue);
    return { depth: queue.length, evicted };
  }

  async dequeue(key: string): Promise<QueueEntry | null> {
    this.ready("dequeue", key);
    const queue = this.queues.get(key);
    const head = queue?.shift();
    if (queue && queue.length === 0) this.queues.delete(key);
    return head ?? null;
  }

  async queueDepth(key: string): Promise<number> {
    this.ready("read queue depth", key);
    return this.queues.get(key)?.length ?? 0;
  }

  async pendingQueueKeys(limit = 100): Promise<string[]> {
    this.ready("list pending queues");
    assertPositiveInteger("list pending queues", "limit", limit);
    return [...this.queues.keys()].slice(0, limit);
  }

  async appendToList(
    key: string,
    value: JsonValue,
    options: AppendToListOptions = {},
  ): Promise<void> {
    this.ready("append to list", key);
    assertOptionalTtlMs("append to list", options.ttlMs);
    if (options.maxLength !== undefined) {
      assertPositiveInteger("append to list", "maxLength", options.maxLength);
    }
    const list = this.lists.get(key) ?? [];
    list.push(structuredClone(value));
    if (options.maxLength !== undefined && list.length > options.maxLength) {
      list.splice(0, list.length - options.maxLength);
    }
    const keepTtlMs = options.ttlMs ?? this.remainingMs(this.lists.expiresAt(key));
    this.lists.set(key, list, keepTtlMs);
    this.maybePurge();
  }

  async getList<T extends JsonValue = JsonValue>(key: string): Promise<T[]> {
    this.ready("read list", key);
    return structuredClone(this.lists.get(key) ?? []) as T[];
  }

  async claim(key: string, ttlMs: number): Promise<Claim | null> {
    this.ready("claim", key);
    assertTtlMs("claim", ttlMs);
    this.maybePurge();
    return this.claims.take(key, ttlMs);
  }

  async completeClaim(claim: Claim): Promise<boolean> {
    this.ready("complete claim", claim.key);
    return this.claims.settle(claim, "completed");
  }

  async rearmClaim(claim: Claim): Promise<boolean> {
    this.ready("re-arm claim", claim.key);
    return this.claims.settle(claim, "armed");
  }

  async pendingTurnKeys(limit = 100): Promise<string[]> {
    this.ready("list pending turns");
    assertPositiveInteger("list pending turns", "limit", limit);
    return this.locks.turns.pendingKeys(limit);
  }

  async recoverTurn(
    key: string,
    ttlMs: number,
    options: { readonly startedAt: number },
  ): Promise<RecoveredTurn | null> {
    this.ready("recover turn", key);
    assertTtlMs("recover turn", ttlMs);
    return this.locks.recover(key, ttlMs, options?.startedAt);
  }

  async takeQueuedTurn(lock: Lock, options: TakeQueuedTurnOptions): Promise<QueueEntry[]> {
    this.ready("take queued turn", lock?.key);
    assertPositiveInteger("take queued turn", "maxEntries", options?.maxEntries);
    return this.locks.turns.takeQueued(lock, options);
  }

  async writeTurn(lock: Lock, turn: TurnWrite): Promise<boolean> {
    this.ready("write turn", lock?.key);
    assertTurnWrite("write turn", turn);
    return this.locks.turns.write(lock, turn);
  }

  async inspectTurn(key: string): Promise<TurnRecord | null> {
    this.ready("inspect turn", key);
    return this.locks.turns.inspect(key);
  }

  /** Entries still held in memory, expired ones awaiting purge included. For purge tests. */
  storedEntryCount(): number {
    return this.values.storedSize + this.locks.storedSize + this.lists.storedSize;
  }

  /** Claim records held in memory, lapsed and re-armed ones awaiting purge included. */
  storedClaimCount(): number {
    return this.claims.size;
  }

  /**
   * Removes every expired value, lock and list now, and every claim record that behaves like an
   * absent one — re-armed, or claimed with its claim lapsed — as the server backends do.
   * Completed records stay: completed work must never run again. Turn records have no expiry.
   */
  purgeExpired(): void {
    this.values.purgeExpired();
    this.locks.purgeExpired();
    this.lists.purgeExpired();
    this.claims.purge();
    this.lastPurgeAt = this.now();
  }

  private nextFence(): number {
    this.fenceSequence += 1;
    return this.fenceSequence;
  }

  private remainingMs(expiresAt: number | undefined): number | undefined {
    return expiresAt === undefined ? undefined : Math.max(1, expiresAt - this.now());
  }

  private maybePurge(): void {
    if (this.now() - this.lastPurgeAt >= this.purgeIntervalMs) this.purgeExpired();
  }

  private ready(step: string, key?: string): void {
    if (!this.connected) {
      throw new StateError(
        "disconnected",
        "the memory state is not connected; call connect() first (and not after disconnect())",
        { step },
      );
    }
    if (key !== undefined) assertKey(step, key);
  }
}

/** Creates an in-memory State backend. Call `connect()` before use. */
export function createMemoryState(options?: MemoryStateOptions): MemoryState {
  return new MemoryState(options);
}
