import type { ClockTimer } from "../clock/index.js";
import { LockLostError, StateError } from "../errors/index.js";
import {
  type LeaseKeeperOptions,
  type ResolvedLeaseKeeperOptions,
  resolveLeaseKeeperOptions,
} from "./lease-keeper-options.js";

/** Why renewal ended in loss; each has its own wording in the `LockLostError` message. */
type LossReason = "refused" | "ran-out" | "lifetime";

/** The last failed extend since the last success, kept as the cause of a later loss. */
interface ExtendFailure {
  readonly error: unknown;
  readonly timedOut: boolean;
}

/**
 * Keeps a lock's lease alive while work runs under it (DESIGN §6, the heartbeat). Guarantees:
 *
 * - After `start()` it sends `extendLock(lock, lockTtlMs)` every `lockTtlMs / 3`, measured from
 *   when the previous extend was sent (the acquire counts as the first, so a late `start()`
 *   extends at once).
 * - At most one extend is in flight. A due renewal waits for the pending one to settle, also when
 *   that one already timed out, and is then sent at once.
 * - `heldUntil` starts at `lock.expiresAt` and after each successful extend is the time that
 *   extend was *sent* plus `lockTtlMs`: the backend applied it no earlier, so the lease lasts at
 *   least that long whatever the answer's latency.
 * - An extend answering `false` loses ownership at once. One that throws or exceeds
 *   `extendTimeoutMs` keeps ownership until `heldUntil`; if no extend succeeds by then, ownership
 *   is lost.
 * - After `maxLockLifetimeMs` since `start()` or the last `beginRun()` no extend is sent; the
 *   lease lapses at `heldUntil` and that is reported as a loss.
 * - On loss, exactly once: `signal` aborts with a `LockLostError`, `held` turns false, renewal
 *   stops, a warn is logged and `onLost` is called.
 * - `stop()` sends nothing more and resolves after any in-flight extend settled, so a release
 *   awaited after it comes strictly after the last extend. It reports no loss.
 * - Nothing it starts rejects unhandled; a throwing logger or `onLost` is contained.
 *
 * A keeper serves one lock acquisition and is not restarted after `stop()`.
 */
export class LeaseKeeper {
  private readonly options: ResolvedLeaseKeeperOptions;
  /** Made on first read of `signal`: most runs end without anyone asking for it. */
  private controller: AbortController | undefined;
  private lossError: LockLostError | undefined;
  private heldUntilMs: number;
  private started = false;
  private stopped = false;
  private lost = false;
  /** True once the current run outlived `maxLockLifetimeMs`; `beginRun()` clears it. */
  private lifetimeExceeded = false;
  private lastSentAtMs = 0;
  /** When the current run's lifetime clock started (`start()` or the last `beginRun()`). */
  private lifetimeStartedAtMs = 0;
  /** True once the renewal, lease-end and lifetime timers run; until then one checkpoint does. */
  private armed = false;
  private checkpointTimer: ClockTimer | undefined;
  private lastFailure: ExtendFailure | undefined;
  /** The pending extend, already guarded against rejection; stop() awaits it. */
  private inFlight: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private renewTimer: ClockTimer | undefined;
  private leaseEndTimer: ClockTimer | undefined;
  private lifetimeTimer: ClockTimer | undefined;

  /** Validates the options (a `ValidationError` lists every bad duration); starts nothing. */
  constructor(options: LeaseKeeperOptions) {
    this.options = resolveLeaseKeeperOptions(options);
    this.heldUntilMs = this.options.lock.expiresAt;
  }

  /** The `LockLostError` of the loss, once ownership is lost; `undefined` before. */
  get lostWith(): LockLostError | undefined {
    return this.lossError;
  }

  /** Aborts, with a `LockLostError` as its reason, when ownership is lost. Never on `stop()`. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.lossError) this.controller.abort(this.lossError);
    }
    return this.controller.signal;
  }

  /**
   * True until ownership is lost or `heldUntil` has passed. It never reports a lease the keeper
   * cannot vouch for, even if a timer fires late.
   */
  get held(): boolean {
    return !this.lost && this.options.clock.now() < this.heldUntilMs;
  }

  /**
   * Epoch milliseconds until which the lease is known to be ours: `lock.expiresAt` at first, then
   * the send time of the latest successful extend plus `lockTtlMs`.
   */
  get heldUntil(): number {
    return this.heldUntilMs;
  }

  /** True while an extend is in flight; `stop()` resolves once it has settled. */
  get extending(): boolean {
    return this.inFlight !== undefined;
  }

