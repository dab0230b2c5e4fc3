import type { Lock } from "../contracts/state.js";
import type { TurnHandBackReason, TurnRelease, TurnWrite } from "../contracts/turn-state.js";
import type { LockLostError } from "../errors/index.js";
import { LeaseKeeper } from "./lease-keeper.js";
import type { LocalHolders } from "./local-holders.js";
import { turnWriteOf } from "./queued-message.js";
import { StateRetry } from "./state-retry.js";
import type { BatchRun, Delivery, FusedAcquire, StrategyContext, TurnAttempt } from "./strategy.js";

/** What a release does to the turn record when nothing said otherwise: the turn ended. */
const END_TURN: TurnRelease = { kind: "end" };

/**
 * A held lock and the lease keeper that renews it. Every lock-holding path goes through one, so
 * renewal, loss detection and the release order (after the last extend) are the same everywhere.
 */
export class LockSession {
  private released = false;
  private adoptedByHold = false;
  /** The runs' shared signal, made on first read: a run nobody asks about never pays for it. */
  private runController: AbortController | undefined;
  /** What the release does to the key's turn record (durable turns only). */
  private turnRelease: TurnRelease = END_TURN;
  /** The attempt of the recovered turn being run, read by the runs; undefined on first runs. */
  turnAttempt: TurnAttempt | undefined;

  private constructor(
    private readonly context: StrategyContext,
    private readonly holders: LocalHolders,
    readonly lock: Lock,
    private readonly keeper: LeaseKeeper,
  ) {}

  /**
   * True when the queue of this lock key held an entry right after the release, as seen by the
   * State's fused `releaseAndNext`; `undefined` when unknown (no fast path, not yet released,
   * or the release failed) — then the caller must ask the queue itself.
   */
  queuedAfterRelease: boolean | undefined;

  /**
   * Takes the lock on `lockKey` and starts renewing it; `null` when another holder has it.
   * Rejects when the State fails. With `fused` (the dispatcher's `acceptAndAcquire` outcome for
   * this key, not yet taken) no State call is made: its lock, or its `busy`, is used once.
   *
   * With durable turns the acquire writes the run's turn record — `turn`, or an empty one that
   * a drain fills — and fails while an interrupted turn waits on the key for the sweeper.
   */
  static async acquire(
    context: StrategyContext,
    holders: LocalHolders,
    lockKey: string,
    fused?: FusedAcquire,
    turn?: TurnWrite,
  ): Promise<LockSession | null> {
    const taken = LockSession.takeFused(context, holders, lockKey, fused);
    if (taken !== undefined) return taken;
    const sentAtMs = context.clock.now();
    const { lockTtlMs } = context.settings;
    const acquired = context.durableTurns
      ? await context.state.acquireLock(lockKey, lockTtlMs, {
          turn: turn ?? { entries: [], startedAt: sentAtMs },
        })
      : await context.state.acquireLock(lockKey, lockTtlMs);
    return acquired ? LockSession.start(context, holders, acquired, sentAtMs) : null;
  }

  /**
   * The session a delivery's own run holds: its fused lock outcome when the accept took one,
   * else an acquire writing the delivery's turn record (durable turns). `null` when another
   * holder has the lock.
   */
  static forDelivery(
    context: StrategyContext,
    holders: LocalHolders,
    delivery: Delivery,
  ): LockSession | null | Promise<LockSession | null> {
    const taken = LockSession.takeFused(context, holders, delivery.lockKey, delivery.fused);
    if (taken !== undefined) return taken;
    const turn = turnWriteOf(context, delivery);
    return LockSession.acquire(context, holders, delivery.lockKey, undefined, turn);
  }

  /**
   * A session for a lock the State's `recoverTurn` took together with an interrupted turn:
   * renewed and released like any other, judged from when the recovery was sent.
   */
  static recovered(
    context: StrategyContext,
    holders: LocalHolders,
    lock: Lock,
    sentAtMs: number,
  ): LockSession {
    return LockSession.start(context, holders, lock, sentAtMs);
  }

  /**
   * {@link acquire} for a delivery whose lock outcome the fused accept already has, without a
   * promise: the session, or `null` for `busy`, once; `undefined` when there is no fused outcome
   * left to take (then call `acquire`).
   */
  static takeFused(
    context: StrategyContext,
    holders: LocalHolders,
    lockKey: string,
    fused: FusedAcquire | undefined,
  ): LockSession | null | undefined {
    if (!fused || fused.taken) return undefined;
    fused.taken = true;
    if (fused.kind === "busy") return null;
    if (fused.lock.key !== lockKey) throw new Error("unreachable: fused lock of another key");
    return LockSession.start(context, holders, fused.lock, fused.sentAtMs);
  }

