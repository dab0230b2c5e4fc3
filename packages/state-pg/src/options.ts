import { ConfigError, ConsoleLogger, describeValue, isLogger, type Logger } from "@baton/core";
import type { Pool } from "pg";
import type { AnySql } from "./js-executor.js";

/**
 * Internal, not exported from the package: which client a `url` opens, `"pg"` (node-postgres,
 * today's default) or `"postgres"` (postgres.js). A symbol key, so the unknown-option check
 * never sees it. Exists only while both clients are in the package (issue 26).
 */
export const URL_CLIENT = Symbol("baton.state-pg.url-client");

/** The PostgreSQL client a backend runs on. */
export type PostgresClient = "pg" | "postgres";

/** The schema used when `schema` is not given. */
export const DEFAULT_SCHEMA = "baton";

/** The per-call time budget used when `timeoutMs` is not given. */
export const DEFAULT_TIMEOUT_MS = 5_000;

/** How often expired rows are purged when `purgeIntervalMs` is not given. */
export const DEFAULT_PURGE_INTERVAL_MS = 60_000;

/** The largest delay `setTimeout` honours; longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Lower-case letters, digits and `_`, starting with a letter or `_`, at most 63 bytes (Postgres'
 * identifier limit): such a name means the same quoted or unquoted, so what an operator types in
 * `psql` is what the backend uses.
 */
const SAFE_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

const KNOWN_OPTIONS = new Set([
  "url",
  "pool",
  "sql",
  "schema",
  "keyPrefix",
  "timeoutMs",
  "purgeIntervalMs",
  "logger",
  "fastPaths",
]);

/** Options of {@link createPostgresState}. Exactly one of `url` and `pool` is required. */
export interface PostgresStateOptions {
  /**
   * `postgres://user[:password]@host[:port]/database[?…]`. The backend creates its own pool:
   * `connect()` opens it, `disconnect()` ends it. Name the user in the URL: when the environment
   * has no `USER`, node-postgres sends no user name.
   */
  url?: string;
  /**
   * An existing node-postgres pool, to share connections or configure TLS and auth yourself. The
   * backend does not own it: `disconnect()` never ends it, and its session settings stay yours.
   * Every call is still bounded by `timeoutMs` as with a pool the backend creates.
   */
  pool?: Pool;
  /**
   * Your own postgres.js instance (`postgres(…)` from the `postgres` package), to share
   * connections or configure TLS, auth and pooling yourself. The backend does not own it:
   * `disconnect()` never ends it. Behind a pooler in transaction mode create it with
   * `prepare: false`. Every call is still bounded by `timeoutMs`.
   */
  sql?: AnySql;
  /**
   * The schema holding the backend's tables and fence sequence, created on `connect()`. One
   * schema is one isolated store. Lower-case letters, digits and `_`, not starting with `pg_`.
   * Default `"baton"`.
   */
  schema?: string;
  /**
   * An extra namespace inside the schema: every row carries it, so several stores can share one
   * schema (and its fence sequence, which keeps fences ordered across them). Default `""`.
   */
  keyPrefix?: string;
  /**
   * The most time, in milliseconds, one call (and `connect()`) may take, including waiting for a
   * connection; past it the call rejects with a `StateError` of failure `timeout`, and the
   * server is asked to cancel the statement (a CancelRequest, which PgBouncer forwards). Inside
   * transactions it is also the server's `statement_timeout` (`SET LOCAL`, never a session
   * setting, so it works behind a pooler in transaction mode). Default 5 000.
   */
  timeoutMs?: number;
  /**
   * How often, in milliseconds, this instance deletes expired values, locks, lists and lapsed
   * claims. Reads never return expired rows whatever this is; purging only bounds table size.
   * `0` turns the timer off (another instance, or a scheduled `purgeExpired()`, can do it).
   * Default 60 000.
   */
  purgeIntervalMs?: number;
  /** Where migrations, purges and connection problems are logged. Default: warnings to console. */
  logger?: Logger;
  /**
   * Offer the fused fast paths of DESIGN §4.1, which the runtime then uses instead of separate
   * calls: `acceptAndAcquire` (dedupe mark + lock + subscription read) and `releaseAndNext`
   * (release + a look at the queue head), one statement each, so an uncontended message costs
   * 2 statements instead of 4. `false` offers neither. Default `true`.
   */
  fastPaths?: boolean;
}

/** {@link PostgresStateOptions} after validation, with defaults applied. */
export interface ResolvedPostgresStateOptions {
  readonly url: string | undefined;
  readonly pool: Pool | undefined;
  readonly sql: AnySql | undefined;
  /** The client the backend runs on: postgres.js for `sql`, node-postgres for `pool`. */
  readonly client: PostgresClient;
  readonly schema: string;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly purgeIntervalMs: number;
  readonly logger: Logger;
  readonly fastPaths: boolean;
}

/**
 * Validates `options` and applies defaults. Throws one `ConfigError` listing every problem, so a
 * deployment is fixed in one pass rather than one restart per mistake.
 */