  /** Starts renewal and the lifetime clock of the first handler run. Idempotent. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const nowMs = this.options.clock.now();
    // The acquire is the "previous extend": when start() comes late, the lease has already been
    // running and the first renewal is due sooner (at once if a third of the TTL has passed).
    this.lastSentAtMs = Math.min(nowMs, this.options.lock.expiresAt - this.options.lockTtlMs);
    this.lifetimeStartedAtMs = nowMs;
    this.armCheckpoint();
  }

  /**
   * Most handlers finish long before the first renewal is due, so until then a single timer
   * stands in for the three (renewal, lease end, lifetime): it fires at the earliest of their
   * deadlines and arms them. Nothing can be due before it, so no deadline is observed later.
   */
  private armCheckpoint(): void {
    const { clock, renewIntervalMs, maxLockLifetimeMs } = this.options;
    const dueMs = Math.min(
      this.lastSentAtMs + renewIntervalMs,
      this.lifetimeStartedAtMs + maxLockLifetimeMs,
      this.heldUntilMs,
    );
    const delayMs = dueMs - clock.now();
    if (delayMs <= 0) {
      this.armAll();
      return;
    }
    this.checkpointTimer = clock.setTimeout(() => {
      this.checkpointTimer = undefined;
      if (this.running) this.armAll();
    }, delayMs);
  }

  private armAll(): void {
    this.armed = true;
    this.startLifetime();
    this.watchLeaseEnd();
    this.scheduleRenewal();
  }

  /**
   * Starts the lifetime clock of the next handler run of a drain. When the previous run had
   * outlived `maxLockLifetimeMs` and the lease is still held, renewal resumes. No effect after
   * loss or `stop()`.
   */
  beginRun(): void {
    if (!this.running) return;
    this.lifetimeStartedAtMs = this.options.clock.now();
    // Before the checkpoint fired, it re-arms the lifetime from this start when it does.
    if (!this.armed) return;
    this.startLifetime();
    if (this.lifetimeExceeded) {
      this.lifetimeExceeded = false;
      this.scheduleRenewal();
    }
  }

