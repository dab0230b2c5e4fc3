import { type ConfigProblems, describeValue } from "./config-problems.js";
import { checkKnownKeys } from "./known-keys.js";
import { DEFAULT_USER_CACHE_TTL_MS } from "./user-lookup.js";

/** Options of the bounded history kept for adapters with `persistThreadHistory` (upstream's). */
export interface ThreadHistoryOptions {
  /** The most messages kept per thread; older ones are dropped. Default 100. */
  maxMessages?: number;
  /** A thread's list expires this long after its latest message. Default 7 days. */
  ttlMs?: number;
}

/** {@link ThreadHistoryOptions} with every default filled in. */
export type ResolvedThreadHistory = Readonly<Required<ThreadHistoryOptions>>;

/** Messages kept per thread when `threadHistory.maxMessages` is not given (upstream's 100). */
export const DEFAULT_THREAD_HISTORY_MAX_MESSAGES = 100;

/** How long a thread's history lives after its latest message by default: 7 days (upstream's). */
export const DEFAULT_THREAD_HISTORY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const HISTORY_KEYS = ["maxMessages", "ttlMs"] as const;

/**
 * Checks `threadHistory` and its deprecated alias `messageHistory` (upstream's old name):
 * `threadHistory` wins when both are given. Records problems in `found`.
 */
export function resolveThreadHistory(
  found: ConfigProblems,
  threadHistory: unknown,
  messageHistory: unknown,
): ResolvedThreadHistory {
  const [path, given] =
    threadHistory !== undefined
      ? ["threadHistory", threadHistory]
      : ["messageHistory", messageHistory];
  const resolved = {
    maxMessages: DEFAULT_THREAD_HISTORY_MAX_MESSAGES,
    ttlMs: DEFAULT_THREAD_HISTORY_TTL_MS,
  };
  if (given === undefined) return Object.freeze(resolved);
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    found.add(path, `must be an object { maxMessages?, ttlMs? }, got ${describeValue(given)}`);
    return Object.freeze(resolved);
  }
  checkKnownKeys(found, path, given, HISTORY_KEYS);
  const options = given as ThreadHistoryOptions;
  if (options.maxMessages !== undefined) {
    resolved.maxMessages =
      found.positiveInteger(`${path}.maxMessages`, options.maxMessages) ?? resolved.maxMessages;
  }
  if (options.ttlMs !== undefined) {
    resolved.ttlMs = found.durationMs(`${path}.ttlMs`, options.ttlMs) ?? resolved.ttlMs;
  }
  return Object.freeze(resolved);
}

/** Checks `userCacheTtlMs`; the default is {@link DEFAULT_USER_CACHE_TTL_MS}. */
export function resolveUserCacheTtl(found: ConfigProblems, value: unknown): number {
  if (value === undefined) return DEFAULT_USER_CACHE_TTL_MS;
  return found.durationMs("userCacheTtlMs", value) ?? DEFAULT_USER_CACHE_TTL_MS;
}
