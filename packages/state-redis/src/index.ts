export {
  bucketOf,
  FENCE_RECORD_TTL_MS,
  PENDING_INDEX_SHARDS,
  RedisKeyLayout,
} from "./keys.js";
export {
  DEFAULT_KEY_PREFIX,
  DEFAULT_TIMEOUT_MS,
  type RedisReplicationOptions,
  type RedisStateClient,
  type RedisStateClusterClient,
  type RedisStateClusterOptions,
  type RedisStateOptions,
} from "./options.js";
export { createRedisState, RedisState } from "./redis-state.js";
