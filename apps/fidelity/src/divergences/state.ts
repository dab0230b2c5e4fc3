import { divergencesOf } from "./divergence.js";
import { ADR_STATE_CONTRACT, MOCKED_DRIVER, VACUOUS } from "./reasons.js";

/** `packages/state-redis/src/index.test.ts`. */
export const REDIS_DIVERGENCES = divergencesOf("packages/state-redis/src/index.test.ts", [
  {
    kind: "divergent",
    titles: [
      "should export createRedisState function",
      "should have appendToList method",
      "should have getList method",
      "should have enqueue method",
      "should have dequeue method",
      "should have queueDepth method",
    ],
    reason: VACUOUS,
    link: ADR_STATE_CONTRACT,
  },
  {
    kind: "divergent",
    titles: [
      "should accept an existing redis client",
      "should wait for an injected open client to become ready",
      "should ignore transient errors while waiting for an injected client to recover",
      "should wait for an injected client to become ready again after reconnecting",
      "should reject when an injected client ends before becoming ready",
    ],
    reason: `${MOCKED_DRIVER} — a borrowed client is tested against a real Redis in connection.test.ts`,
    link: ADR_STATE_CONTRACT,
  },
]);

/** `packages/state-pg/src/index.test.ts`. */
export const PG_DIVERGENCES = divergencesOf("packages/state-pg/src/index.test.ts", [
  {
    kind: "divergent",
    titles: [
      "should export createPostgresState function",
      "should export PostgresStateAdapter class",
    ],
    reason: VACUOUS,
    link: ADR_STATE_CONTRACT,
  },
  {
    kind: "divergent",
    titles: [
      "should purge expired entries before enqueue",
      "should purge expired entries before dequeue",
      "should only count non-expired entries in queueDepth",
      "should only count non-expired entries in enqueue depth",
    ],
    reason:
      "rejected: the backend never judges QueueEntry.expiresAt — it returns expired entries so the runtime records them as expired instead of losing them silently",
    link: ADR_STATE_CONTRACT,
  },
  {
    kind: "divergent",
    titles: ["should trim overflow when maxSize is specified"],
    reason:
      "rejected: a full queue never trims silently — enqueue returns the evicted entries so the runtime records them as preempted",
    link: ADR_STATE_CONTRACT,
  },
  {
    kind: "deferred",
    titles: [
      "should throw when no url or env var is available",
      "should use POSTGRES_URL env var as fallback",
      "should use DATABASE_URL env var as fallback",
    ],
    reason:
      "not built: createPostgresState reads no environment variables; it requires exactly one of url and pool (options.test.ts)",
  },
  {
    kind: "divergent",
    describe: ["PostgresStateAdapter", "with mock client"],
    reason: MOCKED_DRIVER,
    link: ADR_STATE_CONTRACT,
  },
]);
