import type { Lock } from "../contracts/state.js";
import type { LockLostError } from "../errors/index.js";
import { LeaseKeeper } from "./lease-keeper.js";
import type { LocalHolders } from "./local-holders.js";
import type { BatchRun, FusedAcquire, StrategyContext } from "./strategy.js";

/**
 * A held lock and the lease keeper that renews it. Every lock-holding path goes through one, so
 * renewal, loss detection and the release order (after the last extend) are the same everywhere.
 */
export class LockSession {
  private released = false;
  private adoptedByHold = false;
  /** The runs' shared signal, made on first read: a run nobody asks about never pays for it. */
  private runController: AbortController | undefined;

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
   */
  static async acquire(
    context: StrategyContext,
    holders: LocalHolders,
    lockKey: string,
    fused?: FusedAcquire,
  ): Promise<LockSession | null> {
    const taken = LockSession.takeFused(context, holders, lockKey, fused);
    if (taken !== undefined) return taken;
    const sentAtMs = context.clock.now();
    const acquired = await context.state.acquireLock(lockKey, context.settings.lockTtlMs);
    return acquired ? LockSession.start(context, holders, acquired, sentAtMs) : null;
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
    this.holders.delete(this.lock.key, this.lock.fence);
    return this.keeper.held ? this.lock : null;
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
      // Token-checked, so safe even when the keeper believes the lease lost: a timed-out extend
      // may still have succeeded on the backend.
      const { state } = this.context;
      if (state.releaseAndNext) {
        // The fused release looks at the queue atomically with the release: a look under lock.
        this.holders.noteLook(this.lock.key);
        const { next } = await state.releaseAndNext(this.lock);
        this.queuedAfterRelease = next !== null;
      } else {
        await state.releaseLock(this.lock);
      }
    } catch (error) {
      this.context.logger.warn("release thread lock failed; the lease will expire instead", {
        lockKey: this.lock.key,
        error,
      });
    } finally {
      this.holders.delete(this.lock.key, this.lock.fence);
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

  adopt(): Promise<Lock | null> {
    return this.session.adopt();
  }
}
