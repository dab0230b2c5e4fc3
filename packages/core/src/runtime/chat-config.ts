import { ConfigError } from "../errors/index.js";
import { resolveThreadHistory, resolveUserCacheTtl } from "./chat-config-history.js";
import { resolveStateRetry } from "./chat-config-retry.js";
import { resolveStreamingOptions } from "./chat-config-streaming.js";
import { resolveDurableTurns } from "./chat-config-turns.js";
import type {
  ChatConfig,
  DispatchMode,
  LockConflictOption,
  LockScopeOption,
  ResolvedChatConfig,
  StrategyName,
  UpstreamOnlyOptions,
} from "./chat-config-types.js";
import {
  checkAdapters,
  checkClock,
  checkObserver,
  checkState,
  resolveLogger,
} from "./component-checks.js";
import { ConfigProblems, describeValue, isPlainObject } from "./config-problems.js";
import { checkKnownKeys } from "./known-keys.js";
import { resolveConcurrency } from "./resolve-concurrency.js";

export type { StateRetryOptions } from "./chat-config-retry.js";
export type {
  ChatConfig,
  ConcurrencyOptions,
  DispatchMode,
  LockConflictOption,
  LockScopeContext,
  LockScopeOption,
  ResolvedChatConfig,
  ResolvedConcurrency,
  StrategyName,
  UpstreamOnlyOptions,
} from "./chat-config-types.js";
export { DEFAULT_CONCURRENCY, STRATEGY_NAMES } from "./resolve-concurrency.js";

/** How long a message id is remembered for dedupe when `dedupeTtlMs` is not given: 10 minutes. */
export const DEFAULT_DEDUPE_TTL_MS = 600_000;

/** The step named by the `ConfigError` of {@link resolveChatConfig}. */
const STEP = "create chat";

const CHAT_CONFIG_KEYS = [
  "userName",
  "adapters",
  "state",
  "concurrency",
  "lockScope",
  "dedupeTtlMs",
  "dispatch",
  "stateRetry",
  "durableTurns",
  "logger",
  "observer",
  "clock",
  "onLockConflict",
  "maxDetached",
  "maxDetachedPerTenant",
  "detachTimeoutMs",
  "retryAfterMs",
  "streamingUpdateIntervalMs",
  "fallbackStreamingPlaceholderText",
  "threadHistory",
  "messageHistory",
  "userCacheTtlMs",
] as const satisfies readonly Exclude<keyof ChatConfig, keyof UpstreamOnlyOptions>[];

const UPSTREAM_ONLY_REASON = "an upstream chat option Baton does not support yet; ignored";

/**
 * Options of upstream's `ChatConfig` that Baton does not implement yet. A `chat` user switching
 * over keeps them in their config, so they are ignored with a warning rather than refused — a
 * refusal would break the "change the imports" promise (ADR 0003) for options that change no
 * guarantee. Typos of Baton's own options are still refused.
 */
const UPSTREAM_ONLY_OPTIONS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    (["transcripts", "identity"] as const satisfies readonly (keyof UpstreamOnlyOptions)[]).map(
      (name) => [name, UPSTREAM_ONLY_REASON],
    ),
  ),
);

/**
 * Validates `config` and fills every default. Either returns a frozen {@link ResolvedChatConfig}
 * or throws one `ConfigError` whose `problems` list every problem found — each naming the option
 * path, the bad value and what is allowed — so one restart fixes them all. Valid but likely
 * mistaken settings come back in `warnings`. Never touches the adapters or the State.
 */
