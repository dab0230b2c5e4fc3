import { type Clock, systemClock } from "../clock/index.js";
import type { Adapter } from "../contracts/adapter.js";
import { ConsoleLogger, type Logger, type LogLevel } from "../contracts/logger.js";
import type { Observer } from "../contracts/observer.js";
import type { StateAdapter } from "../contracts/state.js";
import {
  type ConfigProblems,
  describeValue,
  isPlainObject,
  listChoices,
} from "./config-problems.js";
import {
  ADAPTER_OPTIONAL_METHODS,
  ADAPTER_REQUIRED_METHODS,
  missingMethods,
  STATE_REQUIRED_METHODS,
} from "./contract-methods.js";
import { adaptLogger } from "./logger-adapter.js";

const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];
const LOGGER_METHODS = ["debug", "info", "warn", "error"] as const;
const OBSERVER_METHODS = ["startDispatch", "count", "recordDurationMs"] as const;
const CLOCK_METHODS = ["now", "setTimeout", "clearTimeout"] as const;

/** `a, b and c` for a list of names in a problem message. */
function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Checks the adapters record: a non-empty object whose every key is its adapter's `name`, and
 * whose every adapter has the Adapter contract's methods. Returns a frozen shallow copy.
 */
export function checkAdapters(
  found: ConfigProblems,
  value: unknown,
): Readonly<Record<string, Adapter>> {
  if (!isPlainObject(value)) {
    found.add(
      "adapters",
      `must be an object of adapters keyed by name, e.g. { slack: … }, got ${describeValue(value)}`,
    );
    return Object.freeze({});
  }
  const entries = Object.entries(value);
  if (entries.length === 0) found.add("adapters", "must hold at least one adapter, got none");
  for (const [key, adapter] of entries) checkAdapter(found, `adapters.${key}`, key, adapter);
  return Object.freeze({ ...(value as Record<string, Adapter>) });
}

function checkAdapter(found: ConfigProblems, path: string, key: string, adapter: unknown): void {
  if (typeof adapter !== "object" || adapter === null) {
    found.add(path, `must be an adapter object, got ${describeValue(adapter)}`);
    return;
  }
  const record = adapter as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== "string" || name === "") {
    found.add(path, `the adapter's name must be a non-empty string, got ${describeValue(name)}`);
  } else if (name !== key) {
    // Webhooks, thread ids and the route of queued messages are all looked up by this key.
    found.add(path, `key must equal the adapter's name ${JSON.stringify(name)}`);
  } else if (name.includes(":")) {
    found.add(path, `the adapter's name must not contain ":" (thread ids are "{name}:{…}")`);
  }
  const missing = missingMethods(adapter, ADAPTER_REQUIRED_METHODS);
  if (missing.length > 0) {
    found.add(
      path,
      `the adapter is missing ${listNames(missing)} (required by the Adapter contract)`,
    );
  }
  for (const method of ADAPTER_OPTIONAL_METHODS) {
    const member = record[method];
    if (member !== undefined && typeof member !== "function") {
      found.add(path, `${method} must be a function when present, got ${describeValue(member)}`);
    }
  }
  const scope = record.lockScope;
  if (scope !== undefined && scope !== "thread" && scope !== "channel") {
    found.add(
      path,
      `lockScope must be "thread" or "channel" when present, got ${describeValue(scope)}`,
    );
  }
}

/** Checks that `value` implements every method of the State contract. */
export function checkState(found: ConfigProblems, value: unknown): StateAdapter {
  if (value === undefined) {
    found.add(
      "state",
      "required; pass a Baton State backend, e.g. createMemoryState() from @baton/state-memory",
    );
  } else if (typeof value !== "object" || value === null) {
    found.add("state", `must be a State backend object, got ${describeValue(value)}`);
  } else {
    const missing = missingMethods(value, STATE_REQUIRED_METHODS);
    if (missing.length > 0) {
      found.add(
        "state",
        `not a Baton State backend: missing ${listNames(missing)}. An upstream chat state ` +
          "adapter lacks the atomic operations Baton relies on; use @baton/state-memory, " +
          "@baton/state-redis or @baton/state-pg",
      );
    }
  }
  return value as StateAdapter;
}

/**
 * A `Logger` from the option: the logger itself (a pino logger adapted to Baton's call shape, see
 * {@link adaptLogger}), a console logger of the level, or `info`.
 */
export function resolveLogger(found: ConfigProblems, value: unknown): Logger {
  if (value === undefined) return new ConsoleLogger("info");
  if (typeof value === "string") {
    const level = found.oneOf("logger", value, LOG_LEVELS);
    return new ConsoleLogger(level ?? "info");
  }
  if (typeof value !== "object" || value === null) {
    found.add(
      "logger",
      `must be a Logger or a log level (${listChoices(LOG_LEVELS)}), got ${describeValue(value)}`,
    );
    return new ConsoleLogger("info");
  }
  const missing = missingMethods(value, LOGGER_METHODS);
  if (missing.length > 0) {
    found.add(
      "logger",
      `not a Logger: missing ${listNames(missing)} (a Logger has debug, info, warn and error)`,
    );
    return value as Logger;
  }
  // Baton calls `warn(message, fields)`; pino reads `warn(fields, message)` and would lose fields.
  return adaptLogger(value as Logger);
}

/** The observer, or an observer that records nothing. Present members must be functions. */
export function checkObserver(found: ConfigProblems, value: unknown): Observer {
  if (value === undefined) return Object.freeze({});
  if (typeof value !== "object" || value === null) {
    found.add("observer", `must be an object, got ${describeValue(value)}`);
    return Object.freeze({});
  }
  const record = value as Record<string, unknown>;
  for (const method of OBSERVER_METHODS) {
    if (record[method] !== undefined && typeof record[method] !== "function") {
      found.add(
        `observer.${method}`,
        `must be a function when present, got ${describeValue(record[method])}`,
      );
    }
  }
  return value as Observer;
}

/** The clock, or the system clock. A given clock must have `now`, `setTimeout`, `clearTimeout`. */
export function checkClock(found: ConfigProblems, value: unknown): Clock {
  if (value === undefined) return systemClock;
  if (typeof value !== "object" || value === null) {
    found.add("clock", `must be a Clock object, got ${describeValue(value)}`);
    return systemClock;
  }
  const missing = missingMethods(value, CLOCK_METHODS);
  if (missing.length > 0) {
    found.add("clock", `not a Clock: missing ${listNames(missing)}`);
  }
  return value as Clock;
}
