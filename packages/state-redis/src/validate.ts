import { assertStateKey, type JsonValue, StateError, ValidationError } from "@baton/core";

export {
  assertEnqueueOptions,
  assertOptionalTtlMs,
  assertPlainObject,
  assertPositiveInteger,
  assertStateKey as assertKey,
  assertTtlMs,
} from "@baton/core";

// The same checks, with the same messages, as the reference backend (@baton/state-memory), so a
// caller sees one behaviour whichever backend it runs on. They run before any command is sent.

/**
 * Serializes `value` for storage. Rejects what JSON cannot hold (`undefined`, a function, a
 * bigint, a cycle) instead of storing something the reader would not get back.
 */
export function toJson(step: string, what: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ValidationError(`${what} must be JSON-serializable: ${String(error)}`, {
      step,
      cause: error,
    });
  }
  if (typeof text !== "string") {
    throw new ValidationError(`${what} must be JSON-serializable, got ${String(value)}`, { step });
  }
  return text;
}

/** A TTL as Redis's PX wants it: a whole number of milliseconds, at least 1. */
export function pxArgument(ttlMs: number): string {
  return String(Math.max(1, Math.ceil(ttlMs)));
}

/** Parses JSON this backend stored; text written behind its back is reported, not thrown raw. */
export function parseStored(step: string, key: string, text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new ValidationError(`the data stored at ${JSON.stringify(key)} is not valid JSON`, {
      step,
      cause: error,
    });
  }
}

/** Marks a call that names no key (only `pendingQueueKeys`). */
export const NO_KEY: unique symbol = Symbol("no key");

/**
 * Rejects when the backend is not connected (first, as the memory backend does), then checks
 * `key` unless the call names none.
 */
export function assertReady(
  connection: { readonly isConnected: boolean },
  step: string,
  key: string | typeof NO_KEY,
): void {
  if (!connection.isConnected) {
    throw new StateError(
      "disconnected",
      "the Redis state is not connected; call connect() first (and not after disconnect())",
      { step },
    );
  }
  if (key !== NO_KEY) assertStateKey(step, key);
}
