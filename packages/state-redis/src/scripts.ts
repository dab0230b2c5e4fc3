import { LOCK_TOKEN, NEXT_FENCE, NOW_MS, script, TURN_RECORD } from "./lua.js";

// Every script that takes, extends or frees a lock also keeps the lock key's entry in the
// pending-turn index at the lease's end (`touch_turn_index`, lua.ts), and those that take or free
// a lock for a turn write or end its record in the same step (DESIGN §6.1).

/**
 * KEYS: lock, the lock key's fence record, turn record, pending-turn shard (one slot).
 * ARGV: token, ttlMs, fence record TTL in ms, the caller's lock key, and for a turn its entries
 * (JSON array) and startedAt — entries '' for a plain acquire.
 * Reply: `{}` when held (or, for a turn, when an interrupted turn's record waits on the key),
 * else `{fence, expiresAtMs}`.
 */
export const ACQUIRE_LOCK = script(
  "acquire lock",
  `${NEXT_FENCE}
${TURN_RECORD}
if redis.call('EXISTS', KEYS[1]) == 1 then return {} end
local turn = ARGV[5] ~= ''
if turn and redis.call('EXISTS', KEYS[3]) == 1 then return {} end
local fence = string.format('%.0f', next_fence(KEYS[2], ARGV[3]))
redis.call('SET', KEYS[1], fence .. ':' .. ARGV[1], 'PX', ARGV[2])
local expires_at = redis.call('PEXPIRETIME', KEYS[1])
if turn then
  write_turn(KEYS[3], KEYS[4], ARGV[4], fence, '1', ARGV[6], ARGV[5], expires_at)
else
  touch_turn_index(KEYS[4], ARGV[4], expires_at)
end
return {tonumber(fence), expires_at}`,
);

/**
 * KEYS: lock, pending-turn shard. ARGV: token, ttlMs, the caller's lock key. Reply: 1 when
 * extended, 0 when the token no longer holds it. GET of an expired key answers nil, so an expired
 * lock is never resurrected.
 */
export const EXTEND_LOCK = script(
  "extend lock",
  `${LOCK_TOKEN}
${TURN_RECORD}
local value = redis.call('GET', KEYS[1])
if not value or lock_token(value) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
touch_turn_index(KEYS[2], ARGV[3], redis.call('PEXPIRETIME', KEYS[1]))
return 1`,
);

/**
 * KEYS: lock, turn record, pending-turn shard. ARGV: token, the caller's lock key, turn mode
 * ('' | 'end' | 'hand-back'), hand-back reason, the releasing lock's fence.
 * Reply: 1 when released, 0 when the token does not hold it (the turn option applies anyway).
 */
export const RELEASE_LOCK = script(
  "release lock",
  `${LOCK_TOKEN}
${TURN_RECORD}
local released = 0
local value = redis.call('GET', KEYS[1])
if value and lock_token(value) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  touch_turn_index(KEYS[3], ARGV[2], 0)
  released = 1
end
release_turn(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
return released`,
);

/** KEYS: lock, pending-turn shard. ARGV: the caller's lock key. Frees the lock, whoever holds it. */
export const FORCE_RELEASE_LOCK = script(
  "force-release lock",
  `${TURN_RECORD}
redis.call('DEL', KEYS[1])
touch_turn_index(KEYS[2], ARGV[1], 0)
return 1`,
);

/**
 * KEYS: lock. Reply: `{}` when free, else `{fence, expiresAtMs}` — never the token.
 * PEXPIRETIME is the absolute expiry Redis holds, so two inspections of an untouched lock agree.
 */
export const INSPECT_LOCK = script(
  "inspect lock",
  `
local value = redis.call('GET', KEYS[1])
if not value then return {} end
local fence = string.sub(value, 1, string.find(value, ':', 1, true) - 1)
return {tonumber(fence), redis.call('PEXPIRETIME', KEYS[1])}`,
);

/**
 * KEYS: queue, its pending-index shard (one slot). ARGV: entry JSON, maxSize, onFull, the
 * caller's queue key.
 * Reply: `{depth, refused (0|1), evicted JSON…}`. The full check, eviction, append and index
 * update are one step, so concurrent enqueues never overfill and never lose an entry.
 */
