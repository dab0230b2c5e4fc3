import { ConfigError, ConsoleLogger, describeValue, isLogger, type Logger } from "@baton/core";
import type { RedisClientType } from "redis";

/** The key prefix used when `keyPrefix` is not given. */
export const DEFAULT_KEY_PREFIX = "baton";

/** The per-call time budget used when `timeoutMs` is not given. */
export const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A node-redis client as returned by `createClient()` from `redis` (any modules, scripts, RESP 2
 * or 3, any type mapping). Only its commands are used: the backend passes its own type mapping
 * on every command, so a client-level mapping (e.g. to Buffers) does not change what it reads.
 */
// `any` on purpose: a client with any modules, scripts, RESP version or type mapping fits.
export type RedisStateClient = RedisClientType<any, any, any, any, any>;

/** Options of {@link createRedisState}. Exactly one of `url` and `client` is required. */
export interface RedisStateOptions {
  /**
   * `redis[s]://[[user][:password]@]host[:port][/db]`. The backend creates, connects and closes
   * its own client: `connect()` opens it, `disconnect()` closes it.
   */
  url?: string;
  /**
   * An existing node-redis client, for sharing one connection or configuring TLS, sentinel
   * discovery or auth yourself. The backend does not own it: `connect()` requires it to be open
   * already and never opens it, `disconnect()` never closes it, and its reconnect and offline
   * queue settings stay yours (every call is still bounded by `timeoutMs`).
   */
  client?: RedisStateClient;
  /**
   * Prepended to every key this backend writes (`<keyPrefix>:lock:{<key>}`); one prefix is one
   * isolated store with its own fence sequence. Non-empty, without `{` or `}` (they would change
   * the keys' cluster hash tags). Default `"baton"`.
   */
  keyPrefix?: string;
  /**
   * The most time, in milliseconds, one call (and `connect()`) may take; past it the call rejects
   * with a `StateError` of failure `timeout`. Default 5 000.
   */
  timeoutMs?: number;
  /** Where connection problems and recoveries are logged. Default: warnings to the console. */
  logger?: Logger;
}

/** {@link RedisStateOptions} after validation, with defaults applied. */
export interface ResolvedRedisStateOptions {
  readonly url: string | undefined;
  readonly client: RedisStateClient | undefined;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * Validates `options` and applies defaults. Throws one `ConfigError` listing every problem, so a
 * deployment is fixed in one pass rather than one restart per mistake.
 */
export function resolveRedisStateOptions(
  options: RedisStateOptions | undefined,
): ResolvedRedisStateOptions {
  const given: RedisStateOptions = options ?? {};
  const problems: string[] = [];
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new ConfigError([`options must be an object, got ${describeValue(options)}`]);
  }
  const { url, client, keyPrefix = DEFAULT_KEY_PREFIX, timeoutMs = DEFAULT_TIMEOUT_MS } = given;

  if (url === undefined && client === undefined) {
    problems.push("url or client: one is required (a redis:// URL, or a node-redis client)");
  }
  if (url !== undefined && client !== undefined) {
    problems.push("url and client: give one, not both (the client already knows its server)");
  }
  if (url !== undefined) problems.push(...urlProblems(url));
  if (
    client !== undefined &&
    typeof (client as { sendCommand?: unknown })?.sendCommand !== "function"
  ) {
    problems.push(
      `client: must be a node-redis client (from createClient()), got ${describeValue(client)}`,
    );
  }
  if (typeof keyPrefix !== "string" || keyPrefix.length === 0) {
    problems.push(`keyPrefix: must be a non-empty string, got ${describeValue(keyPrefix)}`);
  } else if (/[{}]/.test(keyPrefix)) {
    problems.push(
      `keyPrefix: must not contain "{" or "}" (they would change the keys' cluster hash tags), got ${describeValue(keyPrefix)}`,
    );
  }
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    problems.push(
      `timeoutMs: must be a positive number of milliseconds, got ${describeValue(timeoutMs)}`,
    );
  }
  if (given.logger !== undefined && !isLogger(given.logger)) {
    problems.push("logger: must have debug, info, warn and error methods");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    url,
    client,
    keyPrefix,
    timeoutMs,
    logger: given.logger ?? new ConsoleLogger("warn", "baton:state-redis"),
  };
}

function urlProblems(url: unknown): string[] {
  if (typeof url !== "string" || url.length === 0) {
    return [`url: must be a non-empty string, got ${describeValue(url)}`];
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return [`url: not a valid URL: ${describeValue(redactPassword(url))}`];
  }
  if (protocol !== "redis:" && protocol !== "rediss:") {
    return [
      `url: must start with redis:// or rediss://, got ${describeValue(redactPassword(url))}`,
    ];
  }
  return [];
}

/** Keeps a password out of error messages and logs. */
export function redactPassword(url: string): string {
  return url.replace(/\/\/([^@/]*):([^@/]*)@/, "//$1:***@");
}
