import type { FastPathState, JsonValue, QueueEntry } from "@baton/core";
import type { ExpiringMap } from "./expiring-map.js";
import type { LockTable } from "./lock-table.js";
import { assertTurnRelease, assertTurnWrite } from "./turn-table.js";
import { assertKey, assertTtlMs } from "./validate.js";

/** The parts of a memory backend the fused fast paths read and change. */
export interface FusedParts {
  readonly values: ExpiringMap<JsonValue>;
  readonly subscriptions: ReadonlySet<string>;
  readonly queues: ReadonlyMap<string, readonly QueueEntry[]>;
  readonly locks: LockTable;
  /** Throws unless the backend is connected and `key` (when given) is a valid key. */
  ready(step: string, key?: string): void;
  /** Purges expired entries when the purge interval has passed. */
  maybePurge(): void;
}

/**
 * The fused fast paths (DESIGN §4.1) of a memory backend, offered with `fastPaths: true`. Each
 * runs synchronously inside its promise, so it is atomic like every call of the backend.
 */
export function fusedFastPaths(parts: FusedParts): Required<FastPathState> {
  const { values, subscriptions, queues, locks } = parts;
  return {
    async acceptAndAcquire(request) {
      const step = "accept and acquire";
      parts.ready(step, request?.dedupeKey);
      assertKey(step, request.lockKey);
      assertKey(step, request.threadId);
      assertTtlMs(step, request.dedupeTtlMs);
      assertTtlMs(step, request.lockTtlMs);
      if (request.turn !== undefined) assertTurnWrite(step, request.turn);
      if (values.has(request.dedupeKey)) return { kind: "duplicate" };
      values.set(request.dedupeKey, 1, request.dedupeTtlMs);
      parts.maybePurge();
      const lock = locks.take(request.lockKey, request.lockTtlMs, request.turn);
      if (!lock) return { kind: "busy" };
      return { kind: "acquired", lock, subscribed: subscriptions.has(request.threadId) };
    },

    async releaseAndNext(lock, options = {}) {
      const step = "release lock and peek queue";
      parts.ready(step, lock?.key);
      assertTurnRelease(step, options.turn);
      const released = locks.free(lock, options.turn);
      const head = queues.get(lock.key)?.[0];
      return { released, next: head === undefined ? null : structuredClone(head) };
    },
  };
}