export const ENQUEUE = script(
  "enqueue",
  `
local depth = redis.call('LLEN', KEYS[1])
local max_size = tonumber(ARGV[2])
if depth >= max_size and ARGV[3] == 'drop-newest' then
  return {depth, 1}
end
local reply = {0, 0}
if depth >= max_size then
  local evicted = redis.call('LPOP', KEYS[1], depth - max_size + 1)
  for i = 1, #evicted do reply[#reply + 1] = evicted[i] end
end
reply[1] = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[4])
return reply`,
);

/**
 * KEYS: queue, its pending-index shard. ARGV: the caller's queue key. Reply: `{}` or `{entry JSON}`.
 * The index entry goes in the same step as the last entry, and a stale index entry (a queue
 * emptied behind the backend's back) is dropped by the next dequeue.
 */
export const DEQUEUE = script(
  "dequeue",
  `
local head = redis.call('LPOP', KEYS[1])
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
if head then return {head} end
return {}`,
);

/**
 * KEYS: list. ARGV: item JSON, maxLength or "", ttlMs or "". Append, trim and TTL refresh in one
 * step; without ttlMs an existing TTL is kept (RPUSH does not touch it).
 */
export const APPEND_TO_LIST = script(
  "append to list",
  `
redis.call('RPUSH', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1) end
if ARGV[3] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1`,
);

/**
 * KEYS: value. ARGV: ttlMs or "", then pairs of (field JSON, value JSON).
 * Reply: `{0}` when the stored value is not a JSON object, else `{1, merged JSON}`.
 *
 * The merge works on the JSON text instead of cjson: cjson turns `[]` into `{}`, rounds numbers
 * to 14 digits and rejects some escapes, which would corrupt fields the patch never touched. The
 * stored text was written by this backend with JSON.stringify, which escapes deterministically,
 * so equal field names have equal text. Existing fields keep their place, as with object spread.
 */
export const MERGE_OBJECT = script(
  "merge object",
  `
local function skip_space(s, i)
  return string.find(s, '[^ \\t\\r\\n]', i) or (#s + 1)
end
local function string_end(s, i)
  local j = i + 1
  while true do
    local k = string.find(s, '["\\\\]', j)
    if not k then return error('unterminated JSON string') end
    if string.sub(s, k, k) == '"' then return k end
    j = k + 2
  end
end
local function value_end(s, i)
  local c = string.sub(s, i, i)
  if c == '"' then return string_end(s, i) end
  if c == '{' or c == '[' then
    local depth, j = 0, i
    while true do
      local k = string.find(s, '["{}%[%]]', j)
      if not k then return error('unterminated JSON container') end
      local d = string.sub(s, k, k)
      if d == '"' then k = string_end(s, k)
      elseif d == '{' or d == '[' then depth = depth + 1
      else
        depth = depth - 1
        if depth == 0 then return k end
      end
      j = k + 1
    end
  end
  return (string.find(s, '[,}%] \\t\\r\\n]', i) or (#s + 1)) - 1
end

local names, texts, position = {}, {}, {}
local stored = redis.call('GET', KEYS[1])
if stored then
  local i = skip_space(stored, 1)
  if string.sub(stored, i, i) ~= '{' then return {0} end
  i = skip_space(stored, i + 1)
  while string.sub(stored, i, i) == '"' do
    local name_end = string_end(stored, i)
    local name = string.sub(stored, i, name_end)
    local value_start = skip_space(stored, skip_space(stored, name_end + 1) + 1)
    local last = value_end(stored, value_start)
    names[#names + 1] = name
    texts[#texts + 1] = string.sub(stored, value_start, last)
    position[name] = #names
    i = skip_space(stored, last + 1)
    if string.sub(stored, i, i) == ',' then i = skip_space(stored, i + 1) end
  end
end
for a = 2, #ARGV, 2 do
  local name, text = ARGV[a], ARGV[a + 1]
  if position[name] then
    texts[position[name]] = text
  else
    names[#names + 1] = name
    texts[#texts + 1] = text
    position[name] = #names
  end
end
local parts = {}
for n = 1, #names do parts[n] = names[n] .. ':' .. texts[n] end
local merged = '{' .. table.concat(parts, ',') .. '}'
if ARGV[1] ~= '' then
  redis.call('SET', KEYS[1], merged, 'PX', ARGV[1])
else
  redis.call('SET', KEYS[1], merged, 'KEEPTTL')
end
return {1, merged}`,
);

