import { createPostgresState as createBatonPostgresState } from "@baton/state-pg";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openBackend, serverUrlsFromEnv, uniqueRunName } from "../src/backends.js";
import { createBot } from "../src/bots.js";
import { createCountingSql } from "../src/counting-sql.js";
import { HandlerProbe } from "../src/handler-probe.js";
import { messageSource } from "../src/scenarios.js";

// The postgres.js counter reads the protocol off the wire (counting-sql.ts). These tests
// calibrate it against known sequences and against the server's own ReadyForQuery messages, so
// its statement and round-trip counts can be compared with the node-postgres counter's.
const urls = { ...serverUrlsFromEnv(), postgresClient: "postgres" as const };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("the postgres.js statement counter", () => {
  let admin: pg.Pool;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(() => {
    admin = new pg.Pool({ connectionString: urls.postgres, max: 1 });
    admin.on("error", () => {});
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(() => admin.end());

  async function connected() {
    const schema = uniqueRunName();
    cleanups.push(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    });
    const counting = createCountingSql({ url: urls.postgres });
    cleanups.push(() => counting.sql.end());
    const state = createBatonPostgresState({ sql: counting.sql, schema, logger: silent });
    await state.connect();
    cleanups.push(() => state.disconnect());
    return { counting, state };
  }

  it("counts acquireLock as one statement in one round trip, as the server answers it", async () => {
    const { counting, state } = await connected();
    await state.acquireLock("warm-up", 10_000); // prepares the statement on the connection
    counting.queries.reset();

    expect(await state.acquireLock("thread:a", 10_000)).not.toBeNull();

    expect(counting.queries.snapshot()).toEqual({ total: 1, byOperation: { WITH: 1 } });
    expect(counting.readyForQuery()).toBe(1);
    expect(counting.flushes()).toBe(1);
  });

  it("counts the enqueue transaction as three statements pipelined in one round trip", async () => {
    const { counting, state } = await connected();
    const entry = () => ({
      value: { text: "hi" },
      enqueuedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    await state.enqueue("warm-up", entry(), { maxSize: 10, onFull: "drop-oldest" });
    counting.queries.reset();

    await state.enqueue("thread:a", entry(), { maxSize: 10, onFull: "drop-oldest" });

    // BEGIN (with its SET LOCALs and the advisory lock) is one simple query; the enqueue and
    // the COMMIT follow it on the wire before any answer comes back.
    expect(counting.queries.snapshot()).toEqual({
      total: 3,
      byOperation: { BEGIN: 1, COMMIT: 1, WITH: 1 },
    });
    expect(counting.readyForQuery()).toBe(3);
    expect(counting.flushes()).toBe(1);
  });

  it("agrees with the server's ReadyForQuery messages over Baton's whole dispatch", async () => {
    const backend = await openBackend("postgres", "baton", urls);
    cleanups.push(() => backend.cleanup());
    const probe = new HandlerProbe();
    const bot = await createBot(
      { implementation: "baton", backend: "postgres", strategy: "queue", probe, urls },
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
  }, 15_000);
});
