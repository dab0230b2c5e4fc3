import { LOCK_TOKEN, NEXT_FENCE, NOW_MS, script, TURN_RECORD } from "./lua.js";

// The turn-record scripts of DESIGN §6.1 (TurnState in @baton/core). A record is a hash next to
// its lock (same hash tag, so one slot): fields entries (a JSON array of queue entries, stored as
// text and never decoded in Lua), fence, attempt, startedAt, and handedBack once handed back. It
// has no TTL. Its key is listed in the pending-turn shard of its bucket from the step that writes
// it until the step that deletes it, scored with the end of its lock's lease (see TURN_RECORD).

/**
 * KEYS: lock, the lock key's fence record, turn record, pending-turn shard. ARGV: token, ttlMs,
 * fence record TTL in ms, the caller's lock key, startedAt.
 * Reply: `{}` when there is no record or the lock is live, else `{fence, expiresAtMs, entries,
 * old fence, old attempt, old startedAt, old handedBack or ''}`. Takes the lock with the key's
 * next fence and moves the record to it: attempt + 1, the new startedAt, no handedBack. An index
 * entry without a record (the record deleted behind the backend's back) is dropped on the way.
 */
export const RECOVER_TURN = script(
  "recover turn",
  `${NEXT_FENCE}
${TURN_RECORD}
local old = redis.call('HMGET', KEYS[3], 'entries', 'fence', 'attempt', 'startedAt', 'handedBack')
if not old[1] then
  redis.call('ZREM', KEYS[4], ARGV[4])
  return {}
end
if redis.call('EXISTS', KEYS[1]) == 1 then return {} end
local fence = string.format('%.0f', next_fence(KEYS[2], ARGV[3]))
redis.call('SET', KEYS[1], fence .. ':' .. ARGV[1], 'PX', ARGV[2])
local expires_at = redis.call('PEXPIRETIME', KEYS[1])
local attempt = string.format('%.0f', (tonumber(old[3]) or 0) + 1)
redis.call('HSET', KEYS[3], 'fence', fence, 'attempt', attempt, 'startedAt', ARGV[5])
redis.call('HDEL', KEYS[3], 'handedBack')
redis.call('ZADD', KEYS[4], string.format('%.0f', expires_at), ARGV[4])
return {tonumber(fence), expires_at, old[1], old[2] or '', old[3] or '', old[4] or '',
  old[5] or ''}`,
);

/**
 * Undoes a {@link RECOVER_TURN} whose lock `replication` could not confirm: frees the lock if the
 * token still holds it, and puts the record's fence, attempt, startedAt and handedBack back if it
 * still has the recovery's fence, so the failed take-over costs the turn no attempt.
 * KEYS: lock, turn record, pending-turn shard. ARGV: token, the caller's lock key, the recovery's
 * fence, then the old fence, attempt, startedAt and handedBack ('' for none). Reply: 1.
 */
export const UNDO_RECOVER_TURN = script(
  "undo turn recovery",
  `${LOCK_TOKEN}
${TURN_RECORD}
local value = redis.call('GET', KEYS[1])
if value and lock_token(value) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  touch_turn_index(KEYS[3], ARGV[2], 0)
end
if redis.call('HGET', KEYS[2], 'fence') == ARGV[3] then
  redis.call('HSET', KEYS[2], 'fence', ARGV[4], 'attempt', ARGV[5], 'startedAt', ARGV[6])
  if ARGV[7] == '' then
    redis.call('HDEL', KEYS[2], 'handedBack')
  else
    redis.call('HSET', KEYS[2], 'handedBack', ARGV[7])
  end
end
return 1`,
);

/**
 * KEYS: lock, queue, pending-queue shard, turn record, pending-turn shard. ARGV: token,
 * maxEntries, startedAt, the caller's lock key.
 * Reply: the taken entries' JSON, oldest first; `{}` when the token does not hold the lock or the
 * queue is empty. `LPOP n` and the new record (attempt 1, the lock's fence) are one step, so a
 * taken entry is always in the queue or in the record. The queue leaves its index when emptied.
 */
export const TAKE_QUEUED_TURN = script(
  "take queued turn",
  `${LOCK_TOKEN}
${TURN_RECORD}
local value = redis.call('GET', KEYS[1])
if not value or lock_token(value) ~= ARGV[1] then return {} end
local taken = redis.call('LPOP', KEYS[2], ARGV[2])
if redis.call('LLEN', KEYS[2]) == 0 then redis.call('SREM', KEYS[3], ARGV[4]) end
if not taken then return {} end
write_turn(KEYS[4], KEYS[5], ARGV[4], lock_fence(value), '1', ARGV[3],
  '[' .. table.concat(taken, ',') .. ']', redis.call('PEXPIRETIME', KEYS[1]))
return taken`,
);

/**
 * KEYS: lock, turn record, pending-turn shard. ARGV: token, entries (JSON array), startedAt, the
 * caller's lock key. Reply: 1 when written, 0 when the token does not hold the lock. A record of
 * the lock's fence keeps its attempt; any other is replaced by a new one with attempt 1.
 */
export const WRITE_TURN = script(
  "write turn",
  `${LOCK_TOKEN}
${TURN_RECORD}
local value = redis.call('GET', KEYS[1])
if not value or lock_token(value) ~= ARGV[1] then return 0 end
local fence = lock_fence(value)
local lease_end = redis.call('PEXPIRETIME', KEYS[1])
if redis.call('HGET', KEYS[2], 'fence') == fence then
  redis.call('HSET', KEYS[2], 'entries', ARGV[2], 'startedAt', ARGV[3])
  redis.call('ZADD', KEYS[3], string.format('%.0f', lease_end), ARGV[4])
else
  write_turn(KEYS[2], KEYS[3], ARGV[4], fence, '1', ARGV[3], ARGV[2], lease_end)
end
return 1`,
);

/**
 * KEYS: turn record. Reply: `{}` when absent, else `{entries, fence, attempt, startedAt,
 * handedBack or ''}` (an array, never a map: the same under RESP2 and RESP3).
 */
export const INSPECT_TURN = script(
  "inspect turn",
  `
local record = redis.call('HMGET', KEYS[1], 'entries', 'fence', 'attempt', 'startedAt', 'handedBack')
if not record[1] then return {} end
return {record[1], record[2] or '', record[3] or '', record[4] or '', record[5] or ''}`,
);

/**
 * KEYS: one pending-turn shard. ARGV: limit. Reply: up to `limit` lock keys of the shard whose
 * lease ended before the server's now (score 0: freed), longest-interrupted first. Redis expires
 * a key once now is past its PEXPIRETIME, hence the exclusive bound.
 */
export const PENDING_TURNS = script(
  "list pending turns",
  `${NOW_MS}
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. string.format('%.0f', now_ms()),
  'LIMIT', 0, ARGV[1])`,
);
