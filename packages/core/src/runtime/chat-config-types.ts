import type { Clock } from "../clock/index.js";
import type { StateRetryPolicy } from "../concurrency/state-retry.js";
import type { DurableTurnSettings, StrategyName } from "../concurrency/strategy.js";
import type { Adapter, LockScope } from "../contracts/adapter.js";
import type { Logger, LogLevel } from "../contracts/logger.js";
import type { Observer } from "../contracts/observer.js";
import type { QueueFullPolicy, StateAdapter } from "../contracts/state.js";
import type { Message } from "../model/message.js";
import type { ResolvedThreadHistory, ThreadHistoryOptions } from "./chat-config-history.js";
import type { StateRetryOptions } from "./chat-config-retry.js";
import type { DurableTurnsOptions } from "./chat-config-turns.js";
import type { PinoLikeLogger } from "./logger-adapter.js";

export type { StrategyName };

/**
 * Fine-grained concurrency settings. Every field but `strategy` is optional; durations are
 * milliseconds and must be positive and finite. Upstream's `ConcurrencyConfig` fields keep their
 * names and defaults; the lease fields (`lockTtlMs` onwards in DESIGN §6) are Baton's own.
 */
export interface ConcurrencyOptions {
  strategy: StrategyName;
  /** How long a lock lives without an extend. Default 30 000. */
  lockTtlMs?: number;
  /** The quiet period of `debounce`, the collection window of `burst`. Default 1 500. */
  debounceMs?: number;
  /** The longest a `debounce` run may be postponed by new messages. Default `10 * debounceMs`. */
  maxWaitMs?: number;
  /** The most messages waiting per lock key (`queue`, `debounce`, `burst`). Default 10. */
  maxQueueSize?: number;
  /** Which message leaves a full queue. Default `"drop-oldest"`. */
  onQueueFull?: QueueFullPolicy;
  /** How long a queued message stays eligible; older ones end as `expired`. Default 90 000. */
  queueEntryTtlMs?: number;
  /** `concurrent` only: the most handlers running per thread. Default `Infinity`. */
  maxConcurrent?: number;
  /** The longest one handler run keeps renewing its lock. Default 600 000. */
  maxLockLifetimeMs?: number;
  /** How long one lock extend may take before it counts as failed. Default `lockTtlMs / 3`. */
  extendTimeoutMs?: number;
  /** How often the sweeper looks for queues whose holder died. Default `lockTtlMs`. */
  sweepIntervalMs?: number;
}

/** What a lock-scope resolver learns about the message being dispatched (upstream's shape). */
export interface LockScopeContext {
  adapter: Adapter;
  threadId: string;
  channelId: string;
  isDM: boolean;
}

/**
 * The `lockScope` option: a fixed scope, or a resolver called per message. When absent, the
 * adapter's own `lockScope` applies, then `"thread"`.
 */
export type LockScopeOption =
  | LockScope
  | ((context: LockScopeContext) => LockScope | Promise<LockScope>);

/**
 * The `onLockConflict` option: what happens when the lock is held under the `drop` strategy.
 * Only dropping exists; a function is called for its side effects (metrics, a reply) and must
 * resolve to `"drop"`. Upstream's `"force"` is refused (docs/adr/0005-no-force-lock-release.md).
 */
export type LockConflictOption =
  | "drop"
  | ((threadId: string, message: Message) => "drop" | Promise<"drop">);

/** When the webhook response is sent, relative to the handler (DESIGN §5, invariant 7). */
export type DispatchMode = "deferred" | "sync";

/**
 * Options of upstream's `ChatConfig` that Baton does not implement yet. They are typed so a
 * `chat` user's config still compiles after switching imports; at run time each one given is
 * ignored and reported in `warnings`.
 */
export interface UpstreamOnlyOptions {
  /** Upstream: cross-platform transcripts. Ignored, with a warning. */
  transcripts?: unknown;
  /** Upstream: identity resolver of transcripts. Ignored, with a warning. */
  identity?: unknown;
}

