import { randomBytes } from "node:crypto";
import { createMemoryState as createBatonMemoryState } from "@baton/state-memory";
import { createPostgresState as createBatonPostgresState } from "@baton/state-pg";
import { createRedisState as createBatonRedisState } from "@baton/state-redis";
import { createMemoryState as createUpstreamMemoryState } from "@chat-adapter/state-memory";
import { createPostgresState as createUpstreamPostgresState } from "@chat-adapter/state-pg";
import { createRedisState as createUpstreamRedisState } from "@chat-adapter/state-redis";
import type { Logger as UpstreamLogger } from "chat";
import pg from "pg";
import { createClient } from "redis";
import type { BackendName, Implementation } from "./bench-bot.js";
import { createCountingPool } from "./counting-pool.js";
import { createCountingSql } from "./counting-sql.js";
import { RedisCommandCounter } from "./redis-command-counter.js";
import { NO_ROUND_TRIPS, type RoundTripCounter } from "./round-trips.js";

/** Where the servers are. */
export interface ServerUrls {
  readonly redis: string;
  readonly postgres: string;
  /**
   * The client Baton's Postgres backend runs on: `pg` (node-postgres, a counting `pg.Pool`
   * passed as `pool`) or `postgres` (postgres.js, a counting instance passed as `sql`). Default
   * `pg`; `BATON_BENCH_PG_CLIENT=postgres` picks the other (issue 26 measures both).
   */
  readonly postgresClient?: "pg" | "postgres";
}

/** The servers of these machines (DEPENDENCIES.md), unless the environment names others. */
export function serverUrlsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerUrls {
  return {
    redis: env.BATON_REDIS_URL ?? "redis://127.0.0.1:6379",
    postgres:
      env.BATON_POSTGRES_URL ??
      env.BATON_TEST_POSTGRES_URL ??
      "postgres://postgres@127.0.0.1:5432/test",
    postgresClient: env.BATON_BENCH_PG_CLIENT === "postgres" ? "postgres" : "pg",
  };
}

/** A State adapter of one implementation on one backend, isolated for one run. */
export interface OpenBackend {
  /** Baton's `StateAdapter` or upstream's; the bot knows which. */
  readonly state: object;
  readonly roundTrips: RoundTripCounter;
  /** The run's Redis key prefix or Postgres schema; `undefined` on memory. */
  readonly namespace: string | undefined;
  connectionsOpened(): number | undefined;
  /**
   * Postgres only: the protocol-level count of round trips in the current window (ReadyForQuery
   * messages), to cross-check `roundTrips`.
   */
  readonly readyForQuery?: () => number;
  /**
   * postgres.js only: round trips in the protocol sense in the current window (sends after a
   * receive), where pipelined statements share one.
   */
  readonly flushes?: () => number;
  /** Removes the run's keys or schema and closes what this module opened. Idempotent. */
  cleanup(): Promise<void>;
}

/** Upstream's state adapters log through this; the bench wants no output from them. */
const silentUpstreamLogger: UpstreamLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentUpstreamLogger,
};

/** One counter for the process: node-redis' diagnostics channel is process-wide anyway. */
let redisCounter: RedisCommandCounter | undefined;
function sharedRedisCounter(): RedisCommandCounter {
  redisCounter ??= new RedisCommandCounter().attach();
  return redisCounter;
}

/** A name no other run uses: `bench_<12 hex>`, valid as a Redis prefix and a Postgres schema. */
export function uniqueRunName(): string {
  return `bench_${randomBytes(6).toString("hex")}`;
}

/**
 * Opens `implementation`'s State adapter for `backend` in a namespace of its own — a fresh key
 * prefix on Redis, a fresh schema on Postgres — each in its default configuration except for
 * that namespace (and, on Postgres, a pool the bench can count). Fails with a message naming the
 * server when it is unreachable: the bench and its tests never skip a backend.
 */
