import type { Lock, QueueEntry } from "./state.js";

/**
 * Why a turn is run again (DESIGN §6.1):
 * - `lease-expired` — its lock lapsed with the record still there and nobody handed it back: the
 *   holder died (SIGKILL, OOM, a lost machine) or stopped renewing without a word.
 * - `shutdown` — the holder was shut down while the handler ran and handed the turn back.
 * - `lease-lost` — the holder lost its lease mid-run (State unreachable past the lease, or a
 *   renewal refused), stopped its handler, and handed the turn back.
 */
export type TurnInterruptReason = "lease-expired" | "shutdown" | "lease-lost";

/** A reason a holder gives when it hands a turn back instead of ending it. */
export type TurnHandBackReason = Exclude<TurnInterruptReason, "lease-expired">;

/**
 * What the runtime writes into a turn record when a run starts: the turn's messages, serialized as
 * queue entries are (latest last), and when the run started.
 */
export interface TurnWrite {
  /** The turn's messages as queue entries, oldest first; the last is the one the handler answers. */
  readonly entries: readonly QueueEntry[];
  /** Epoch milliseconds, by the runtime's clock, when this attempt started. */
  readonly startedAt: number;
}

/**
 * A turn record (DESIGN §6.1): one handler run on one lock key, kept in the State next to its lock
 * (`turn:{lockKey}`, in the lock's Redis Cluster slot) from the atomic step that gave the run its
 * lock until the step that released it after the turn ended. A record whose lock is free or
 * expired is an interrupted turn.
 */
export interface TurnRecord {
  /** The lock key the turn runs on. */
  readonly key: string;
  /** The turn's messages, oldest first, exactly as written. */
  readonly entries: QueueEntry[];
  /** The fence of the lock the turn's current attempt ran under. */
  readonly fence: number;
  /** 1-based: how many times the turn has been started, the current attempt included. */
  readonly attempt: number;
  /** Epoch milliseconds, by the runtime's clock, when the current attempt started. */
  readonly startedAt: number;
  /** Set when the holder handed the turn back instead of ending it; absent otherwise. */
  readonly handedBack?: TurnHandBackReason;
}

/**
 * How a turn-holding release treats the lock's turn record:
 * - `end` — the turn ended: the record is deleted, if its fence is the lock's fence (a record a
 *   later holder already took over is not touched). This happens even when the lease already
 *   lapsed — the turn did end — but then the lock itself is not touched.
 * - `hand-back` — the turn did not end (shutdown, lease lost): the record is kept, marked with
 *   `reason`, if its fence is the lock's fence, so any sweeper may recover it at once.
 */
export type TurnRelease =
  | { readonly kind: "end" }
  | { readonly kind: "hand-back"; readonly reason: TurnHandBackReason };

/** Options of `acquireLock` with durable turns. */
export interface AcquireLockOptions {
  /**
   * Writes the turn record of the run the lock is taken for, in the same atomic step, with
   * `attempt` 1 and the new lock's fence. While an interrupted turn's record sits on the key
   * (lock free or expired), the acquire fails (`null`), writing nothing: only
   * {@link TurnState.recoverTurn} may take that lock, so the interrupted turn runs first.
   */
  readonly turn?: TurnWrite;
}

/** Options of `releaseLock` and `releaseAndNext` with durable turns. */
export interface ReleaseLockOptions {
  /** What happens to the turn record of the lock's key; untouched when absent. */
  readonly turn?: TurnRelease;
}

/** An interrupted turn taken over by {@link TurnState.recoverTurn}. */
export interface RecoveredTurn {
  /** The lock the recovered turn now runs under (a new fence, a new token). */
  readonly lock: Lock;
  /**
   * The record as it was before the take-over: its `attempt` and `startedAt` describe the
   * interrupted attempt, and its `handedBack` why it ended (absent: the lease expired).
   */
  readonly interrupted: TurnRecord;
}

/** Options of {@link TurnState.takeQueuedTurn}. */
export interface TakeQueuedTurnOptions {
  /** The most entries taken; at least 1. */
  readonly maxEntries: number;
  /** Epoch milliseconds, by the runtime's clock, when the turn starts. */
  readonly startedAt: number;
}

/**
 * Durable turn records (DESIGN §6.1), OPTIONAL as a whole: a backend that offers
 * `recoverTurn` offers every method here and honours the `turn` options of `acquireLock`,
 * `releaseLock`, `acceptAndAcquire` and `releaseAndNext`; the runtime writes records only then.
 * Every method is one atomic step, judged by the backend's clock like the lock it sits next to.
 * A record has no expiry of its own: it lives until a release ends it or a recovery takes it.
 */
export interface TurnState {
  /**
   * Keys of turn records whose lock is free or expired — interrupted turns — found without
   * scanning the keyspace. At most `limit` (default 100), in no particular order.
   */
  pendingTurnKeys?(limit?: number): Promise<string[]>;
  /**
   * Takes over the interrupted turn on `key` when its lock is free or expired and a record is
   * there: the lock is taken for `ttlMs` (a new fence), and the record gets that fence,
   * `attempt` + 1, `startedAt` and no `handedBack` — all one atomic step. Returns `null`,
   * changing nothing, when there is no record or the lock is live. Of N concurrent callers at
   * most one gets the turn.
   */
  recoverTurn?(
    key: string,
    ttlMs: number,
    options: { readonly startedAt: number },
  ): Promise<RecoveredTurn | null>;
  /**
   * When `lock.token` holds its key: removes up to `maxEntries` of the oldest entries of the
   * queue `lock.key` and, if there were any, writes them as the key's turn record (`attempt` 1,
   * the lock's fence, `startedAt`), replacing the previous record — one atomic step, so a
   * dequeued message is never outside both the queue and a record. Returns the entries, oldest
   * first; `[]` (nothing changed) when the queue is empty or the lock is not held by the token.
   */
  takeQueuedTurn?(lock: Lock, options: TakeQueuedTurnOptions): Promise<QueueEntry[]>;
  /**
   * When `lock.token` holds its key: sets the turn record's `entries` and `startedAt`. A record
   * of the lock's fence keeps its `attempt` (a recovered turn narrowed after part of it ran);
   * otherwise the record is written new with `attempt` 1. Returns false, changing nothing, when
   * the lock is not held by the token.
   */
  writeTurn?(lock: Lock, turn: TurnWrite): Promise<boolean>;
  /** The turn record of `key`, or `null`. For inspection (operators, tests, timelines). */
  inspectTurn?(key: string): Promise<TurnRecord | null>;
}
