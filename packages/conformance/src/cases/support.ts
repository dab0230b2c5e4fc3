import assert from "node:assert/strict";
import { type BatonErrorCode, isBatonError, type QueueEntry } from "@baton/core";

/** A queue entry whose value is `value`, live for ten minutes from `nowMs`. */
export function queueEntry(value: string | number, nowMs = Date.now()): QueueEntry {
  return { value: { id: value }, enqueuedAt: nowMs, expiresAt: nowMs + 600_000 };
}

/** Asserts that `promise` rejects with a Baton error of `code` (and never resolves). */
export async function assertRejectsWithCode(
  promise: Promise<unknown>,
  code: BatonErrorCode,
  what: string,
): Promise<void> {
  await assert.rejects(
    promise,
    (error: unknown) => {
      assert.ok(isBatonError(error), `${what}: expected a BatonError, got ${String(error)}`);
      assert.equal(error.code, code, `${what}: wrong error code`);
      return true;
    },
    `${what}: expected a rejection with ${code}`,
  );
}

/** Runs `count` calls at once, spread over the clients by `call(i)`. */
export function concurrently<T>(count: number, call: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => call(i)));
}

/** The `id` of a queue entry built by {@link queueEntry}. */
export function entryId(entry: QueueEntry | null): unknown {
  return entry === null ? null : (entry.value as { id: unknown }).id;
}