export function resolveChatConfig(config: ChatConfig): ResolvedChatConfig {
  if (!isPlainObject(config)) {
    throw new ConfigError([`config: must be an object, got ${describeValue(config)}`], {
      step: STEP,
    });
  }
  const found = new ConfigProblems();
  const given = config as Partial<Record<keyof ChatConfig, unknown>>;
  checkKnownKeys(found, "", config, CHAT_CONFIG_KEYS, UPSTREAM_ONLY_OPTIONS);

  const userName = checkUserName(found, given.userName);
  const adapters = checkAdapters(found, given.adapters);
  const state = checkState(found, given.state);
  const concurrency = resolveConcurrency(found, given.concurrency);
  const lockScope = checkLockScope(found, given.lockScope);
  const dedupeTtlMs =
    given.dedupeTtlMs === undefined
      ? DEFAULT_DEDUPE_TTL_MS
      : (found.durationMs("dedupeTtlMs", given.dedupeTtlMs) ?? DEFAULT_DEDUPE_TTL_MS);
  const dispatch =
    given.dispatch === undefined
      ? "deferred"
      : (found.oneOf<DispatchMode>("dispatch", given.dispatch, ["deferred", "sync"]) ?? "deferred");
  const stateRetry = resolveStateRetry(found, given.stateRetry);
  const durableTurns = resolveDurableTurns(
    found,
    given.durableTurns,
    given.state,
    concurrency.strategy,
  );
  const logger = resolveLogger(found, given.logger);
  const observer = checkObserver(found, given.observer);
  const clock = checkClock(found, given.clock);
  const onLockConflict = checkLockConflict(found, given.onLockConflict, concurrency.strategy);
  const maxDetached =
    optionalCount(found, "maxDetached", given.maxDetached) ?? DEFAULT_MAX_DETACHED;
  const maxDetachedPerTenant = optionalCount(
    found,
    "maxDetachedPerTenant",
    given.maxDetachedPerTenant,
  );
  const detachTimeoutMs =
    given.detachTimeoutMs === undefined
      ? undefined
      : found.durationMs("detachTimeoutMs", given.detachTimeoutMs);
  const retryAfterMs =
    given.retryAfterMs === undefined
      ? DEFAULT_RETRY_AFTER_MS
      : (found.durationMs("retryAfterMs", given.retryAfterMs) ?? DEFAULT_RETRY_AFTER_MS);

  const threadHistory = resolveThreadHistory(found, given.threadHistory, given.messageHistory);
  const userCacheTtlMs = resolveUserCacheTtl(found, given.userCacheTtlMs);

  const streaming = resolveStreamingOptions(
    found,
    given.streamingUpdateIntervalMs,
    given.fallbackStreamingPlaceholderText,
  );

  if (found.problems.length > 0) throw new ConfigError(found.problems, { step: STEP });
  return Object.freeze({
    userName,
    adapters,
    state,
    concurrency,
    lockScope,
    dedupeTtlMs,
    dispatch,
    stateRetry,
    durableTurns,
    logger,
    observer,
    clock,
    onLockConflict,
    maxDetached,
    maxDetachedPerTenant,
    detachTimeoutMs,
    retryAfterMs,
    ...streaming,
    threadHistory,
    userCacheTtlMs,
    warnings: Object.freeze([...found.warnings]),
  });
}

/** Admitted-but-unfinished deliveries per instance when `maxDetached` is not given. */
export const DEFAULT_MAX_DETACHED = 1_024;

/** The `Retry-After` hint of an admission rejection when `retryAfterMs` is not given. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

function optionalCount(found: ConfigProblems, path: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    found.add(path, `must be a positive integer, got ${describeValue(value)}`);
    return undefined;
  }
  return value;
}

function checkUserName(found: ConfigProblems, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    found.add(
      "userName",
      `must be a non-empty string (the bot's handle), got ${describeValue(value)}`,
    );
    return "";
  }
  return value;
}

function checkLockScope(found: ConfigProblems, value: unknown): LockScopeOption | undefined {
  if (value === undefined || value === "thread" || value === "channel") return value;
  if (typeof value === "function") return value as LockScopeOption;
  found.add(
    "lockScope",
    `must be "thread", "channel" or a function (context) => scope, got ${describeValue(value)}`,
  );
  return undefined;
}

function checkLockConflict(
  found: ConfigProblems,
  value: unknown,
  strategy: StrategyName,
): LockConflictOption {
  if (value === undefined) return "drop";
  if (value === "force") {
    // Upstream's "force" frees a lock whose handler keeps running; see ADR 0005.
    found.add(
      "onLockConflict",
      `"force" is not supported: it releases a lock while its handler is still running, so two ` +
        `handlers would run on one thread at once. To answer messages that arrive during a ` +
        `handler, use concurrency: "queue" (or "debounce" / "burst"); see ` +
        `docs/adr/0005-no-force-lock-release.md`,
    );
    return "drop";
  }
  if (value !== "drop" && typeof value !== "function") {
    found.add(
      "onLockConflict",
      `must be "drop" or a function returning "drop", got ${describeValue(value)}`,
    );
    return "drop";
  }
  if (strategy !== "drop") {
    found.warn(
      "onLockConflict",
      `has no effect with strategy ${JSON.stringify(strategy)}; it only applies to "drop"`,
    );
  }
  return value as LockConflictOption;
}