export function resolvePostgresStateOptions(options: unknown): ResolvedPostgresStateOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ConfigError([`options: must be an object, got ${describeValue(options)}`]);
  }
  const given = options as PostgresStateOptions;
  const {
    url,
    pool,
    sql,
    schema = DEFAULT_SCHEMA,
    keyPrefix = "",
    timeoutMs = DEFAULT_TIMEOUT_MS,
    purgeIntervalMs = DEFAULT_PURGE_INTERVAL_MS,
    fastPaths = true,
  } = given;
  const problems: string[] = [];

  for (const name of Object.keys(given)) {
    if (!KNOWN_OPTIONS.has(name)) {
      problems.push(`${name}: unknown option (known: ${[...KNOWN_OPTIONS].join(", ")})`);
    }
  }
  const count = [url, pool, sql].filter((value) => value !== undefined).length;
  if (count === 0) {
    problems.push(
      "url, pool or sql: one is required (a postgres:// URL, a pg Pool, or a postgres.js instance)",
    );
  }
  if (count > 1) {
    problems.push(
      "url, pool and sql: give one, not several (a pool or sql instance already knows its server)",
    );
  }
  if (sql !== undefined && !isPostgresJs(sql)) {
    problems.push(
      `sql: must be a postgres.js instance (postgres(…) from "postgres"), got ${isPool(sql) ? "a pg Pool (node-postgres)" : describeValue(sql)}`,
    );
  }
  if (url !== undefined) problems.push(...urlProblems(url));
  if (pool !== undefined && !isPool(pool)) {
    problems.push(`pool: must be a pg Pool (new Pool(…) from "pg"), got ${describeValue(pool)}`);
  }
  problems.push(...schemaProblems(schema));
  if (typeof keyPrefix !== "string") {
    problems.push(`keyPrefix: must be a string, got ${describeValue(keyPrefix)}`);
  } else if (keyPrefix.includes("\u0000")) {
    problems.push("keyPrefix: must not contain NUL characters (Postgres text cannot hold them)");
  }
  if (!isPositiveMs(timeoutMs)) {
    problems.push(
      `timeoutMs: must be a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${describeValue(timeoutMs)}`,
    );
  }
  if (purgeIntervalMs !== 0 && !isPositiveMs(purgeIntervalMs)) {
    problems.push(
      `purgeIntervalMs: must be 0 (off) or a positive number of milliseconds up to ${MAX_TIMER_MS}, got ${describeValue(purgeIntervalMs)}`,
    );
  }
  if (typeof fastPaths !== "boolean") {
    problems.push(`fastPaths: must be true or false, got ${describeValue(fastPaths)}`);
  }
  if (given.logger !== undefined && !isLogger(given.logger)) {
    problems.push("logger: must have debug, info, warn and error methods");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const urlClient = (given as { [URL_CLIENT]?: PostgresClient })[URL_CLIENT] ?? defaultUrlClient();
  return {
    url,
    pool,
    sql,
    client: sql !== undefined ? "postgres" : pool !== undefined ? "pg" : urlClient,
    schema,
    keyPrefix,
    timeoutMs,
    purgeIntervalMs,
    logger: given.logger ?? new ConsoleLogger("warn", "baton:state-pg"),
    fastPaths,
  };
}

function schemaProblems(schema: unknown): string[] {
  if (typeof schema !== "string" || !SAFE_IDENTIFIER.test(schema)) {
    return [
      `schema: must be 1-63 lower-case letters, digits or "_", starting with a letter or "_", got ${describeValue(schema)}`,
    ];
  }
  if (schema.startsWith("pg_")) {
    return [
      `schema: names starting with "pg_" are reserved by Postgres, got ${describeValue(schema)}`,
    ];
  }
  return [];
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
  if (protocol !== "postgres:" && protocol !== "postgresql:") {
    return [
      `url: must start with postgres:// or postgresql://, got ${describeValue(redactPassword(url))}`,
    ];
  }
  return [];
}

function isPositiveMs(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS;
}

function isPool(value: unknown): value is Pool {
  const candidate = value as { connect?: unknown; query?: unknown; end?: unknown } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.connect === "function" &&
    typeof candidate.query === "function" &&
    typeof candidate.end === "function"
  );
}

/**
 * Internal, while both clients are in the package (issue 26): the package's tests set
 * `BATON_STATE_PG_CLIENT=postgres` to run every file on postgres.js. Unset, a `url` opens
 * node-postgres as before.
 */
function defaultUrlClient(): PostgresClient {
  return process.env.BATON_STATE_PG_CLIENT === "postgres" ? "postgres" : "pg";
}

/** A postgres.js `Sql`: a tagged-template function with `unsafe`, `reserve` and `end`. */
function isPostgresJs(value: unknown): value is AnySql {
  const candidate = value as {
    unsafe?: unknown;
    reserve?: unknown;
    end?: unknown;
    options?: unknown;
  };
  return (
    typeof value === "function" &&
    typeof candidate.unsafe === "function" &&
    typeof candidate.reserve === "function" &&
    typeof candidate.end === "function" &&
    typeof candidate.options === "object"
  );
}

/** Keeps a password out of error messages and logs. */
export function redactPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
