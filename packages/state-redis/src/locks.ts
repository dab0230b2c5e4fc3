import { randomUUID } from "node:crypto";
import type { AcquireLockOptions, Lock, ReleaseLockOptions } from "@baton/core";
import type { RedisConnection } from "./connection.js";
import { FENCE_RECORD_TTL_MS, type RedisKeyLayout } from "./keys.js";
import type { ReplicaConfirmation } from "./replication.js";
import { ACQUIRE_LOCK, EXTEND_LOCK, FORCE_RELEASE_LOCK, RELEASE_LOCK } from "./scripts.js";
import {
  assertReady,
  assertTtlMs,
  optionalTurnWriteArgs,
  pxArgument,
  turnReleaseArgs,
} from "./validate.js";

/** What the lock calls need of their backend. */
export interface LockDeps {
  readonly connection: RedisConnection;
  readonly keys: RedisKeyLayout;
  readonly replicas: ReplicaConfirmation | undefined;
}

/** A release that ends the turn record the lock itself wrote (giving back an unconfirmed lock). */
const END_TURN: ReleaseLockOptions = { turn: { kind: "end" } };

/**
 * One script: `SET PX` of the lock with the next fence of this key (lock and fence record share a
 * slot), and with `options.turn` the turn record in the same step — refused (`null`) while an
 * interrupted turn's record waits on the key. `expiresAt` is the key's PEXPIRETIME: epoch
 * milliseconds by the Redis server's clock. With `replication`, a `WAIT` follows; an unconfirmed
 * lock is released (its turn record ended) and the call rejects.
 */
export async function acquireLock(
  deps: LockDeps,
  key: string,
  ttlMs: number,
  options?: AcquireLockOptions,
): Promise<Lock | null> {
  const { connection, keys, replicas } = deps;
  const step = "acquire lock";
  assertReady(connection, step, key);
  assertTtlMs(step, ttlMs);
  const [entries, startedAt] = optionalTurnWriteArgs(step, options?.turn);
  const token = randomUUID();
  const reply = await connection.script<[number, number] | []>(
    step,
    ACQUIRE_LOCK,
    [keys.lock(key), keys.fence(key), keys.turn(key), keys.pendingTurnShard(key)],
    [token, pxArgument(ttlMs), String(FENCE_RECORD_TTL_MS), key, entries, startedAt],
  );
  if (reply.length === 0) return null;
  const lock = { key, token, fence: Number(reply[0]), expiresAt: Number(reply[1]) };
  try {
    await replicas?.confirm(step, keys.lock(key));
  } catch (error) {
    // Not on enough replicas: a failover could hand the key to someone else while our handler
    // runs. Give it back (best effort) and fail, so nothing starts under it.
    await releaseLock(deps, lock, entries === "" ? undefined : END_TURN).catch(() => false);
    throw error;
  }
  return lock;
}

/** One script: compares the token, then `PEXPIRE`; an expired key is gone, never revived. */
export async function extendLock(deps: LockDeps, lock: Lock, ttlMs: number): Promise<boolean> {
  const { connection, keys, replicas } = deps;
  const step = "extend lock";
  assertReady(connection, step, lock?.key as string);
  assertTtlMs(step, ttlMs);
  const reply = await connection.script<number>(
    step,
    EXTEND_LOCK,
    [keys.lock(lock.key), keys.pendingTurnShard(lock.key)],
    [String(lock.token), pxArgument(ttlMs), lock.key],
  );
  if (reply === 1) await replicas?.confirm(step, keys.lock(lock.key));
  return reply === 1;
}

/**
 * One script: compares the token, then `DEL`; with `options.turn`, ends (`DEL`) or hands back
 * (`HSET handedBack`) the key's turn record in the same step when its fence is the lock's.
 */
export async function releaseLock(
  { connection, keys }: LockDeps,
  lock: Lock,
  options?: ReleaseLockOptions,
): Promise<boolean> {
  const step = "release lock";
  assertReady(connection, step, lock?.key as string);
  const [mode, reason] = turnReleaseArgs(step, options);
  const reply = await connection.script<number>(
    step,
    RELEASE_LOCK,
    [keys.lock(lock.key), keys.turn(lock.key), keys.pendingTurnShard(lock.key)],
    [String(lock.token), lock.key, mode, reason, String(lock.fence)],
  );
  return reply === 1;
}

/** One script: `DEL` of the lock; a turn record on the key stays, listed as interrupted. */
export async function forceReleaseLock({ connection, keys }: LockDeps, key: string): Promise<void> {
  const step = "force-release lock";
  assertReady(connection, step, key);
  await connection.script(
    step,
    FORCE_RELEASE_LOCK,
    [keys.lock(key), keys.pendingTurnShard(key)],
    [key],
  );
}
