import { describeStateAdapter } from "@baton/conformance";
import { silentLogger } from "@baton/core";
import { escapeIdentifier } from "pg";
import { afterAll, beforeAll } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { createAdminPool, dropSchema, PGBOUNCER_URL, sleep, uniqueSchema } from "./support.js";

// The whole suite again, every client going through PgBouncer in transaction pooling mode
// (.ci/services.sh starts it on 127.0.0.1:6432 in front of the test server): consecutive
// transactions of one client may run on different server connections, so any session state the
// backend relied on would show up here as a failure. PgBouncer's own defaults are kept; in
// particular it refuses unknown startup parameters. A missing PgBouncer fails every test.
const bouncer = createAdminPool(PGBOUNCER_URL);
const drops: Promise<void>[] = [];

beforeAll(async () => {
  await bouncer.query("SELECT 1");
});

afterAll(async () => {
  await Promise.all(drops);
  await bouncer.end();
});

describeStateAdapter("postgres behind pgbouncer", {
  create: () =>
    createPostgresState({
      url: PGBOUNCER_URL,
      schema: uniqueSchema(),
      purgeIntervalMs: 0,
      logger: silentLogger,
    }),
  createPeer: (state) =>
    createPostgresState({
      url: PGBOUNCER_URL,
      schema: (state as PostgresState).schema,
      purgeIntervalMs: 0,
      logger: silentLogger,
    }),
  // Turn records are always offered here: their absence must fail the turn cases.
  requires: ["turns"],
  advanceTime: sleep,
  shortTtlMs: 300,
  expirySlackMs: 150,
  storedClaimRecords: async (state) => {
    await (state as PostgresState).purgeExpired();
    const { rows } = await bouncer.query(
      `SELECT count(*)::int AS n FROM ${escapeIdentifier((state as PostgresState).schema)}.claims`,
    );
    return rows[0].n;
  },
  dispose: async (state, peers) => {
    for (const client of [state, ...peers]) await client.disconnect();
    drops.push(dropSchema(bouncer, (state as PostgresState).schema));
  },
});
