import { randomUUID } from "node:crypto";
import {
  type Lock,
  type QueueEntry,
  type RecoveredTurn,
  type TakeQueuedTurnOptions,
  type TurnHandBackReason,
  type TurnRecord,
  type TurnWrite,
} from "@baton/core";
import { FENCE_RECORD_TTL_MS } from "./keys.js";
import type { LockDeps } from "./locks.js";
import {
  INSPECT_TURN,
  PENDING_TURNS,
  RECOVER_TURN,
  TAKE_QUEUED_TURN,
  UNDO_RECOVER_TURN,
  WRITE_TURN,
} from "./turn-scripts.js";
import {
  assertPositiveInteger,
  assertReady,
  assertTtlMs,
  NO_KEY,
  parseStored,
  pxArgument,
  startedAtArg,
  turnWriteArgs,
} from "./validate.js";

// TurnState (DESIGN §6.1) on Redis: one script per call, all keys of one call in the lock key's
// bucket slot (lock, fence record, queue, turn record, index shards), so every call also runs on
// a Redis Cluster. See turn-scripts.ts for the record's layout and its index.

/** What `pendingTurnKeys()` returns when no limit is given. */
const DEFAULT_PENDING_LIMIT = 100;

/** A record as the scripts reply: entries JSON, fence, attempt, startedAt, handedBack or ''. */
type RecordReply = readonly [string, string | number, string | number, string | number, string];

/**
 * Up to `limit` lock keys whose turn record waits with its lease ended, from the shards of the
 * pending-turn index: one script per shard (`ZRANGEBYSCORE` below the server's now), sent
 * together — pipelined, to every master at once on a cluster — never a keyspace scan. Shards are
 * visited from a random one on, so with more than `limit` waiting no shard is always last.
 */
export async function pendingTurnKeys(
  { connection, keys }: LockDeps,
  limit = DEFAULT_PENDING_LIMIT,
): Promise<string[]> {
  const step = "list pending turns";
  assertReady(connection, step, NO_KEY);
  assertPositiveInteger(step, "limit", limit);
  const shards = keys.pendingTurnShards;
  const start = Math.floor(Math.random() * shards.length);
  const ordered = [...shards.slice(start), ...shards.slice(0, start)];
  const found = await Promise.all(
    ordered.map((shard) =>
      connection.script<string[]>(step, PENDING_TURNS, [shard], [String(limit)]),
    ),
  );
  return found.flat().slice(0, limit);
}

/**
 * One script: when the record is there and the lock free or expired, takes the lock with the
 * key's next fence and moves the record to it (attempt + 1, `startedAt`, no `handedBack`). With
 * `replication`, a `WAIT` follows; an unconfirmed take-over is undone — lock freed, record put
 * back as it was, so it costs the turn no attempt — and the call rejects.
 */
export async function recoverTurn(
  deps: LockDeps,
  key: string,
  ttlMs: number,
  options: { readonly startedAt: number },
): Promise<RecoveredTurn | null> {
  const { connection, keys, replicas } = deps;
  const step = "recover turn";
  assertReady(connection, step, key);
  assertTtlMs(step, ttlMs);
  const startedAt = startedAtArg(step, options?.startedAt);
  const token = randomUUID();
  const reply = await connection.script<[number, number, ...RecordReply] | []>(
    step,
    RECOVER_TURN,
    [keys.lock(key), keys.fence(key), keys.turn(key), keys.pendingTurnShard(key)],
    [token, pxArgument(ttlMs), String(FENCE_RECORD_TTL_MS), key, startedAt],
  );
  if (reply.length === 0) return null;
  const [fence, expiresAt, ...old] = reply;
  const lock: Lock = { key, token, fence: Number(fence), expiresAt: Number(expiresAt) };
  const interrupted = toRecord(step, key, old);
  try {
    await replicas?.confirm(step, keys.lock(key));
  } catch (error) {
    await connection
      .script(
        step,
        UNDO_RECOVER_TURN,
        [keys.lock(key), keys.turn(key), keys.pendingTurnShard(key)],
        [token, key, String(lock.fence), String(old[1]), String(old[2]), String(old[3]), old[4]],
      )
      .catch(() => 0);
    throw error;
  }
  return { lock, interrupted };
}

/**
 * One script: when `lock.token` holds the lock, `LPOP maxEntries` of its queue and — if any came
 * out — a new turn record of them (attempt 1, the lock's fence), replacing the previous one. The
 * queue leaves the pending-queue index when emptied, in the same step.
 */
export async function takeQueuedTurn(
  { connection, keys }: LockDeps,
  lock: Lock,
  options: TakeQueuedTurnOptions,
): Promise<QueueEntry[]> {
  const step = "take queued turn";
  assertReady(connection, step, lock?.key as string);
  assertPositiveInteger(step, "maxEntries", options?.maxEntries);
  const startedAt = startedAtArg(step, options.startedAt);
  const key = lock.key;
  const taken = await connection.script<string[]>(
    step,
    TAKE_QUEUED_TURN,
    [
      keys.lock(key),
      keys.queue(key),
      keys.pendingShard(key),
      keys.turn(key),
      keys.pendingTurnShard(key),
    ],
    [String(lock.token), String(options.maxEntries), startedAt, key],
  );
  return taken.map((text) => parseStored(step, key, text) as unknown as QueueEntry);
}

/**
 * One script: when `lock.token` holds the lock, sets the record's entries and startedAt — kept
 * attempt for a record of the lock's fence, else a new record with attempt 1.
 */
export async function writeTurn(
  { connection, keys }: LockDeps,
  lock: Lock,
  turn: TurnWrite,
): Promise<boolean> {
  const step = "write turn";
  assertReady(connection, step, lock?.key as string);
  const [entries, startedAt] = turnWriteArgs(step, turn);
  const reply = await connection.script<number>(
    step,
    WRITE_TURN,
    [keys.lock(lock.key), keys.turn(lock.key), keys.pendingTurnShard(lock.key)],
    [String(lock.token), entries, startedAt, lock.key],
  );
  return Number(reply) === 1;
}

/** One script (`HMGET` of the record's fields). */
export async function inspectTurn(
  { connection, keys }: LockDeps,
  key: string,
): Promise<TurnRecord | null> {
  const step = "inspect turn";
  assertReady(connection, step, key);
  const reply = await connection.script<RecordReply | []>(step, INSPECT_TURN, [keys.turn(key)], []);
  return reply.length === 0 ? null : toRecord(step, key, reply);
}

function toRecord(step: string, key: string, reply: RecordReply): TurnRecord {
  const [entries, fence, attempt, startedAt, handedBack] = reply;
  const record = {
    key,
    entries: parseStored(step, key, entries) as unknown as QueueEntry[],
    fence: Number(fence),
    attempt: Number(attempt),
    startedAt: Number(startedAt),
  };
  return handedBack === "" ? record : { ...record, handedBack: handedBack as TurnHandBackReason };
}
