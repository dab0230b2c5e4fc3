import { describeStateAdapter } from "@baton/conformance";
import { silentLogger } from "@baton/core";
import { escapeIdentifier } from "pg";
import { afterAll, beforeAll } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { type PostgresClient, URL_CLIENT } from "../src/options.js";
import {
  createAdminPool,
  dropSchema,
  PGBOUNCER_POSTGRES_JS_URL,
  PGBOUNCER_URL,
  sleep,
  uniqueSchema,
} from "./support.js";

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

// The suite runs once per client while both are in the package (issue 26). postgres.js gets
// `prepare=false&max_pipeline=1` in the URL, as the README says for this PgBouncer (1.18).
for (const client of ["pg", "postgres"] satisfies PostgresClient[]) describeClient(client);

function describeClient(client: PostgresClient): void {
  const options = () =>
    ({
      url: client === "pg" ? PGBOUNCER_URL : PGBOUNCER_POSTGRES_JS_URL,
      purgeIntervalMs: 0,
      logger: silentLogger,
      [URL_CLIENT]: client,
    }) as Parameters<typeof createPostgresState>[0];
  describeStateAdapter(
    client === "pg" ? "postgres behind pgbouncer" : "postgres.js behind pgbouncer",
    {
      create: () => createPostgresState({ ...options(), schema: uniqueSchema() }),
      createPeer: (state) =>
        createPostgresState({ ...options(), schema: (state as PostgresState).schema }),
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
    },
  );
}
