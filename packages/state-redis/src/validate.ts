import {
  assertStateKey,
  type JsonValue,
  type ReleaseLockOptions,
  StateError,
  type TurnWrite,
  ValidationError,
} from "@baton/core";

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

/**
 * The script arguments of a turn write (`writeTurn`, and the `turn` of `acquireLock` and
 * `acceptAndAcquire`): the entries as one JSON array text, and `startedAt`. Same check and words
 * as the reference backend (@baton/state-memory's `assertTurnWrite`).
 */
export function turnWriteArgs(step: string, turn: TurnWrite): [string, string] {
  if (!Array.isArray(turn?.entries) || !Number.isFinite(turn.startedAt)) {
    throw new ValidationError(
      `turn must be { entries: QueueEntry[], startedAt: epoch milliseconds }, got entries ${typeof turn?.entries} and startedAt ${turn?.startedAt}`,
      { step },
    );
  }
  return [toJson(step, "turn.entries", turn.entries), String(turn.startedAt)];
}

/** {@link turnWriteArgs} of an optional `turn`: `["", ""]` (no turn) when absent. */
export function optionalTurnWriteArgs(step: string, turn: TurnWrite | undefined): [string, string] {
  return turn === undefined ? ["", ""] : turnWriteArgs(step, turn);
}

/** `startedAt` as a script argument: a finite number of epoch milliseconds. */
export function startedAtArg(step: string, startedAt: number): string {
  if (typeof startedAt !== "number" || !Number.isFinite(startedAt)) {
    throw new ValidationError(
      `startedAt must be a finite number of epoch milliseconds, got ${startedAt}`,
      { step },
    );
  }
  return String(startedAt);
}

/**
 * The script arguments of a release's `turn` option: mode (`""` without one, `end`,
 * `hand-back`) and the hand-back reason.
 */
export function turnReleaseArgs(
  step: string,
  options: ReleaseLockOptions | undefined,
): [string, string] {
  const turn = options?.turn;
  if (turn === undefined) return ["", ""];
  if (turn?.kind === "end") return ["end", ""];
  if (turn?.kind === "hand-back" && (turn.reason === "shutdown" || turn.reason === "lease-lost")) {
    return ["hand-back", turn.reason];
  }
  throw new ValidationError(
    `turn must be { kind: "end" } or { kind: "hand-back", reason: "shutdown" | "lease-lost" }, got ${JSON.stringify(turn)}`,
    { step },
  );
}
