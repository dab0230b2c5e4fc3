import { describeStateAdapter } from "@baton/conformance";
import { silentLogger } from "@baton/core";
import { escapeIdentifier } from "pg";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { type PostgresClient, URL_CLIENT } from "../src/options.js";
import { createAdminPool, dropSchema, sleep, TEST_URL, uniqueSchema } from "./support.js";

// Each test gets its own schema, created by the backend's own migration. The state under test
// opens its own pool from the URL (the default path: connect creates it, disconnect ends it);
// its peers share one warm pool, so races still run across many connections while a test does
// not pay for opening a dozen of them. Postgres judges expiry by its own clock, so time passes
// for real. A missing server fails every test; nothing skips.
//
// Creating a schema costs ~200 ms of DDL and dropping it ~100 ms on a 2-core machine, most of the
// suite's time if done in line; so the next test's schema is migrated, and the last one dropped,
// while a test runs (mostly sleeping out TTLs).
//
// The suite runs once per client while both are in the package (issue 26): node-postgres, its
// peers sharing a pg Pool, and postgres.js, its peers sharing one postgres.js instance (`sql`).
const admin = createAdminPool();
const peerSql = postgres(TEST_URL, { max: 16, fetch_types: false, onnotice: () => {} });
const drops: Promise<void>[] = [];
let nextSchema: Promise<string> | undefined;

async function migratedSchema(): Promise<string> {
  const schema = uniqueSchema();
  const migrator = createPostgresState({
    pool: admin,
    schema,
    purgeIntervalMs: 0,
    logger: silentLogger,
  });
  await migrator.connect();
  await migrator.disconnect();
  return schema;
}

async function takeSchema(): Promise<string> {
  const schema = await (nextSchema ?? migratedSchema());
  nextSchema = migratedSchema();
  // Surfaces in the next create(); never an unhandled rejection in between.
  nextSchema.catch(() => {});
  return schema;
}

beforeAll(async () => {
  await admin.query("SELECT 1");
});

afterAll(async () => {
  const unused = await nextSchema?.catch(() => undefined);
  if (unused) drops.push(dropSchema(admin, unused));
  await Promise.all(drops);
  await admin.end();
  await peerSql.end();
});

for (const client of ["pg", "postgres"] satisfies PostgresClient[]) describeClient(client);

function describeClient(client: PostgresClient): void {
  describeStateAdapter(client === "pg" ? "postgres" : "postgres on postgres.js", {
    create: async () =>
      createPostgresState({
        url: TEST_URL,
        schema: await takeSchema(),
        purgeIntervalMs: 0,
        logger: silentLogger,
        [URL_CLIENT]: client,
      } as Parameters<typeof createPostgresState>[0]),
    createPeer: (state) =>
      createPostgresState({
        ...(client === "pg" ? { pool: admin } : { sql: peerSql }),
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
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM ${escapeIdentifier((state as PostgresState).schema)}.claims`,
      );
      return rows[0].n;
    },
    dispose: async (state, peers) => {
      for (const client of [state, ...peers]) await client.disconnect();
      // Dropping takes ~100 ms of the server's time; the next test need not wait for it.
      drops.push(dropSchema(admin, (state as PostgresState).schema));
    },
  });
}
