import { randomUUID } from "node:crypto";
import type {
  AcceptAndAcquireRequest,
  AcceptAndAcquireResult,
  FastPathState,
  Lock,
  QueueEntry,
  ReleaseAndNextResult,
  ReleaseLockOptions,
} from "@baton/core";
import type { RedisConnection } from "./connection.js";
import { FENCE_RECORD_TTL_MS, type RedisKeyLayout } from "./keys.js";
import type { ReplicaConfirmation } from "./replication.js";
import { ACCEPT_AND_ACQUIRE, RELEASE_AND_PEEK, RELEASE_LOCK } from "./scripts.js";
import {
  assertKey,
  assertReady,
  assertTtlMs,
  optionalTurnWriteArgs,
  parseStored,
  pxArgument,
  turnReleaseArgs,
} from "./validate.js";

/** The fused fast paths a backend offers; absent members fall back to the separate calls. */
export type OfferedFastPaths = FastPathState;

/** What the fused paths need of their backend. */
export interface FastPathDeps {
  readonly connection: RedisConnection;
  readonly keys: RedisKeyLayout;
  readonly replicas: ReplicaConfirmation | undefined;
}

/**
 * Which fused paths a backend offers: none with `fastPaths: false`; on a Redis Cluster only
 * `releaseAndNext`, whose keys (lock and queue) share the lock key's bucket slot, while the
 * dedupe mark and the subscription of `acceptAndAcquire` live in slots of their own, and Baton
 * never sends a cross-slot script (ADR 0026). Decided once, at construction.
 */
export function offeredFastPaths(
  deps: FastPathDeps,
  enabled: boolean,
  isCluster: boolean,
): OfferedFastPaths {
  if (!enabled) return {};
  const releaseAndNext = (lock: Lock, options?: ReleaseLockOptions) =>
    releaseAndPeek(deps, lock, options);
  if (isCluster) return { releaseAndNext };
  return { acceptAndAcquire: (request) => acceptAndAcquire(deps, request), releaseAndNext };
}

/**
 * One script (one round trip): dedupe mark, lock with the key's next fence (and `request.turn`'s
 * record, or `busy` while an interrupted turn's record waits on the key), subscription read.
 * With `replication`, an acquired lock is confirmed on replicas like `acquireLock`'s; when that
 * fails, lock, turn record and mark are given back (best effort) before the call rejects, so the
 * platform's retry is processed rather than taken for a duplicate.
 */
async function acceptAndAcquire(
  { connection, keys, replicas }: FastPathDeps,
  request: AcceptAndAcquireRequest,
): Promise<AcceptAndAcquireResult> {
  const step = "accept and acquire";
  assertReady(connection, step, request?.dedupeKey);
  assertKey(step, request.lockKey);
  assertKey(step, request.threadId);
  assertTtlMs(step, request.dedupeTtlMs);
  assertTtlMs(step, request.lockTtlMs);
  const [entries, startedAt] = optionalTurnWriteArgs(step, request.turn);
  const token = randomUUID();
  const dedupeKey = keys.value(request.dedupeKey);
  const lockKey = keys.lock(request.lockKey);
  const turnKeys = [keys.turn(request.lockKey), keys.pendingTurnShard(request.lockKey)];
  const reply = await connection.script<[0] | [1] | [2, number, number, number]>(
    step,
    ACCEPT_AND_ACQUIRE,
    [
      dedupeKey,
      lockKey,
      keys.fence(request.lockKey),
      keys.subscription(request.threadId),
      ...turnKeys,
    ],
    [
      pxArgument(request.dedupeTtlMs),
      token,
      pxArgument(request.lockTtlMs),
      String(FENCE_RECORD_TTL_MS),
      request.lockKey,
      entries,
      startedAt,
    ],
  );
  if (reply[0] === 0) return { kind: "duplicate" };
  if (reply[0] === 1) return { kind: "busy" };
  const [, fence, expiresAt, subscribed] = reply;
  const lock: Lock = {
    key: request.lockKey,
    token,
    fence: Number(fence),
    expiresAt: Number(expiresAt),
  };
  try {
    await replicas?.confirm(step, lockKey);
  } catch (error) {
    const mode = entries === "" ? "" : "end";
    await connection
      .script(
        step,
        RELEASE_LOCK,
        [lockKey, ...turnKeys],
        [token, request.lockKey, mode, "", String(lock.fence)],
      )
      .catch(() => 0);
    await connection.command(step, ["DEL", dedupeKey]).catch(() => 0);
    throw error;
  }
  return { kind: "acquired", lock, subscribed: Number(subscribed) === 1 };
}

/**
 * One script (one round trip): the token-checked release, `options.turn` on the key's turn
 * record (as `releaseLock`'s), and `LINDEX 0` of the lock's queue.
 */
async function releaseAndPeek(
  { connection, keys }: FastPathDeps,
  lock: Lock,
  options?: ReleaseLockOptions,
): Promise<ReleaseAndNextResult> {
  const step = "release lock and peek queue";
  assertReady(connection, step, lock?.key as string);
  const [mode, reason] = turnReleaseArgs(step, options);
  const key = lock.key;
  const reply = await connection.script<[number] | [number, string]>(
    step,
    RELEASE_AND_PEEK,
    [keys.lock(key), keys.queue(key), keys.turn(key), keys.pendingTurnShard(key)],
    [String(lock.token), key, mode, reason, String(lock.fence)],
  );
  const head = reply[1];
  return {
    released: Number(reply[0]) === 1,
    next: head === undefined ? null : (parseStored(step, lock.key, head) as unknown as QueueEntry),
  };
}
