import type { JsonValue } from "../model/json.js";
import type { AcquireLockOptions, ReleaseLockOptions, TurnState, TurnWrite } from "./turn-state.js";

/**
 * Connection lifecycle of a State backend.
 */
export interface StateLifecycle {
  /**
   * Opens the backend. Idempotent: concurrent calls share one attempt, a call after success does
   * nothing, a call after a failed attempt tries again.
   */
  connect(): Promise<void>;
  /**
   * Closes the backend. Idempotent. Every later call except `connect()` rejects with a
   * `StateError` of failure `disconnected`.
   */
  disconnect(): Promise<void>;
}

/** Which threads the bot follows (upstream `thread.subscribe()`). */
export interface SubscriptionState {
  /** Marks the thread subscribed. Idempotent. */
  subscribe(threadId: string): Promise<void>;
  /** Removes the subscription. Idempotent. */
  unsubscribe(threadId: string): Promise<void>;
  /** True when `subscribe` was called for the thread and `unsubscribe` was not called after it. */
  isSubscribed(threadId: string): Promise<boolean>;
}

/** JSON key-value storage with optional expiry. Values come back as copies. */
export interface KeyValueState {
  /** The stored value, or `null` when the key is absent or expired. */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | null>;
  /** Stores `value`, replacing any previous value and its TTL. Without `ttlMs` it never expires. */
  set(key: string, value: JsonValue, ttlMs?: number): Promise<void>;
  /** Removes the key. Deleting an absent key does nothing. */
  delete(key: string): Promise<void>;
  /**
   * Stores `value` only when the key is absent or expired; one atomic step. Returns true for the
   * call that stored. A losing call changes nothing — in particular not the existing TTL.
   */
  setIfNotExists(key: string, value: JsonValue, ttlMs?: number): Promise<boolean>;
  /**
   * Shallow-merges `patch` into the object stored at `key` (an absent or expired key counts as
   * `{}`) and returns the merged object; one atomic step, so concurrent merges lose no key. With
   * `ttlMs` the merged object expires that long from now; without, an existing TTL is kept.
   * Rejects with a `ValidationError` when the stored value is not a plain object.
   */
  mergeObject(
    key: string,
    patch: { readonly [field: string]: JsonValue },
    ttlMs?: number,
  ): Promise<{ [field: string]: JsonValue }>;
}

/**
 * A held lock. `token` proves ownership; `fence` orders the holders of one lock key: it strictly
 * increases with every successful acquire of that key, across holders, restarts and expiry (it
 * never goes back, also after the lock record is gone), so a stale holder's fence is always
 * smaller than a newer holder's. Fences of different keys are not comparable (DESIGN §4.1): that
 * lets a backend keep every operation of one key in one shard.
 */
export interface Lock {
  readonly key: string;
  readonly token: string;
  readonly fence: number;
  /** Expiry in epoch milliseconds by the backend's clock, as of acquisition. */
  readonly expiresAt: number;
}

/** What anyone may know about a held lock: everything but the token, so it cannot be stolen. */
export interface LockInfo {
  readonly key: string;
  readonly fence: number;
  /** Current expiry in epoch milliseconds by the backend's clock. */
  readonly expiresAt: number;
}

/** Mutual exclusion with leases and fencing tokens. Listed in lifecycle order. */
export interface LockState {
  /**
   * Takes the lock for `ttlMs` when it is free or expired; one atomic step. Returns `null` when
   * another holder has it — a conflict never throws. Of N concurrent callers at most one wins.
   * With `options.turn` (backends with {@link TurnState}) the run's turn record is written in the
   * same step, and an interrupted turn's record on the key makes the acquire fail.
   */
  acquireLock(key: string, ttlMs: number, options?: AcquireLockOptions): Promise<Lock | null>;
  /**
   * Sets the lock's expiry to `ttlMs` from now when `lock.token` still holds it. Returns false when
   * the lock expired, was released or is held by someone else; an expired lock is never
   * resurrected. The fence is unchanged.
   */
  extendLock(lock: Lock, ttlMs: number): Promise<boolean>;
  /**
   * Frees the lock when `lock.token` holds it. Returns false, touching nothing, when it does not
   * (expired, released, or taken by a newer holder). `options.turn` (backends with
   * {@link TurnState}) ends or hands back the key's turn record in the same step; see
   * `TurnRelease` for when it applies although the lock is no longer held.
   */
  releaseLock(lock: Lock, options?: ReleaseLockOptions): Promise<boolean>;
  /** Frees the lock whoever holds it. For operators and recovery tools, not for the hot path. */
  forceReleaseLock(key: string): Promise<void>;
  /**
   * The live lock on `key` without its token, or `null` when the key is free or its lock expired.
   * For inspection (operators, tests, timelines); never needed to take or keep a lock.
   */
  inspectLock(key: string): Promise<LockInfo | null>;
}