  private static start(
    context: StrategyContext,
    holders: LocalHolders,
    acquired: Lock,
    sentAtMs: number,
  ): LockSession {
    const { settings } = context;
    // Ownership is judged from when the acquire was sent, by our clock: never later than the
    // backend's expiry, so clock skew can only make us give up early, never hold too long.
    const lock = {
      ...acquired,
      expiresAt: Math.min(acquired.expiresAt, sentAtMs + settings.lockTtlMs),
    };
    let session: LockSession | undefined;
    const keeper = new LeaseKeeper({
      state: context.state,
      lock,
      lockTtlMs: settings.lockTtlMs,
      clock: context.clock,
      extendTimeoutMs: settings.extendTimeoutMs,
      maxLockLifetimeMs: settings.maxLockLifetimeMs,
      logger: context.logger,
      onLost: (error) => session?.onLost(error),
    });
    session = new LockSession(context, holders, lock, keeper);
    holders.add(lock.key, lock.fence);
    holders.register(session);
    keeper.start();
    return session;
  }

  /** True while the lease is held and the runtime is not shutting down. */
  get usable(): boolean {
    return this.keeper.held && !this.context.shutdownSignal.aborted && !this.released;
  }

  /** True once a hold took the lock over ({@link adopt}). */
  get adopted(): boolean {
    return this.adoptedByHold;
  }

  /** True while the lease is held. */
  get held(): boolean {
    return this.keeper.held;
  }

  /**
   * The signal for the handler runs of this session: aborts on lease loss (with the keeper's
   * `LockLostError`) or shutdown (with its reason), whichever comes first. One per session,
   * made on first read; listening on the shutdown signal ends with the session.
   */
  get runSignal(): AbortSignal {
    if (this.runController) return this.runController.signal;
    const controller = new AbortController();
    this.runController = controller;
    const shutdown = this.context.shutdownSignal;
    if (this.keeper.lostWith) controller.abort(this.keeper.lostWith);
    else if (shutdown.aborted) controller.abort(shutdown.reason);
    else {
      const onShutdown = () => controller.abort(shutdown.reason);
      shutdown.addEventListener("abort", onShutdown, { once: true });
      this.stopListening = () => shutdown.removeEventListener("abort", onShutdown);
    }
    return controller.signal;
  }

  private stopListening: (() => void) | undefined;
  private run: BatchRun | undefined;

  /**
   * What each handler run under this session is given: its signal ({@link runSignal}, made only
   * when read), the lock's fence and key, and the hand-over to a hold. One per session.
   */
  get batchRun(): BatchRun {
    this.run ??= new SessionRun(this);
    return this.run;
  }

  /** Passed to the keeper: a loss aborts the run signal, if anyone asked for it. */
  private onLost(error: LockLostError): void {
    this.runController?.abort(error);
    this.stopListening?.();
  }

  /**
   * Call right before taking entries from the queue of this lock key: orders the look against
   * the local deliveries waiting on it ({@link LocalHolders.noteLook}).
   */
  noteQueueLook(): void {
    this.holders.noteLook(this.lock.key);
  }

  /**
   * Makes the release hand the turn back instead of ending it (durable turns): the record stays,
   * marked with `reason`, and any sweeper runs the turn again. Without durable turns it changes
   * nothing. Returns true when the turn will be handed back.
   */
  handBack(reason: TurnHandBackReason): boolean {
    if (!this.context.durableTurns) return false;
    this.turnRelease = { kind: "hand-back", reason };
    return true;
  }

  /** Why a run under this session was stopped from outside: shutdown, or else lease loss. */
  interruptReason(): TurnHandBackReason {
    return this.context.shutdownSignal.aborted ? "shutdown" : "lease-lost";
  }

  /**
   * Shutdown's deadline passed with the run still going: releases the lock now, handing the turn
   * back (durable turns only; otherwise the lease simply runs out as before).
   */
  async handBackNow(reason: TurnHandBackReason): Promise<void> {
    if (!this.handBack(reason)) return;
    this.context.logger.warn("turn handed back while its handler still runs", {
      lockKey: this.lock.key,
      reason,
    });
    await this.release();
  }

