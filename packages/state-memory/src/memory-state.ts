import { randomUUID } from "node:crypto";
import {
  type AcceptAndAcquireRequest,
  type AcceptAndAcquireResult,
  type AppendToListOptions,
  type Claim,
  type Clock,
  ConfigError,
  type EnqueueOptions,
  type EnqueueResult,
  type JsonValue,
  type Lock,
  type LockInfo,
  type QueueEntry,
  type ReleaseAndNextResult,
  type StateAdapter,
  StateError,
  ValidationError,
} from "@baton/core";
import { ClaimTable } from "./claim-table.js";
import { ExpiringMap } from "./expiring-map.js";
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
 * in this process only: it is for one instance, tests and the playground.
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
  private readonly locks: ExpiringMap<Lock>;
  private readonly queues = new Map<string, QueueEntry[]>();
  private readonly lists: ExpiringMap<JsonValue[]>;
  private readonly claims = new ClaimTable(
    () => this.now(),
    () => this.nextFence(),
  );

  /** Present only with `fastPaths: true`; see `FastPathState` in @baton/core. */
  readonly acceptAndAcquire?: (request: AcceptAndAcquireRequest) => Promise<AcceptAndAcquireResult>;
  /** Present only with `fastPaths: true`; see `FastPathState` in @baton/core. */
  readonly releaseAndNext?: (lock: Lock) => Promise<ReleaseAndNextResult>;

  constructor(options: MemoryStateOptions = {}) {
    if (options.fastPaths) {
      this.acceptAndAcquire = (request) => this.fusedAcceptAndAcquire(request);
      this.releaseAndNext = (lock) => this.fusedReleaseAndNext(lock);
    }
    const clock = options.clock ?? { now: () => Date.now() };
    this.now = () => clock.now();
    this.purgeIntervalMs = options.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS;
    if (!(this.purgeIntervalMs > 0 && Number.isFinite(this.purgeIntervalMs))) {
      throw new ConfigError([
        `purgeIntervalMs: must be a positive number of milliseconds, got ${options.purgeIntervalMs}`,
      ]);
    }
    this.values = new ExpiringMap(this.now);
    this.locks = new ExpiringMap(this.now);
    this.lists = new ExpiringMap(this.now);
    this.lastPurgeAt = this.now();
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

  async acquireLock(key: string, ttlMs: number): Promise<Lock | null> {
    this.ready("acquire lock", key);
    assertTtlMs("acquire lock", ttlMs);
    if (this.locks.has(key)) return null;
    const lock: Lock = {
      key,
      token: randomUUID(),
      fence: this.nextFence(),
      expiresAt: this.now() + ttlMs,
    };
    this.locks.set(key, lock, ttlMs);
    this.maybePurge();
    return { ...lock };
  }

  /** Fused fast path: synchronous inside one promise, so atomic like every call here. */
  private async fusedAcceptAndAcquire(
    request: AcceptAndAcquireRequest,
  ): Promise<AcceptAndAcquireResult> {
    const step = "accept and acquire";
    this.ready(step, request?.dedupeKey);
    assertKey(step, request.lockKey);
    assertKey(step, request.threadId);
    assertTtlMs(step, request.dedupeTtlMs);
    assertTtlMs(step, request.lockTtlMs);
    if (this.values.has(request.dedupeKey)) return { kind: "duplicate" };
    this.values.set(request.dedupeKey, 1, request.dedupeTtlMs);
    this.maybePurge();
    if (this.locks.has(request.lockKey)) return { kind: "busy" };
    const lock: Lock = {
      key: request.lockKey,
      token: randomUUID(),
      fence: this.nextFence(),
      expiresAt: this.now() + request.lockTtlMs,
    };
    this.locks.set(request.lockKey, lock, request.lockTtlMs);
    return {
      kind: "acquired",
      lock: { ...lock },
      subscribed: this.subscriptions.has(request.threadId),
    };
  }

  /** Fused fast path: release (token-checked) and a look at the queue's head, atomically. */
  private async fusedReleaseAndNext(lock: Lock): Promise<ReleaseAndNextResult> {
    this.ready("release lock and peek queue", lock?.key);
    const current = this.locks.get(lock.key);
    const released = current !== undefined && current.token === lock.token;
    if (released) this.locks.delete(lock.key);
    const head = this.queues.get(lock.key)?.[0];
    return { released, next: head === undefined ? null : structuredClone(head) };
  }

  async extendLock(lock: Lock, ttlMs: number): Promise<boolean> {
    this.ready("extend lock", lock.key);
    assertTtlMs("extend lock", ttlMs);
    const current = this.locks.get(lock.key);
    if (!current || current.token !== lock.token) return false;
    return this.locks.touch(lock.key, ttlMs);
  }

  async releaseLock(lock: Lock): Promise<boolean> {
    this.ready("release lock", lock.key);
    const current = this.locks.get(lock.key);
    if (!current || current.token !== lock.token) return false;
    this.locks.delete(lock.key);
    return true;
  }

  async forceReleaseLock(key: string): Promise<void> {
    this.ready("force-release lock", key);
    this.locks.delete(key);
  }

  async inspectLock(key: string): Promise<LockInfo | null> {
    this.ready("inspect lock", key);
    const lock = this.locks.get(key);
    const expiresAt = this.locks.expiresAt(key);
    if (!lock || expiresAt === undefined) return null;
    return { key, fence: lock.fence, expiresAt };
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
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ValidationError(`limit must be a positive integer, got ${limit}`, {
        step: "list pending queues",
      });
    }
    return [...this.queues.keys()].slice(0, limit);
  }

  async appendToList(
    key: string,
    value: JsonValue,
    options: AppendToListOptions = {},
  ): Promise<void> {
    this.ready("append to list", key);
    assertOptionalTtlMs("append to list", options.ttlMs);
    if (
      options.maxLength !== undefined &&
      !(Number.isInteger(options.maxLength) && options.maxLength >= 1)
    ) {
      throw new ValidationError(`maxLength must be a positive integer, got ${options.maxLength}`, {
        step: "append to list",
      });
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
   * Completed records stay: completed work must never run again.
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