/** One queued item. The backend stores it as JSON and never judges `expiresAt` itself. */
export interface QueueEntry {
  /** The payload, e.g. a serialized message. */
  value: JsonValue;
  /** Epoch milliseconds when the entry was enqueued. */
  enqueuedAt: number;
  /**
   * Epoch milliseconds after which the consumer must treat the entry as expired. The backend
   * returns expired entries like any other, so the consumer can record their disposition.
   */
  expiresAt: number;
}

/** What to do when a queue is at `maxSize`. */
export type QueueFullPolicy = "drop-oldest" | "drop-newest";

/** Options of {@link QueueState.enqueue}. */
export interface EnqueueOptions {
  /** The most entries the queue holds after the call; at least 1. */
  maxSize: number;
  /** `drop-oldest` evicts the head to make room; `drop-newest` refuses the new entry. */
  onFull: QueueFullPolicy;
}

/** The outcome of {@link QueueState.enqueue}. */
export interface EnqueueResult {
  /** Entries in the queue after the call. */
  depth: number;
  /**
   * Entries that left the queue without being dequeued, oldest first: the evicted heads under
   * `drop-oldest`, or the refused new entry under `drop-newest`. Empty when all fit. The caller
   * owns their disposition, so nothing is lost silently.
   */
  evicted: QueueEntry[];
}

/** FIFO queues, one per key, with an index of non-empty queues. */
export interface QueueState {
  /**
   * Appends `entry`; the full check, eviction and append are one atomic step, so under concurrent
   * enqueues the queue never exceeds `maxSize` and every entry is either queued or in exactly one
   * call's `evicted`.
   */
  enqueue(key: string, entry: QueueEntry, options: EnqueueOptions): Promise<EnqueueResult>;
  /** Removes and returns the oldest entry, or `null` for an empty queue. Each entry once. */
  dequeue(key: string): Promise<QueueEntry | null>;
  /** The number of entries in the queue (0 for an unknown key). */
  queueDepth(key: string): Promise<number>;
  /**
   * Keys of queues that hold at least one entry, found without scanning the keyspace, so a
   * sweeper can find a queue whose holder died. At most `limit` keys (default 100), in no
   * particular order.
   */
  pendingQueueKeys(limit?: number): Promise<string[]>;
}

/** Options of {@link ListState.appendToList}. */
export interface AppendToListOptions {
  /** Keep at most this many newest items. */
  maxLength?: number;
  /** Expire the whole list this long after the latest append; each append refreshes it. */
  ttlMs?: number;
}

/** Append-only bounded lists (history, transcripts). */
export interface ListState {
  /** Appends, trims to `maxLength` and refreshes the TTL in one atomic step. */
  appendToList(key: string, value: JsonValue, options?: AppendToListOptions): Promise<void>;
  /** The items oldest first, or `[]` for an absent or expired list. A copy. */
  getList<T extends JsonValue = JsonValue>(key: string): Promise<T[]>;
}

/**
 * A claim on a piece of work that must run once (DESIGN §7.3). `generation` identifies this claim:
 * like a fence, it strictly increases per claim key (never reused for that key, also after the
 * record was purged), and a transition with a stale generation fails.
 */
export interface Claim {
  readonly key: string;
  readonly generation: number;
  /** Epoch milliseconds when the claim lapses and another caller may take the work over. */
  readonly expiresAt: number;
}

