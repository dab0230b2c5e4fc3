export { LATEST_SCHEMA_VERSION } from "./migrations.js";
export {
  DEFAULT_PURGE_INTERVAL_MS,
  DEFAULT_SCHEMA,
  DEFAULT_TIMEOUT_MS,
  type PostgresStateOptions,
} from "./options.js";
export { createPostgresState, PostgresState } from "./postgres-state.js";
export type { PurgeResult } from "./purge.js";
