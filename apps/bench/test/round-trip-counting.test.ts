import { createPostgresState as createBatonPostgresState } from "@baton/state-pg";
import { createRedisState as createBatonRedisState } from "@baton/state-redis";
import { createPostgresState as createUpstreamPostgresState } from "@chat-adapter/state-pg";
import { createRedisState as createUpstreamRedisState } from "@chat-adapter/state-redis";
import pg from "pg";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openBackend, serverUrlsFromEnv, uniqueRunName } from "../src/backends.js";
import type { Implementation } from "../src/bench-bot.js";
import { createBot } from "../src/bots.js";
import { createCountingPool } from "../src/counting-pool.js";
import { HandlerProbe } from "../src/handler-probe.js";
import { RedisCommandCounter } from "../src/redis-command-counter.js";
import { messageSource } from "../src/scenarios.js";

// The counters are the bench's measuring instrument: these tests calibrate them against known
// sequences and against the servers' own view, so a published round-trip count can be trusted.
const urls = serverUrlsFromEnv();
const silent = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silent,
};
const IMPLEMENTATIONS: readonly Implementation[] = ["baton", "upstream"];

describe("the Redis command counter", () => {
  const counter = new RedisCommandCounter().attach();
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  afterAll(() => counter.detach());

  async function connectedBatonState() {
    const keyPrefix = uniqueRunName();
    const state = createBatonRedisState({ url: urls.redis, keyPrefix });
    await state.connect();
    cleanups.push(() => state.disconnect());
    cleanups.push(() => deleteKeys(keyPrefix));
    return state;
  }

  it("counts one acquireLock on Baton's backend as one round trip: one EVALSHA", async () => {
    const state = await connectedBatonState();
    await state.acquireLock("warm-up", 10_000); // caches the script on the server
    counter.reset();

    expect(await state.acquireLock("thread:a", 10_000)).not.toBeNull();

    expect(counter.snapshot()).toEqual({ total: 1, byOperation: { EVALSHA: 1 } });
  });

  it("counts one acquireLock on upstream's backend as one round trip: one SET", async () => {
    const keyPrefix = uniqueRunName();
    const state = createUpstreamRedisState({ url: urls.redis, keyPrefix, logger: silent });
    await state.connect();
    cleanups.push(() => state.disconnect());
    cleanups.push(() => deleteKeys(keyPrefix));
    counter.reset();

    expect(await state.acquireLock("thread:a", 10_000)).not.toBeNull();

    expect(counter.snapshot()).toEqual({ total: 1, byOperation: { SET: 1 } });
  });

  it.each(IMPLEMENTATIONS)(
    "counts exactly the commands Redis MONITOR sees %s's Chat send for three messages",
    async (implementation) => {
      const backend = await openBackend("redis", implementation, urls);
      const probe = new HandlerProbe();
      const bot = await createBot(
        { implementation, backend: "redis", strategy: "queue", probe, urls },
        backend,
      );
      cleanups.push(() => bot.close());
      const prefix = `${backend.namespace}:`;
      // MONITOR lists every command the server runs, with the sender's address; commands a
      // script runs are listed from "lua", and are not round trips.
      const seen: string[] = [];
      const monitor = await connectAdmin();
      cleanups.push(async () => monitor.destroy());
      await monitor.monitor((line: string) => {
        if (line.includes(prefix) && !/\[\d+ lua\]/.test(line)) seen.push(line);
      });
      const [thread] = messageSource("monitor").threads(1, 3);
      await bot.deliver(thread?.[0] as never); // warm-up: caches scripts
      await settle(() => seen.length);
      seen.length = 0;
      counter.reset();

      for (const message of thread?.slice(1) ?? []) await bot.deliver(message);
      await settle(() => seen.length);

      const counted = counter.snapshot();
      expect(counted.total).toBeGreaterThan(0);
      expect(counted.total).toBe(seen.length);
      expect(counted.byOperation).toEqual(tallyMonitorLines(seen));
    },
    15_000,
  );
});

