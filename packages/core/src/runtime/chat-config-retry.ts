import { DEFAULT_STATE_RETRY, type StateRetryPolicy } from "../concurrency/state-retry.js";
import { type ConfigProblems, describeValue } from "./config-problems.js";
import { checkKnownKeys } from "./known-keys.js";

/**
 * The `stateRetry` option: how long Baton keeps retrying a message whose State failed before its
 * handler ran, after the webhook was already answered (deferred dispatch, ADR 0015). Each field
 * defaults to {@link DEFAULT_STATE_RETRY}'s.
 */
export interface StateRetryOptions {
  /** The wait before the first retry. Default 250. */
  initialDelayMs?: number;
  /** The longest single wait; waits double up to it. Default 5 000. */
  maxDelayMs?: number;
  /** The most time spent waiting for one message before it ends `error`. Default 30 000. */
  budgetMs?: number;
}

const RETRY_KEYS = ["initialDelayMs", "maxDelayMs", "budgetMs"] as const;

/**
 * Checks `stateRetry`: absent → the defaults; `false` → no in-process retry (`null`); an object
 * of positive durations with `initialDelayMs ≤ maxDelayMs ≤ budgetMs`. Problems go to `found`.
 */
export function resolveStateRetry(found: ConfigProblems, value: unknown): StateRetryPolicy | null {
  if (value === undefined) return DEFAULT_STATE_RETRY;
  if (value === false) return null;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    found.add(
      "stateRetry",
      `must be false or an object { initialDelayMs?, maxDelayMs?, budgetMs? }, got ${describeValue(value)}`,
    );
    return DEFAULT_STATE_RETRY;
  }
  checkKnownKeys(found, "stateRetry", value, RETRY_KEYS);
  const given = value as StateRetryOptions;
  const resolved = { ...DEFAULT_STATE_RETRY };
  for (const key of RETRY_KEYS) {
    if (given[key] === undefined) continue;
    resolved[key] = found.durationMs(`stateRetry.${key}`, given[key]) ?? resolved[key];
  }
  if (resolved.initialDelayMs > resolved.maxDelayMs) {
    found.add(
      "stateRetry",
      `initialDelayMs (${resolved.initialDelayMs}) must not exceed maxDelayMs (${resolved.maxDelayMs})`,
    );
  }
  if (resolved.initialDelayMs > resolved.budgetMs) {
    found.add(
      "stateRetry",
      `initialDelayMs (${resolved.initialDelayMs}) must not exceed budgetMs (${resolved.budgetMs}): no retry could ever run`,
    );
  }
  return Object.freeze(resolved);
}