/** Exactly-once lazy work through fenced claims. Each method is one atomic transition. */
export interface ClaimState {
  /**
   * Claims the work when the record is absent (armed), re-armed, or its claim expired; otherwise
   * (claimed and live, or completed) returns `null`. Of N concurrent claimers at most one wins.
   */
  claim(key: string, ttlMs: number): Promise<Claim | null>;
  /**
   * Marks the work done when `claim.generation` is the current one; a completed record is never
   * claimed again. Returns false, changing nothing, on a stale generation.
   */
  completeClaim(claim: Claim): Promise<boolean>;
  /**
   * Returns the record to the armed state after a failed run, so a later `claim` retries. Returns
   * false, changing nothing, on a stale generation or a completed record.
   */
  rearmClaim(claim: Claim): Promise<boolean>;
}

/** What {@link FastPathState.acceptAndAcquire} is asked to do for one incoming message. */
export interface AcceptAndAcquireRequest {
  /** The message's dedupe mark, written (value `1`) when absent. */
  readonly dedupeKey: string;
  readonly dedupeTtlMs: number;
  /** The lock the message's handler run needs. */
  readonly lockKey: string;
  readonly lockTtlMs: number;
  /** The thread whose subscription is read along with the lock. */
  readonly threadId: string;
  /**
   * The turn record to write with the lock (backends with {@link TurnState}), as
   * `acquireLock`'s `options.turn`: an interrupted turn's record on the key makes it `busy`.
   */
  readonly turn?: TurnWrite;
}

/**
 * The outcome of {@link FastPathState.acceptAndAcquire}:
 * - `duplicate` — the dedupe mark already existed; nothing was written or taken.
 * - `acquired` — the mark is written and `lock` taken, exactly as a `setIfNotExists` returning
 *   true followed by an `acquireLock` returning `lock`; `subscribed` is the thread's subscription
 *   as read while the lock was already held.
 * - `busy` — the mark is written, but another holder has the lock (or, with `turn`, an
 *   interrupted turn waits for recovery on the key); nothing else was changed.
 */
export type AcceptAndAcquireResult =
  | { readonly kind: "duplicate" }
  | { readonly kind: "acquired"; readonly lock: Lock; readonly subscribed: boolean }
  | { readonly kind: "busy" };

/**
 * The outcome of {@link FastPathState.releaseAndNext}: whether the release took effect (as
 * `releaseLock`'s answer) and the oldest entry of the queue of the same key right after it,
 * left in the queue (`null` when empty).
 */
export interface ReleaseAndNextResult {
  readonly released: boolean;
  readonly next: QueueEntry | null;
}

/**
 * Fused fast paths (DESIGN §4.1), OPTIONAL: each does in one atomic step — one round trip on a
 * networked backend — what the runtime otherwise does with separate calls. The runtime uses a
 * method when the backend has it and falls back to the separate calls otherwise, so a backend
 * without them still passes every test. A backend that has one must keep exactly the guarantees
 * of the calls it replaces; `@baton/conformance` checks that when the method is present.
 */
export interface FastPathState {
  /**
   * Dedupe mark + lock acquire + subscription read, one atomic step: no other call can see the
   * mark without the lock outcome, and of N concurrent callers with distinct marks at most one
   * gets `acquired`. Rejects with a `ValidationError` (nothing written) for an empty key or a
   * non-positive TTL, like the calls it fuses.
   */
  acceptAndAcquire?(request: AcceptAndAcquireRequest): Promise<AcceptAndAcquireResult>;
  /**
   * `releaseLock(lock)` + a look at the head of the queue `lock.key`, one atomic step: an entry
   * enqueued before the release is always seen, so the releaser can take the lock again for it
   * (no lost wake-up) without another round trip. The entry is NOT removed. `options.turn` acts
   * on the turn record as `releaseLock`'s does, in the same step.
   */
  releaseAndNext?(lock: Lock, options?: ReleaseLockOptions): Promise<ReleaseAndNextResult>;
}

/**
 * Everything Baton needs from shared storage. One object implements every capability; backends
 * pass `@baton/conformance`. Expiry is judged by the backend's own clock. Each capability has its
 * own key namespace: a lock, a value, a list, a queue and a claim may share a key string without
 * touching each other. Arguments are validated: a non-positive TTL or an empty key rejects with a
 * `ValidationError` before anything is written.
 */
export interface StateAdapter
  extends StateLifecycle,
    SubscriptionState,
    KeyValueState,
    LockState,
    QueueState,
    ListState,
    ClaimState,
    FastPathState,
    TurnState {
  /** A short name for logs and errors ("memory", "redis", "postgres"). */
  readonly name: string;
}
