import type { Clock } from "../clock/clock.js";
import type { Adapter, DeliveryResult } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { Lock, QueueFullPolicy, StateAdapter } from "../contracts/state.js";
import type { TurnInterruption } from "../model/context.js";
import type { Message } from "../model/message.js";
import type { StateRetryPolicy } from "./state-retry.js";

/** How overlapping messages on one lock key are handled (DESIGN §6). */
export type StrategyName = "drop" | "queue" | "debounce" | "burst" | "concurrent";

/** Every {@link StrategyName}. */
export const STRATEGY_NAMES: readonly StrategyName[] = [
  "drop",
  "queue",
  "debounce",
  "burst",
  "concurrent",
];

/** Concurrency settings with every default applied. All durations in milliseconds. */
export interface ConcurrencySettings {
  readonly strategy: StrategyName;
  readonly lockTtlMs: number;
  readonly debounceMs: number;
  /** Debounce: the longest a quiet period may be pushed back by new messages. */
  readonly maxWaitMs: number;
  readonly maxQueueSize: number;
  readonly onQueueFull: QueueFullPolicy;
  readonly queueEntryTtlMs: number;
  /** Concurrent: handlers per thread at once; `Infinity` for no cap. */
  readonly maxConcurrent: number;
  readonly maxLockLifetimeMs: number;
  readonly extendTimeoutMs: number;
  readonly sweepIntervalMs: number;
}

/** An accepted message on its way through a strategy. */
export interface Delivery {
  /** `{adapter}:{messageId}`: the dedupe key, unique per accepted message. */
  readonly key: string;
  readonly adapter: Adapter;
  readonly threadId: string;
  readonly lockKey: string;
  readonly message: Message;
  /** The installation's tenant (`ProcessOptions.tenantId`); its handler run is a turn of it. */
  readonly tenant?: string | undefined;
  /**
   * The lock outcome the dispatcher already got from the State's fused `acceptAndAcquire`; the
   * strategy's first acquire uses it instead of asking again. Absent without the fast path.
   */
  readonly fused?: FusedAcquire | undefined;
}

/**
 * A lock outcome from `acceptAndAcquire`, used once: the first `LockSession.acquire` for the
 * delivery marks it `taken`. A lock nobody took is released by the dispatcher when the strategy
 * is done, so a path that bypasses the lock (a hold owner's message) never strands it.
 */
export type FusedAcquire =
  | {
      readonly kind: "acquired";
      readonly lock: Lock;
      readonly subscribed: boolean;
      /** When the fused call was sent, by the runtime's clock: ownership is judged from then. */
      readonly sentAtMs: number;
      taken: boolean;
    }
  | { readonly kind: "busy"; taken: boolean };

/** The messages one handler run answers: the latest of a thread and the earlier ones it folds. */
export interface Batch {
  /** The lock key the run holds (or would, under `concurrent`). */
  readonly lockKey: string;
  readonly adapter: Adapter;
  readonly threadId: string;
  readonly message: Message;
  readonly skipped: readonly Message[];
  /** The tenant of the latest message's delivery, when it had one. */
  readonly tenant?: string | undefined;
  /** The thread's subscription as read under this run's lock, when already known. */
  readonly subscribed?: boolean | undefined;
}

/** What a strategy passes along with one handler run. */
export interface BatchRun {
  /**
   * Aborts on lease loss or shutdown. May be a getter that makes the signal on first read (most
   * runs never need one): read it only when it is really needed.
   */
  readonly signal: AbortSignal;
  /** The fence of the lock the run holds; absent under `concurrent`. */
  readonly fence?: number;
  /** The lock key the run holds; absent under `concurrent`. */
  readonly lockKey?: string;
  /**
   * Hands the run's lock over to a hold (`thread.hold` inside the handler): renewal stops, the
   * lock is no longer released at the end of the run, and the drain stops, leaving the queue to
   * whoever holds the lock next. Resolves with the lock, or `null` when it is no longer held.
   * Absent under `concurrent`.
   */
  readonly adopt?: () => Promise<Lock | null>;
  /**
   * Which attempt of its turn the run is, when it picks up an interrupted turn (durable turns);
   * absent on a first run.
   */
  readonly turn?: TurnAttempt | undefined;
}

