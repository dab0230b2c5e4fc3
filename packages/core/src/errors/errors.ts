import { BatonError, type BatonErrorOptions } from "./baton-error.js";
import type { BatonErrorCode } from "./error-codes.js";

/**
 * A configuration problem found at construction. Lists every problem at once, so a user fixes
 * their config in one pass instead of one error per restart.
 */
export class ConfigError extends BatonError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[], options: BatonErrorOptions = {}) {
    const list = problems.map((problem) => `  - ${problem}`).join("\n");
    super("CONFIG_INVALID", `invalid configuration (${problems.length}):\n${list}`, options);
    this.problems = [...problems];
  }
}

/** Input that does not satisfy a contract: a malformed payload, an out-of-range argument. */
export class ValidationError extends BatonError {
  constructor(message: string, options: BatonErrorOptions = {}) {
    super("VALIDATION_FAILED", message, options);
  }
}

/** The reason a State call failed. */
export type StateFailure = "disconnected" | "unavailable" | "timeout";

const STATE_CODES = {
  disconnected: "STATE_DISCONNECTED",
  unavailable: "STATE_UNAVAILABLE",
  timeout: "STATE_TIMEOUT",
} as const;

/**
 * A State backend call failed. `disconnected`: called before `connect()` or after
 * `disconnect()`; `unavailable`: the server could not be reached; `timeout`: no answer within the
 * backend's `timeoutMs`. A timeout is a failure, never a silent success.
 */
export class StateError extends BatonError {
  readonly failure: StateFailure;

  constructor(failure: StateFailure, message: string, options: BatonErrorOptions = {}) {
    super(STATE_CODES[failure], message, options);
    this.failure = failure;
  }
}

/** A lock could not be taken because another holder has it (upstream's `LockError`). */
export class LockError extends BatonError {
  constructor(message: string, options: BatonErrorOptions = {}) {
    super("LOCK_FAILED", message, options);
  }
}

/**
 * The lease on a lock was lost while work ran under it: an extend returned false, or failed for
 * longer than the remaining lease. The handler's `context.signal` aborts with this error.
 */
export class LockLostError extends BatonError {
  readonly lockKey: string;
  readonly fence: number;

  constructor(lockKey: string, fence: number, message: string, options: BatonErrorOptions = {}) {
    super("LOCK_LOST", message, options);
    this.lockKey = lockKey;
    this.fence = fence;
  }
}

/**
 * A delivery was refused before anything was written, because this instance is at its admission
 * bound or shutting down. Webhook adapters answer 503 with `Retry-After: retryAfterMs / 1000`.
 */
export class AdmissionRejectedError extends BatonError {
  readonly retryAfterMs: number;
  readonly scope: "instance" | "tenant" | "shutdown";

  constructor(
    scope: "instance" | "tenant" | "shutdown",
    retryAfterMs: number,
    message: string,
    options: BatonErrorOptions = {},
  ) {
    super("ADMISSION_REJECTED", message, options);
    this.scope = scope;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A platform call made by an adapter failed. `adapter` names the platform adapter. */
export class AdapterError extends BatonError {
  readonly adapter: string;

  constructor(adapter: string, message: string, options: BatonErrorOptions = {}) {
    super("ADAPTER_FAILED", message, options);
    this.adapter = adapter;
  }
}

/** The platform refused a call for rate limiting; `retryAfterMs` is its hint when it gave one. */
export class RateLimitError extends BatonError {
  readonly retryAfterMs: number | undefined;

  constructor(message: string, retryAfterMs?: number, options: BatonErrorOptions = {}) {
    super("RATE_LIMITED", message, options);
    this.retryAfterMs = retryAfterMs;
  }
}

/** An optional capability the adapter or backend does not offer; `feature` names it. */
export class NotImplementedError extends BatonError {
  /** The code instances of this class carry; a subclass narrows it (see NotSupportedError). */
  protected static readonly errorCode: BatonErrorCode = "NOT_IMPLEMENTED";
  readonly feature: string | undefined;

  constructor(message: string, feature?: string, options: BatonErrorOptions = {}) {
    super((new.target as typeof NotImplementedError).errorCode, message, options);
    this.feature = feature;
  }
}

/**
 * What each adapter capability is, in the words of upstream's errors ("Scheduled messages are not
 * supported by this adapter"); keyed by the capability names of `AdapterCapabilities`.
 */
const FEATURE_DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  streaming: "Native streaming",
  cards: "Cards",
  modals: "Modals",
  ephemeral: "Ephemeral messages",
  scheduling: "Scheduled messages",
  reactions: "Reactions",
  editMessage: "Message edits",
  deleteMessage: "Message deletes",
  typing: "Typing indicators",
  history: "Message histories",
  openDM: "Direct messages",
  getUser: "User lookups",
  files: "File uploads",
  readReceipts: "Read receipts",
  replies: "Message replies",
});

/**
 * The platform behind `adapter` cannot do `feature` (one of the adapter capability names, such as
 * `scheduling` or `ephemeral`), and the call has no documented fallback. Raised before any platform
 * call. It is a `NotImplementedError` too, so code written for upstream's error keeps working.
 */
export class NotSupportedError extends NotImplementedError {
  protected static override readonly errorCode: BatonErrorCode = "NOT_SUPPORTED";
  /** The adapter's name. */
  readonly adapter: string;
  declare readonly feature: string;

  /**
   * `description` says what the feature is ("Scheduled messages"); the message reads
   * `Scheduled messages are not supported by this adapter (adapter "slack", feature "scheduling")`.
   */
  constructor(
    adapter: string,
    feature: string,
    options: BatonErrorOptions & { description?: string } = {},
  ) {
    const { description, ...rest } = options;
    const known =
      description ??
      (Object.hasOwn(FEATURE_DESCRIPTIONS, feature) ? FEATURE_DESCRIPTIONS[feature] : undefined);
    const what = known ?? `The feature "${feature}"`;
    const plural = known === undefined ? "is" : "are";
    super(
      `${what} ${plural} not supported by this adapter (adapter "${adapter}", feature "${feature}")`,
      feature,
      rest,
    );
    this.adapter = adapter;
  }
}

/** Work refused or interrupted because `shutdown()` began. */
export class ShutdownError extends BatonError {
  constructor(message: string, options: BatonErrorOptions = {}) {
    super("SHUTTING_DOWN", message, options);
  }
}

/** Detached work ran past `detachTimeoutMs`; the handler's `context.signal` aborts with this. */
export class DetachTimeoutError extends BatonError {
  readonly timeoutMs: number;

  constructor(timeoutMs: number, message: string, options: BatonErrorOptions = {}) {
    super("DETACH_TIMEOUT", message, options);
    this.timeoutMs = timeoutMs;
  }
}