/** The argument of `new Chat(config)`. Names and meaning follow upstream's `ChatConfig`. */
export interface ChatConfig extends UpstreamOnlyOptions {
  /**
   * The least time between two edits when a stream is posted by post + edit (adapters without
   * native streaming), in ms. Default: the adapter's `streamingUpdateIntervalMs`, else 500. A
   * `StreamMessage`'s own `updateIntervalMs` beats it. See docs/streaming.md.
   */
  streamingUpdateIntervalMs?: number;
  /**
   * The text posted first when a stream is posted by post + edit, then edited as text arrives;
   * `null` posts nothing until the stream has text. Default `"..."` (upstream's).
   */
  fallbackStreamingPlaceholderText?: string | null;
  /**
   * The bounded history kept in the State for adapters with `persistThreadHistory` (platforms
   * without a history API). Default `{ maxMessages: 100, ttlMs: 7 days }`.
   */
  threadHistory?: ThreadHistoryOptions;
  /** @deprecated Upstream's old name of `threadHistory`, used when `threadHistory` is absent. */
  messageHistory?: ThreadHistoryOptions;
  /**
   * How long `chat.getUser` answers are cached in the State, shared by every instance: at most
   * one platform call per user per this long. Default 3 600 000 (1 hour).
   */
  userCacheTtlMs?: number;
  /** The bot's default handle across adapters. */
  userName: string;
  /** The adapters, each under its own `name`. */
  adapters: Record<string, Adapter>;
  /** The shared State backend (a Baton backend: memory, Redis or Postgres). */
  state: StateAdapter;
  /** A strategy name, or detailed options. Default `"drop"` with {@link ConcurrencyOptions}' defaults. */
  concurrency?: StrategyName | ConcurrencyOptions;
  /** One lock per thread or per channel, or a resolver. Default: the adapter's, then `"thread"`. */
  lockScope?: LockScopeOption;
  /** How long a message id is remembered for dedupe. Default 600 000 (10 minutes). */
  dedupeTtlMs?: number;
  /** `deferred` answers the webhook before the handler runs; `sync` after. Default `"deferred"`. */
  dispatch?: DispatchMode;
  /**
   * Under deferred dispatch the platform was answered before the handler ran, so it will not
   * redeliver: a State failure before the handler is retried in-process with capped exponential
   * backoff (ADR 0015), then the message ends `error` with its record. Shutdown ends the waits at
   * once. `false`: no retry. Default `{ initialDelayMs: 250, maxDelayMs: 5000, budgetMs: 30000 }`.
   */
  stateRetry?: StateRetryOptions | false;
  /**
   * Durable turns (DESIGN §6.1): every lock-holding handler run keeps a turn record in the State,
   * so a run interrupted by a crash, a deploy's shutdown or a lost lease is run again by another
   * instance (`context.attempt`, `context.interrupted`), up to `maxAttempts` runs; then the turn
   * ends `abandoned` and `onTurnAbandoned` runs. At-least-once: make side effects idempotent with
   * `thread.once`. `false`: no records, today's at-most-once runs. Default `{ maxAttempts: 3 }`
   * when the State keeps turn records (every Baton backend does). See docs/durable-turns.md.
   */
  durableTurns?: DurableTurnsOptions | false;
  /** A logger, or the level of a console logger. Default `ConsoleLogger("info")`. */
  logger?: Logger | PinoLikeLogger | LogLevel;
  /** Receives spans and counters. Default: none. */
  observer?: Observer;
  /** The time source of every wait and expiry. Default: the system clock. */
  clock?: Clock;
  /** See {@link LockConflictOption}. Default `"drop"`. */
  onLockConflict?: LockConflictOption;
  /**
   * Admitted-but-unfinished deliveries per instance (running handlers and waiting messages held
   * here). Past it, deliveries are refused with `AdmissionRejectedError` (HTTP 503) before
   * anything is written. Default 1 024.
   */
  maxDetached?: number;
  /** The same per (adapter, tenant): a ceiling, not a reservation. Default: no per-tenant cap. */
  maxDetachedPerTenant?: number;
  /**
   * Bounds each detached delivery (`dispatch: "deferred"`): past it the handler's
   * `context.signal` aborts with a `DetachTimeoutError`. Default: unbounded (the lock lifetime
   * still applies).
   */
  detachTimeoutMs?: number;
  /** The `Retry-After` sent with a 503 at the admission bound. Default 1 000. */
  retryAfterMs?: number;
}

/** {@link ConcurrencyOptions} with every default filled in. */
export type ResolvedConcurrency = Readonly<Required<ConcurrencyOptions>>;

/**
 * A validated config with every default filled in, frozen. The runtime reads only this, so no
 * code path has to know a default.
 */
export interface ResolvedChatConfig {
  readonly userName: string;
  /** A frozen copy of the adapters record; the adapters themselves are not frozen. */
  readonly adapters: Readonly<Record<string, Adapter>>;
  readonly state: StateAdapter;
  readonly concurrency: ResolvedConcurrency;
  /**
   * The user's choice, or `undefined` when they made none: the fallback (adapter default, then
   * `"thread"`) depends on the message's adapter, so it is applied per message.
   */
  readonly lockScope: LockScopeOption | undefined;
  readonly dedupeTtlMs: number;
  readonly dispatch: DispatchMode;
  /** The in-process retry of State failures after a deferred ack; `null`: none. */
  readonly stateRetry: StateRetryPolicy | null;
  /** Durable turns in force; `null`: off, or the State keeps no turn records. */
  readonly durableTurns: DurableTurnSettings | null;
  readonly logger: Logger;
  readonly observer: Observer;
  readonly clock: Clock;
  readonly onLockConflict: LockConflictOption;
  readonly maxDetached: number;
  readonly maxDetachedPerTenant: number | undefined;
  readonly detachTimeoutMs: number | undefined;
  readonly retryAfterMs: number;
  /** `undefined` when not set: the adapter's default, then 500, applies per stream. */
  readonly streamingUpdateIntervalMs: number | undefined;
  /** `undefined` when not set: upstream's `"..."`; `null`: no placeholder. */
  readonly fallbackStreamingPlaceholderText: string | null | undefined;
  readonly threadHistory: ResolvedThreadHistory;
  readonly userCacheTtlMs: number;
  /**
   * Settings that are valid but will not do what the user probably meant (e.g. `maxConcurrent`
   * with a strategy other than `concurrent`). The runtime logs each once at construction.
   */
  readonly warnings: readonly string[];
}