export async function openBackend(
  backend: BackendName,
  implementation: Implementation,
  urls: ServerUrls,
  fastPaths = true,
): Promise<OpenBackend> {
  if (backend === "memory") {
    // Baton's memory State offers the fused fast paths on request; `fastPaths: false` measures
    // the runtime's fallback to separate calls (what a user's own backend without them gets).
    const state =
      implementation === "baton"
        ? createBatonMemoryState({ fastPaths })
        : createUpstreamMemoryState();
    return {
      state,
      roundTrips: NO_ROUND_TRIPS,
      namespace: undefined,
      connectionsOpened: () => undefined,
      cleanup,
    };
  }
  if (backend === "redis") return openRedis(implementation, urls.redis, fastPaths);
  return openPostgres(implementation, urls.postgres, urls.postgresClient ?? "pg");
}

async function cleanup(): Promise<void> {}

async function openRedis(
  implementation: Implementation,
  url: string,
  fastPaths: boolean,
): Promise<OpenBackend> {
  await assertRedisReachable(url);
  const keyPrefix = uniqueRunName();
  const state =
    implementation === "baton"
      ? createBatonRedisState({ url, keyPrefix, fastPaths })
      : createUpstreamRedisState({ url, keyPrefix, logger: silentUpstreamLogger });
  return {
    state,
    roundTrips: sharedRedisCounter(),
    namespace: keyPrefix,
    connectionsOpened: () => undefined,
    cleanup: once(() => deleteRedisKeys(url, keyPrefix)),
  };
}

async function openPostgres(
  implementation: Implementation,
  url: string,
  client: "pg" | "postgres",
): Promise<OpenBackend> {
  const schema = uniqueRunName();
  const admin = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5_000 });
  admin.on("error", () => {});
  try {
    // Upstream creates unqualified tables in the search_path: give it a schema of its own.
    // Baton's migration creates its schema itself.
    if (implementation === "upstream") {
      await admin.query(`CREATE SCHEMA ${pg.escapeIdentifier(schema)}`);
    } else {
      await admin.query("SELECT 1");
    }
  } catch (error) {
    await admin.end().catch(() => {});
    throw unreachable("Postgres", url, error);
  }
  if (implementation === "baton" && client === "postgres") {
    const counting = createCountingSql({ url });
    return {
      state: createBatonPostgresState({ sql: counting.sql, schema }),
      roundTrips: counting.queries,
      namespace: schema,
      connectionsOpened: counting.connectionsOpened,
      readyForQuery: counting.readyForQuery,
      flushes: counting.flushes,
      cleanup: once(async () => {
        await counting.sql.end().catch(() => {});
        try {
          await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
        } finally {
          await admin.end().catch(() => {});
        }
      }),
    };
  }
  const counting = createCountingPool({
    url,
    ...(implementation === "upstream" ? { searchPath: schema } : {}),
  });
  const state =
    implementation === "baton"
      ? createBatonPostgresState({ pool: counting.pool, schema })
      : createUpstreamPostgresState({
          client: counting.pool,
          keyPrefix: "chat-sdk",
          logger: silentUpstreamLogger,
        });
  return {
    state,
    roundTrips: counting.queries,
    namespace: schema,
    connectionsOpened: counting.connectionsOpened,
    readyForQuery: counting.readyForQuery,
    cleanup: once(async () => {
      await counting.pool.end().catch(() => {});
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
      } finally {
        await admin.end().catch(() => {});
      }
    }),
  };
}

/** Connects and pings once, so an unreachable server fails the run with a clear message. */
async function assertRedisReachable(url: string): Promise<void> {
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw unreachable("Redis", url, error);
  } finally {
    client.destroy();
  }
}

/** Deletes every key under `prefix` (SCAN is fine here; the backends themselves never scan). */
async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}

function unreachable(server: string, url: string, cause: unknown): Error {
  const variable = server === "Redis" ? "BATON_REDIS_URL" : "BATON_POSTGRES_URL";
  return new Error(
    `${server} is not reachable at ${url} (${String(cause)}). Start it (see ` +
      `shared/DEPENDENCIES.md) or point ${variable} at one; the bench never skips a backend.`,
    { cause },
  );
}

function once(work: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= work();
    return done;
  };
}