/** A run of a recovered turn: `context.attempt` and `context.interrupted` (DESIGN §6.1). */
export interface TurnAttempt {
  /** 1-based; above 1 for a recovered turn. */
  readonly attempt: number;
  readonly interrupted: TurnInterruption;
}

/** Durable turns in force (DESIGN §6.1), with their defaults applied. */
export interface DurableTurnSettings {
  /** Runs of one turn at most; a turn interrupted that many times is abandoned. */
  readonly maxAttempts: number;
}

/**
 * What one handler run came to. `not-run`: the State failed before any handler started (e.g.
 * the subscription check), so the batch's messages may be delivered again by the platform.
 */
export type BatchOutcome = "handled" | "error" | "ignored" | "not-run";

/** A terminal disposition, or `queued`: handed to a holder in another process. */
export type DeliveryDisposition = DeliveryResult["outcome"];

/** What a strategy needs from the runtime; injected so each strategy is tested alone. */
export interface StrategyContext {
  readonly state: StateAdapter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: ConcurrencySettings;
  /** Aborts when the runtime shuts down. */
  readonly shutdownSignal: AbortSignal;
  /**
   * How a drained batch whose routing failed on the State is retried while its lock is held
   * (ADR 0015). Absent: not retried; its messages end `error` at once.
   */
  readonly stateRetry?: StateRetryPolicy | undefined;
  /**
   * Durable turns, when in force: every lock-holding run keeps a turn record in the State, and
   * interrupted turns are recovered by the sweeper. Absent: configured off, or the State has no
   * turn records.
   */
  readonly durableTurns?: DurableTurnSettings | undefined;
  /**
   * Runs the `onTurnAbandoned` hooks for one thread's batch of a turn past its `maxAttempts`.
   * Never rejects: a hook's failure is logged.
   */
  abandonTurn?(batch: Batch, run: BatchRun): Promise<void>;
  /** Routes and runs the handlers for one batch. Never rejects: failures come back as `error`. */
  runBatch(batch: Batch, run: BatchRun): Promise<BatchOutcome>;
  /**
   * Removes a delivery's dedupe mark, so a platform retry is processed (DESIGN §5 invariant 3).
   * Best effort; never rejects.
   */
  unaccept(deliveryKey: string): Promise<void>;
  /** Records a delivery's disposition; the first call for a key wins, later ones are ignored. */
  settle(deliveryKey: string, disposition: DeliveryDisposition, reason?: string): void;
  /**
   * Settles as `queued` every local delivery of `lockKey` still waiting: its entry sits in the
   * State queue and a holder in another process will drain it.
   */
  handOff(lockKey: string): void;
  /**
   * Settles the local deliveries of `lockKey` that still wait for a holder of this process (their
   * strategy part ended with the message left to that holder's drain) — only those that began
   * waiting before `waitingBefore` (a `LocalHolders.stamp`) when it is given. A terminal
   * disposition here was decided, and counted, by the process that removed the entry, so it is
   * not counted again; `queued` is counted as a hand-off.
   */
  settleWaiting(
    lockKey: string,
    disposition: DeliveryDisposition,
    reason: string,
    waitingBefore?: number,
  ): void;
  /**
   * Told when `drop` drops a message for a held lock (the user's `onLockConflict` callback, for
   * metrics or a reply). Never rejects; dropping happens whatever it does.
   */
  onLockConflict?(delivery: Delivery): Promise<void>;
  /** Told when a delivery waits in the State queue (for the observer's event stream). */
  onQueued?(delivery: Delivery): void;
  /** Reports a duration to the observer (`baton.queue.wait`); never throws. */
  recordDurationMs?(name: string, durationMs: number): void;
  /** The adapter registered under `name`, to rehydrate queued messages; undefined if unknown. */
  adapterNamed(name: string): Adapter | undefined;
}

/**
 * One concurrency strategy. `submit` takes an accepted delivery and resolves once this caller's
 * part is done; the delivery's disposition is reported through `StrategyContext.settle`, and
 * `submit` rejects only when the State failed before any handler ran for the delivery, so the
 * caller can remove its dedupe mark.
 */
export interface Strategy {
  readonly name: StrategyName;
  submit(delivery: Delivery): Promise<void>;
  /** Drains a queue found by the sweeper whose holder is gone. Resolves when done. */
  drainOrphan?(lockKey: string): Promise<void>;
}
