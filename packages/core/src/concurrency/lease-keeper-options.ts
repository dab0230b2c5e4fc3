import type { Clock } from "../clock/index.js";
import type { Lock, Logger, StateAdapter } from "../contracts/index.js";
import { silentLogger } from "../contracts/index.js";
import type { LockLostError } from "../errors/index.js";
import { ValidationError } from "../errors/index.js";

/** Upstream's default cap on how long one handler run may keep renewing its lock: 10 minutes. */
export const DEFAULT_MAX_LOCK_LIFETIME_MS = 600_000;

/** Options of {@link LeaseKeeper}. Durations are milliseconds. */
export interface LeaseKeeperOptions {
  /** The backend that holds the lock. Only `extendLock` is used: the keeper never releases. */
  state: Pick<StateAdapter, "extendLock">;
  /** The lock to keep, as `acquireLock` returned it. */
  lock: Lock;
  /** The lease length each extend asks for; the keeper extends every `lockTtlMs / 3`. */
  lockTtlMs: number;
  /** The time source for renewal timers and for `heldUntil`. */
  clock: Clock;
  /**
   * How long one extend may take before it counts as failed. Default `lockTtlMs / 3`. A timed-out
   * extend is a failure even if it later answers `true` (DESIGN §4.1: a timeout is never a
   * success); the keeper still waits for it to settle before sending the next one.
   */
  extendTimeoutMs?: number;
  /**
   * How long one handler run may keep renewing, counted from `start()` or the last `beginRun()`.
   * After that no extend is sent and the lease lapses at `heldUntil`. Default 600 000.
   */
  maxLockLifetimeMs?: number;
  /** Receives a warn for each failed extend, for the end of renewal and for the loss. */
  logger?: Logger;
  /** Called once, after `signal` aborted, when ownership is lost. A throw is logged, not raised. */
  onLost?: (error: LockLostError) => void;
}

/** {@link LeaseKeeperOptions} with defaults applied and every duration checked. */
export interface ResolvedLeaseKeeperOptions {
  readonly state: Pick<StateAdapter, "extendLock">;
  readonly lock: Lock;
  readonly lockTtlMs: number;
  readonly renewIntervalMs: number;
  readonly extendTimeoutMs: number;
  readonly maxLockLifetimeMs: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onLost: ((error: LockLostError) => void) | undefined;
}

/**
 * Applies defaults and validates. Throws one `ValidationError` naming every bad duration, so a
 * misconfigured strategy fails when it builds its keeper, not after its first lease runs out.
 */
export function resolveLeaseKeeperOptions(options: LeaseKeeperOptions): ResolvedLeaseKeeperOptions {
  const lockTtlMs = options.lockTtlMs;
  const extendTimeoutMs = options.extendTimeoutMs ?? lockTtlMs / 3;
  const maxLockLifetimeMs = options.maxLockLifetimeMs ?? DEFAULT_MAX_LOCK_LIFETIME_MS;
  const valid =
    isPositive(lockTtlMs) &&
    isPositive(extendTimeoutMs) &&
    isPositive(maxLockLifetimeMs) &&
    typeof options.lock?.key === "string" &&
    typeof options.lock.token === "string";
  // A keeper is built per lock acquisition: the list of problems is only made when there are some.
  if (!valid) throw optionsError(options, lockTtlMs, extendTimeoutMs, maxLockLifetimeMs);
  return {
    state: options.state,
    lock: options.lock,
    lockTtlMs,
    renewIntervalMs: lockTtlMs / 3,
    extendTimeoutMs,
    maxLockLifetimeMs,
    clock: options.clock,
    logger: options.logger ?? silentLogger,
    onLost: options.onLost,
  };
}

function optionsError(
  options: LeaseKeeperOptions,
  lockTtlMs: number,
  extendTimeoutMs: number,
  maxLockLifetimeMs: number,
): ValidationError {
  const problems = [
    positiveProblem("lockTtlMs", lockTtlMs),
    positiveProblem("extendTimeoutMs", extendTimeoutMs),
    positiveProblem("maxLockLifetimeMs", maxLockLifetimeMs),
  ].filter((problem): problem is string => problem !== undefined);
  if (typeof options.lock?.key !== "string" || typeof options.lock.token !== "string") {
    problems.push("lock must be a Lock returned by acquireLock");
  }
  return new ValidationError(problems.join("; "), { step: "create lease keeper" });
}

function isPositive(valueMs: number): boolean {
  return typeof valueMs === "number" && Number.isFinite(valueMs) && valueMs > 0;
}

function positiveProblem(name: string, valueMs: number): string | undefined {
  return isPositive(valueMs)
    ? undefined
    : `${name} must be a positive number of milliseconds, got ${valueMs}`;
}
