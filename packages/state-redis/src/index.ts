export { RedisKeyLayout } from "./keys.js";
export {
  DEFAULT_KEY_PREFIX,
  DEFAULT_TIMEOUT_MS,
  type RedisStateClient,
  type RedisStateOptions,
} from "./options.js";
export { createRedisState, RedisState } from "./redis-state.js";