  /**
   * Stops renewal for good: cancels every timer and never sends another extend. Resolves once the
   * in-flight extend (if any) has settled, so the caller may release the lock right after it.
   * Idempotent: later calls return the same promise. Does not abort `signal`, never rejects.
   */
  stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopped = true;
    this.clearTimers();
    this.stopping = this.inFlight ?? SETTLED;
    return this.stopping;
  }

  private get running(): boolean {
    return this.started && !this.stopped && !this.lost;
  }

  private startLifetime(): void {
    this.clearTimer("lifetimeTimer");
    const { clock, maxLockLifetimeMs } = this.options;
    this.lifetimeTimer = clock.setTimeout(
      () => {
        this.lifetimeTimer = undefined;
        this.onLifetimeExceeded();
      },
      this.lifetimeStartedAtMs + maxLockLifetimeMs - clock.now(),
    );
  }

  /** Plans the next extend; nothing while one is in flight (its settling plans the next). */
  private scheduleRenewal(): void {
    if (!this.running || this.lifetimeExceeded || this.inFlight) return;
    this.clearTimer("renewTimer");
    const delayMs = this.lastSentAtMs + this.options.renewIntervalMs - this.options.clock.now();
    // Overdue (a slow extend just settled, a late start, a resumed run): every millisecond now
    // eats into the lease, so send without waiting for a timer turn.
    if (delayMs <= 0) {
      this.sendExtend();
      return;
    }
    this.renewTimer = this.options.clock.setTimeout(() => {
      this.renewTimer = undefined;
      if (this.running && !this.lifetimeExceeded && !this.inFlight) this.sendExtend();
    }, delayMs);
  }

  /** Arms the check that reports loss when `heldUntil` passes without a successful extend. */
  private watchLeaseEnd(): void {
    this.clearTimer("leaseEndTimer");
    this.leaseEndTimer = this.options.clock.setTimeout(() => {
      this.leaseEndTimer = undefined;
      if (!this.running) return;
      if (this.options.clock.now() < this.heldUntilMs) this.watchLeaseEnd();
      else this.lose(this.lifetimeExceeded ? "lifetime" : "ran-out");
    }, this.heldUntilMs - this.options.clock.now());
  }

  private sendExtend(): void {
    const { clock, extendTimeoutMs } = this.options;
    const sentAtMs = clock.now();
    this.lastSentAtMs = sentAtMs;
    const attempt = { timedOut: false };
    const timeoutTimer = clock.setTimeout(() => {
      attempt.timedOut = true;
      const error = new StateError("timeout", `no answer within ${extendTimeoutMs} ms`, {
        step: "extend lock",
      });
      this.onExtendFailed({ error, timedOut: true });
    }, extendTimeoutMs);
    const settled = this.awaitExtend(sentAtMs, attempt).finally(() => {
      clock.clearTimeout(timeoutTimer);
      this.inFlight = undefined;
      this.scheduleRenewal();
    });
    this.inFlight = settled;
  }

  /** Calls the backend and records its answer; never rejects, so nothing goes unhandled. */
  private async awaitExtend(sentAtMs: number, attempt: { timedOut: boolean }): Promise<void> {
    const { state, lock, lockTtlMs } = this.options;
    let extended: boolean;
    try {
      // Called synchronously, so `sentAtMs` is when the request left; a synchronous throw from a
      // backend lands in the catch like a rejection.
      extended = await state.extendLock(lock, lockTtlMs);
    } catch (error) {
      if (!attempt.timedOut) this.onExtendFailed({ error, timedOut: false });
      return;
    }
    if (!this.running) return;
    if (!extended) {
      // `false` is the backend's word that the lease is gone, late or not: stopping is the only
      // safe reaction.
      this.lose("refused");
    } else if (attempt.timedOut) {
      this.log("debug", "a timed-out extend answered true late; it still counts as failed");
    } else {
      this.heldUntilMs = sentAtMs + lockTtlMs;
      this.lastFailure = undefined;
      this.watchLeaseEnd();
    }
  }

  private onExtendFailed(failure: ExtendFailure): void {
    if (!this.running) return;
    this.lastFailure = failure;
    const what = failure.timedOut ? "timed out" : `failed (${errorText(failure.error)})`;
    this.log(
      "warn",
      `extend of ${this.options.lock.key} ${what}; the lease is kept until ${iso(this.heldUntilMs)}`,
    );
  }

  private onLifetimeExceeded(): void {
    if (!this.running || this.lifetimeExceeded) return;
    this.lifetimeExceeded = true;
    this.clearTimer("renewTimer");
    this.log(
      "warn",
      `the handler run on ${this.options.lock.key} exceeded maxLockLifetimeMs (${this.options.maxLockLifetimeMs} ms); renewal stopped, the lease lapses at ${iso(this.heldUntilMs)}`,
    );
  }

  private lose(reason: LossReason): void {
    if (!this.running) return;
    this.lost = true;
    this.clearTimers();
    const { lock, onLost } = this.options;
    const cause = reason === "ran-out" ? this.lastFailure?.error : undefined;
    const error = new LockLostError(lock.key, lock.fence, this.lossMessage(reason), {
      step: `renew ${lockNoun(lock.key)}`,
      ...(cause === undefined ? {} : { cause }),
    });
    this.log("warn", error.message);
    this.lossError = error;
    this.controller?.abort(error);
    try {
      onLost?.(error);
    } catch (thrown) {
      this.log("error", `onLost threw: ${errorText(thrown)}`);
    }
  }

  private lossMessage(reason: LossReason): string {
    const until = iso(this.heldUntilMs);
    if (reason === "refused") {
      return "extend returned false: the lease had expired, or the lock was released or taken by another holder";
    }
    if (reason === "lifetime") {
      return `the handler run exceeded maxLockLifetimeMs (${this.options.maxLockLifetimeMs} ms), so renewal stopped and the lease lapsed at ${until}`;
    }
    const failure = this.lastFailure;
    const last = !failure
      ? this.inFlight
        ? "; an extend was still pending"
        : ""
      : failure.timedOut
        ? `; the last extend timed out after ${this.options.extendTimeoutMs} ms`
        : `; the last extend failed: ${errorText(failure.error)}`;
    return `no extend succeeded before the lease ran out at ${until}${last}`;
  }

  private clearTimers(): void {
    this.clearTimer("renewTimer");
    this.clearTimer("leaseEndTimer");
    this.clearTimer("lifetimeTimer");
    this.clearTimer("checkpointTimer");
  }

  private clearTimer(
    name: "renewTimer" | "leaseEndTimer" | "lifetimeTimer" | "checkpointTimer",
  ): void {
    const timer = this[name];
    if (timer !== undefined) this.options.clock.clearTimeout(timer);
    this[name] = undefined;
  }

  /** Logs with the lock's identity; a throwing logger must not break renewal or loss reporting. */
  private log(level: "debug" | "warn" | "error", message: string): void {
    const { lock, logger } = this.options;
    try {
      logger[level](message, { lockKey: lock.key, fence: lock.fence, heldUntil: this.heldUntilMs });
    } catch {
      // Nothing sensible is left to report to; keeping the lease correct matters more.
    }
  }
}

/** What `stop()` returns with nothing in flight: one resolved promise for every keeper. */
const SETTLED: Promise<void> = Promise.resolve();

/** "thread lock" / "channel lock" for keys made by `lockKeyFor`, else "lock". */
function lockNoun(lockKey: string): string {
  if (lockKey.startsWith("thread:")) return "thread lock";
  if (lockKey.startsWith("channel:")) return "channel lock";
  return "lock";
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