describe("the Postgres query counter", () => {
  let admin: pg.Pool;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(() => {
    admin = new pg.Pool({ connectionString: urls.postgres, max: 1 });
    admin.on("error", () => {});
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  afterAll(() => admin.end());

  function countingPool(searchPath?: string) {
    const counting = createCountingPool({
      url: urls.postgres,
      ...(searchPath === undefined ? {} : { searchPath }),
    });
    cleanups.push(() => counting.pool.end());
    return counting;
  }

  function dropLater(schema: string) {
    cleanups.push(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    });
  }

  it("counts Baton's acquireLock as one query and its enqueue transaction as three", async () => {
    const schema = uniqueRunName();
    dropLater(schema);
    const counting = countingPool();
    const state = createBatonPostgresState({ pool: counting.pool, schema, logger: silent });
    await state.connect();
    cleanups.push(() => state.disconnect());
    counting.queries.reset();

    expect(await state.acquireLock("thread:a", 10_000)).not.toBeNull();
    expect(counting.queries.snapshot()).toEqual({ total: 1, byOperation: { WITH: 1 } });

    counting.queries.reset();
    const entry = { value: { text: "hi" }, enqueuedAt: Date.now(), expiresAt: Date.now() + 60_000 };
    await state.enqueue("thread:a", entry, { maxSize: 10, onFull: "drop-oldest" });
    // BEGIN and the advisory lock travel as one multi-statement query: one round trip.
    expect(counting.queries.snapshot()).toEqual({
      total: 3,
      byOperation: { BEGIN: 1, COMMIT: 1, WITH: 1 },
    });
    expect(counting.readyForQuery()).toBe(3);
  });

  it("counts upstream's acquireLock as one query", async () => {
    const schema = uniqueRunName();
    await admin.query(`CREATE SCHEMA ${pg.escapeIdentifier(schema)}`);
    dropLater(schema);
    const counting = countingPool(schema);
    const state = createUpstreamPostgresState({ client: counting.pool, logger: silent });
    await state.connect();
    cleanups.push(() => state.disconnect());
    counting.queries.reset();

    expect(await state.acquireLock("thread:a", 10_000)).not.toBeNull();

    expect(counting.queries.snapshot()).toEqual({ total: 1, byOperation: { INSERT: 1 } });
    expect(counting.readyForQuery()).toBe(1);
  });

  it.each(IMPLEMENTATIONS)(
    "agrees with the server's ReadyForQuery messages over %s's whole dispatch",
    async (implementation) => {
      const backend = await openBackend("postgres", implementation, urls);
      const probe = new HandlerProbe();
      const bot = await createBot(
        { implementation, backend: "postgres", strategy: "queue", probe, urls },
        backend,
      );
      cleanups.push(() => bot.close());
      const [thread] = messageSource("rfq").threads(1, 3);
      await bot.deliver(thread?.[0] as never);
      bot.roundTrips.reset();

      for (const message of thread?.slice(1) ?? []) await bot.deliver(message);

      const counted = bot.roundTrips.snapshot().total;
      expect(counted).toBeGreaterThan(0);
      expect(backend.readyForQuery?.()).toBe(counted);
    },
    15_000,
  );
});

async function connectAdmin() {
  const client = createClient({
    url: urls.redis,
    socket: { connectTimeout: 2_000, reconnectStrategy: false },
  });
  client.on("error", () => {});
  await client.connect();
  return client;
}

async function deleteKeys(prefix: string): Promise<void> {
  const client = await connectAdmin();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    client.destroy();
  }
}

/** Waits until `count()` has not changed for 100 ms: MONITOR lines arrive asynchronously. */
async function settle(count: () => number): Promise<void> {
  let last = -1;
  while (count() !== last) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `{ EVALSHA: 2, SET: 1 }` from MONITOR lines like `1700000000.1 [0 127.0.0.1:5000] "SET" …`. */
function tallyMonitorLines(lines: readonly string[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const line of lines) {
    const command = /\] "([^"]+)"/.exec(line)?.[1]?.toUpperCase() ?? "UNKNOWN";
    tally[command] = (tally[command] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(tally).sort(([a], [b]) => a.localeCompare(b)));
}