/**
 * KEYS: claim record. ARGV: ttlMs. Reply: `{}` or `{generation, expiresAtMs}`.
 * Takeable when absent (armed, lapsed and purged), or claimed with an expiry at or before the
 * server's now. The generation is max(the record's + 1, the server's time in µs), like a fence, so
 * it strictly increases per key also after the record expired. A claimed record expires with its
 * claim (PEXPIREAT): lapsed claims leave no key behind.
 */
export const CLAIM = script(
  "claim",
  `${NOW_MS}
local now = now_ms()
local record = redis.call('HMGET', KEYS[1], 'status', 'expiresAt', 'generation')
local status = record[1]
local takeable = (not status) or status == 'armed'
  or (status == 'claimed' and tonumber(record[2]) <= now)
if not takeable then return {} end
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local generation = math.max((tonumber(record[3]) or 0) + 1, now_us)
local expires_at = now + tonumber(ARGV[1])
redis.call('HSET', KEYS[1], 'status', 'claimed',
  'generation', string.format('%.0f', generation), 'expiresAt', string.format('%.0f', expires_at))
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', expires_at))
return {generation, expires_at}`,
);

/**
 * KEYS: claim record. ARGV: generation, the new status (`completed` or `armed`).
 * Reply: 1 when the record was claimed with that generation and moved, else 0 (fails closed).
 * A completed record loses its TTL and stays for good; a re-armed one is deleted, since an absent
 * record is armed (its generation is then carried on by the server's clock).
 */
export const FINISH_CLAIM = script(
  "finish claim",
  `
local record = redis.call('HMGET', KEYS[1], 'status', 'generation')
if record[1] ~= 'claimed' or record[2] ~= ARGV[1] then return 0 end
if ARGV[2] == 'armed' then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'status', ARGV[2])
  redis.call('PERSIST', KEYS[1])
end
return 1`,
);

/**
 * The fused accept (DESIGN §4.1): `SET NX PX` of the dedupe mark, then — only when it was written
 * — the lock acquire of {@link ACQUIRE_LOCK} (turn record included) and, only when the lock was
 * taken, the subscription read, all in one step. KEYS: dedupe value, lock, the lock's fence
 * record, subscription, turn record, pending-turn shard; they must share a node, so this script
 * is never sent to a Redis Cluster (ADR 0026).
 * ARGV: dedupe ttlMs, token, lock ttlMs, fence record TTL in ms, the caller's lock key, turn
 * entries (JSON array, '' for none), turn startedAt.
 * Reply: `{0}` duplicate, `{1}` busy (mark written), `{2, fence, expiresAtMs, subscribed (0|1)}`.
 */
export const ACCEPT_AND_ACQUIRE = script(
  "accept and acquire",
  `${NEXT_FENCE}
${TURN_RECORD}
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return {0} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {1} end
local turn = ARGV[6] ~= ''
if turn and redis.call('EXISTS', KEYS[5]) == 1 then return {1} end
local fence = string.format('%.0f', next_fence(KEYS[3], ARGV[4]))
redis.call('SET', KEYS[2], fence .. ':' .. ARGV[2], 'PX', ARGV[3])
local expires_at = redis.call('PEXPIRETIME', KEYS[2])
if turn then
  write_turn(KEYS[5], KEYS[6], ARGV[5], fence, '1', ARGV[7], ARGV[6], expires_at)
else
  touch_turn_index(KEYS[6], ARGV[5], expires_at)
end
return {2, tonumber(fence), expires_at, redis.call('EXISTS', KEYS[4])}`,
);

/**
 * The fused release: {@link RELEASE_LOCK} (turn option included), then a look at the head of the
 * queue of the same key (`LINDEX 0`, nothing removed), in one step, so an entry enqueued before
 * the release is always seen. KEYS: lock, queue, turn record, pending-turn shard (one slot: they
 * share the lock key's bucket tag). ARGV: as {@link RELEASE_LOCK}'s.
 * Reply: `{released (0|1)}` for an empty queue, else `{released, head entry JSON}`.
 */
export const RELEASE_AND_PEEK = script(
  "release lock and peek queue",
  `${LOCK_TOKEN}
${TURN_RECORD}
local released = 0
local value = redis.call('GET', KEYS[1])
if value and lock_token(value) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  touch_turn_index(KEYS[4], ARGV[2], 0)
  released = 1
end
release_turn(KEYS[3], KEYS[4], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
local head = redis.call('LINDEX', KEYS[2], 0)
if head then return {released, head} end
return {released}`,
);
