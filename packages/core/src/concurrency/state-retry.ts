import { type Clock, sleep } from "../clock/clock.js";

/**
 * How a State failure that stops a delivery before its handler is retried in-process, once the
 * platform was already answered (ADR 0015): capped exponential backoff within a total budget.
 */
export interface StateRetryPolicy {
  /** The wait before the first retry. */
  readonly initialDelayMs: number;
  /** No single wait is longer than this; each wait doubles up to it. */
  readonly maxDelayMs: number;
  /**
   * The most time spent waiting between attempts for one delivery. Once the next wait would pass
   * it, the delivery ends `error` with its record.
   */
  readonly budgetMs: number;
}

/** The policy when `stateRetry` is not given: 250 ms doubling to 5 s, within 30 s in all. */
export const DEFAULT_STATE_RETRY: StateRetryPolicy = Object.freeze({
  initialDelayMs: 250,
  maxDelayMs: 5_000,
  budgetMs: 30_000,
});

/**
 * The retries of one delivery (or one drained batch). Waits are jittered between half and all
 * of the nominal delay, so instances that lost the same State do not come back in lockstep.
 */
export class StateRetry {
  private attempts = 0;
  private waitedMs = 0;

  constructor(
    private readonly policy: StateRetryPolicy,
    private readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {}

  /** Retries made so far. */
  get attempt(): number {
    return this.attempts;
  }

  /**
   * Waits before the next attempt. Resolves true when the caller should try again; false,
   * without waiting, when the budget would be passed or `signal` (shutdown, lease loss, detach
   * timeout) has aborted — also when it aborts during the wait.
   */
  async wait(signal: AbortSignal | undefined): Promise<boolean> {
    if (signal?.aborted) return false;
    const { initialDelayMs, maxDelayMs, budgetMs } = this.policy;
    const nominalMs = Math.min(maxDelayMs, initialDelayMs * 2 ** this.attempts);
    const delayMs = Math.round(nominalMs / 2 + (this.random() * nominalMs) / 2);
    if (this.waitedMs + delayMs > budgetMs) return false;
    try {
      await sleep(this.clock, delayMs, signal);
    } catch {
      return false;
    }
    this.waitedMs += delayMs;
    this.attempts += 1;
    return true;
  }
}

/**
 * Thrown by single-delivery strategy paths when the State failed before any handler ran
 * (`not-run`): the dispatcher decides whether to retry or to settle `error`.
 */
export class NotRunError extends Error {
  constructor(readonly deliveryKey: string) {
    super(`the State failed before a handler ran for ${deliveryKey}`);
    this.name = "NotRunError";
  }
}
