import { createHash } from "node:crypto";

/**
 * A Lua script run with EVALSHA (falling back to EVAL on NOSCRIPT). Redis runs a script
 * atomically, so each script is one indivisible step and one round trip. Scripts name every key
 * they touch in KEYS (none is built inside Lua), so a Redis Cluster refuses a cross-slot script
 * loudly (CROSSSLOT) rather than running it against the wrong node.
 *
 * Replies use integers, strings and arrays only: Lua booleans and nil map to different types
 * under RESP2 and RESP3, and a client may speak either.
 */
export interface LuaScript {
  readonly name: string;
  readonly source: string;
  readonly sha1: string;
}

export function script(name: string, body: string): LuaScript {
  const source = `-- baton state-redis: ${name}\n${body.trim()}\n`;
  return { name, source, sha1: createHash("sha1").update(source).digest("hex") };
}

// The snippets below are Lua source spliced into the scripts that need them. Numbers handed to
// redis.call are formatted with '%.0f': Lua's default conversion keeps 14 digits, and fences
// have 16.

/** Current server time in epoch milliseconds: expiry is judged by Redis's clock, not ours. */
export const NOW_MS = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

/**
 * Draws the next fence of one lock key: max(previous + 1, the server's time in microseconds),
 * where previous is the key's own fence record (same hash slot as the lock). It strictly
 * increases like a counter, and it keeps increasing when Redis forgets or rewinds the record — a
 * restart without persistence, an eviction, the record's TTL, a failover to a replica that had not
 * received the latest writes — because every fence issued before was at most the time it was
 * issued (one key never draws more than one fence per microsecond: each draw is a script of its
 * own), and time has moved on. That last part is the clock assumption: the clocks of the nodes
 * that may serve a slot (master and replicas) agree within less than a failover takes (docs/
 * operations.md). Fences are about 1.8e15 today: safe integers until the year 2255.
 */
export const NEXT_FENCE = `
local function next_fence(record, record_ttl_ms)
  local t = redis.call('TIME')
  local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local previous = tonumber(redis.call('GET', record)) or 0
  local fence = math.max(previous + 1, now_us)
  redis.call('SET', record, string.format('%.0f', fence), 'PX', record_ttl_ms)
  return fence
end`;

/**
 * A lock value is `<fence>:<token>`: `lock_token` is everything after the first colon,
 * `lock_fence` the decimal text before it.
 */
export const LOCK_TOKEN = `
local function lock_token(value)
  return string.sub(value, string.find(value, ':', 1, true) + 1)
end
local function lock_fence(value)
  return string.sub(value, 1, string.find(value, ':', 1, true) - 1)
end`;

/**
 * Turn records (DESIGN §6.1) and their index, for the scripts that write a lock:
 *
 * - `write_turn` replaces the record with a new one (fence text, attempt text, startedAt text,
 *   entries as a JSON array text) and lists it in the pending-turn shard with the lease's end.
 * - `touch_turn_index` moves the key's score to `lease_end` (0: the lock is free) only when the
 *   key is listed (`ZADD XX`): every script that takes, extends or frees a lock calls it, so a
 *   listed key's score is always the end of its lock's lease and a sweep finds the interrupted
 *   turns as the scores below now. On a key without a record it writes nothing.
 * - `release_turn` applies a release's turn option: `end` deletes the record and its index
 *   entry, `hand-back` marks it with the reason; both only when the record's fence is the
 *   releasing lock's (a record a later holder took over is not touched), whether or not the lock
 *   was still held. `mode` '' leaves the record alone.
 */
export const TURN_RECORD = `
local function touch_turn_index(shard, key, lease_end)
  redis.call('ZADD', shard, 'XX', string.format('%.0f', lease_end), key)
end
local function write_turn(record, shard, key, fence, attempt, started_at, entries, lease_end)
  redis.call('DEL', record)
  redis.call('HSET', record, 'fence', fence, 'attempt', attempt, 'startedAt', started_at,
    'entries', entries)
  redis.call('ZADD', shard, string.format('%.0f', lease_end), key)
end
local function release_turn(record, shard, key, mode, reason, fence)
  if mode == '' or redis.call('HGET', record, 'fence') ~= fence then return end
  if mode == 'end' then
    redis.call('DEL', record)
    redis.call('ZREM', shard, key)
  else
    redis.call('HSET', record, 'handedBack', reason)
  end
end`;
