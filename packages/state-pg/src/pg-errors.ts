import { isBatonError, StateError, ValidationError } from "@baton/core";

/** The SQLSTATE of a server error, or `undefined` for a client-side failure. */
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Client-side failures node-postgres reports when it waited too long. */
const CLIENT_TIMEOUT_MESSAGES = [
  "Query read timeout",
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
  "timeout expired",
];

/** postgres.js' codes for waiting too long: to connect, for a connection, for an answer. */
const POSTGRES_JS_TIMEOUTS = new Set(["CONNECT_TIMEOUT", "QUEUE_TIMEOUT", "QUERY_TIMEOUT"]);

/** True for node-postgres giving up on a statement itself (its `query_timeout`). */
export function isClientTimeout(error: unknown): boolean {
  return sqlState(error) === undefined && messageOf(error).includes("Query read timeout");
}

/**
 * True when the failure leaves the connection unusable or in an unknown state, so it must be
 * destroyed rather than returned to the pool: no server error at all (socket closed, reset, read
 * timeout with the query still running), or a server error about the connection itself. A plain
 * SQL error (bad input, a cancelled statement) leaves the connection healthy.
 */
export function breaksConnection(error: unknown): boolean {
  const state = sqlState(error);
  if (state === undefined) return true;
  return state.startsWith("08") || state.startsWith("57P") || state.startsWith("53");
}

/**
 * Turns any failure of a step into a Baton error that says what to do, keeping the original as
 * `cause`:
 * - bad data the server refused (SQLSTATE class 22: NUL characters, out-of-range TTLs, text that
 *   is not valid UTF-8) → `ValidationError`;
 * - no answer in time (statement_timeout, lock_timeout, a client read or connect timeout) →
 *   `StateError` `timeout`;
 * - a pool that was ended (by `disconnect()`, or by its owner) → `StateError` `disconnected`;
 * - everything else — refused, reset or terminated connections, server shutdown, missing
 *   tables, too many connections — → `StateError` `unavailable`.
 * Baton errors pass through unchanged.
 */
export function toBatonError(step: string, error: unknown): Error {
  if (isBatonError(error)) return error;
  const state = sqlState(error);
  const message = messageOf(error);
  if (state?.startsWith("22")) {
    return new ValidationError(`Postgres refused the data: ${message}`, { step, cause: error });
  }
  if (state === "57014" || state === "55P03") {
    return new StateError("timeout", `Postgres cancelled the statement: ${message}`, {
      step,
      cause: error,
    });
  }
  if (state === undefined && CLIENT_TIMEOUT_MESSAGES.some((text) => message.includes(text))) {
    return new StateError("timeout", `no answer from Postgres in time (${message})`, {
      step,
      cause: error,
    });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (state === undefined && typeof code === "string" && POSTGRES_JS_TIMEOUTS.has(code)) {
    return new StateError("timeout", `no answer from Postgres in time (${message})`, {
      step,
      cause: error,
    });
  }
  if (state === undefined && code === "CONNECTION_ENDED") {
    return new StateError("disconnected", `the postgres.js instance was ended: ${message}`, {
      step,
      cause: error,
    });
  }
  if (state === undefined && message.includes("after calling end on the pool")) {
    return new StateError("disconnected", `the pool was ended: ${message}`, { step, cause: error });
  }
  const detail = state === undefined ? message : `${message} (SQLSTATE ${state})`;
  return new StateError("unavailable", `Postgres is unavailable: ${detail}`, {
    step,
    cause: error,
  });
}