  /** True when the release will hand the turn back ({@link handBack}). */
  get handingBack(): boolean {
    return this.turnRelease.kind === "hand-back";
  }

  /** Starts the lifetime clock of the next handler run (`maxLockLifetimeMs` is per run). */
  beginRun(): void {
    this.keeper.beginRun();
  }

  /**
   * Hands the lock over to a hold taken inside the run: renewal stops (after the in-flight
   * extend), the session counts as released — so `release()` does nothing and a drain stops
   * before its next run — and the lock key is no longer a local holding, so contenders hand
   * their messages off to whoever holds the lock next. Resolves with the lock while the lease is
   * still ours, `null` otherwise (or when already released or adopted).
   */
  async adopt(): Promise<Lock | null> {
    if (this.released) return null;
    this.released = true;
    this.adoptedByHold = true;
    // The run goes on under the hold: its signal must still follow shutdown.
    await this.keeper.stop();
    // The hold's release will not end the turn: leave a record with nothing to run, so a
    // sweeper that finds it after the hold only drains the queue.
    if (this.context.durableTurns && this.keeper.held) await this.emptyTurnRecord();
    this.holders.delete(this.lock.key, this.lock.fence);
    return this.keeper.held ? this.lock : null;
  }

  private async sendRelease(): Promise<void> {
    const looked = await sendRelease(this.context, this.holders, this.lock, this.turnRelease);
    if (looked !== undefined) this.queuedAfterRelease = looked;
  }

  /** Best effort: a record left with entries would only run the turn again after the hold. */
  private async emptyTurnRecord(): Promise<void> {
    try {
      await this.context.state.writeTurn?.(this.lock, {
        entries: [],
        startedAt: this.context.clock.now(),
      });
    } catch (error) {
      this.context.logger.warn("emptying the turn record of a held lock failed", {
        lockKey: this.lock.key,
        error,
      });
    }
  }

  /**
   * Stops renewal, waits for an in-flight extend, then releases the lock — strictly in that
   * order, so a late extend can never re-arm a lock after its release. Never rejects: a failed
   * release is logged and the lease simply runs out.
   */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stopListening?.();
    const stopped = this.keeper.stop();
    // Nothing in flight (the usual case): the release goes out at once, without a turn.
    if (this.keeper.extending) await stopped;
    try {
      await this.sendRelease();
    } catch (error) {
      this.context.logger.warn("release thread lock failed; the lease will expire instead", {
        lockKey: this.lock.key,
        error,
      });
    } finally {
      this.holders.delete(this.lock.key, this.lock.fence);
      this.holders.unregister(this);
    }
  }
}

/**
 * Sends a session's release. With durable turns a release that ends a turn is retried with the
 * runtime's State backoff when it fails (a Redis restart, a failover): given up, it would leave
 * the finished turn's record for a sweeper to run the turn again. Token-checked, so safe even when
 * the keeper believes the lease lost: a timed-out extend may still have succeeded.
 */
async function sendRelease(
  context: StrategyContext,
  holders: LocalHolders,
  lock: Lock,
  turn: TurnRelease,
): Promise<boolean | undefined> {
  const { state } = context;
  const options = context.durableTurns ? { turn } : undefined;
  const retry =
    context.durableTurns && turn.kind === "end" && context.stateRetry
      ? new StateRetry(context.stateRetry, context.clock)
      : undefined;
  for (;;) {
    try {
      if (!state.releaseAndNext) {
        await state.releaseLock(lock, options);
        return undefined;
      }
      // The fused release looks at the queue atomically with the release: a look under lock.
      holders.noteLook(lock.key);
      const { next } = await state.releaseAndNext(lock, options);
      return next !== null;
    } catch (error) {
      if (!retry || !(await retry.wait(undefined))) throw error;
      context.logger.warn("ending a turn's lock failed; retrying, or the turn would run again", {
        lockKey: lock.key,
        attempt: retry.attempt,
        error,
      });
    }
  }
}

/** A session's {@link BatchRun}: the signal is the session's, read (and so made) on demand. */
class SessionRun implements BatchRun {
  readonly fence: number;
  readonly lockKey: string;

  constructor(private readonly session: LockSession) {
    this.fence = session.lock.fence;
    this.lockKey = session.lock.key;
  }

  get signal(): AbortSignal {
    return this.session.runSignal;
  }

  get turn(): TurnAttempt | undefined {
    return this.session.turnAttempt;
  }

  adopt(): Promise<Lock | null> {
    return this.session.adopt();
  }
}
