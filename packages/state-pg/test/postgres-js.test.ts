import { silentLogger } from "@baton/core";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { createAdminPool, dropSchema, TEST_URL, uniqueSchema } from "./support.js";

// The `sql` option: a postgres.js instance of the user's own (issue 26). The conformance suites
// run the contract on it; these check what belongs to the instance being the user's.
const admin = createAdminPool();
const opened: PostgresState[] = [];
const schemas: string[] = [];
const instances: postgres.Sql[] = [];

afterEach(async () => {
  for (const state of opened.splice(0)) await state.disconnect();
  for (const sql of instances.splice(0)) await sql.end();
  for (const schema of schemas.splice(0)) await dropSchema(admin, schema);
});

afterAll(() => admin.end());

async function connectedOn(sql: postgres.Sql): Promise<PostgresState> {
  const schema = uniqueSchema();
  schemas.push(schema);
  const state = createPostgresState({ sql, schema, purgeIntervalMs: 0, logger: silentLogger });
  opened.push(state);
  await state.connect();
  return state;
}

function instance(options: postgres.Options<{}> = {}): postgres.Sql {
  const sql = postgres(TEST_URL, { fetch_types: false, onnotice: () => {}, ...options });
  instances.push(sql);
  return sql;
}

describe("a postgres.js instance given as sql", () => {
  it("is never ended by the backend, which can connect through it again", async () => {
    const sql = instance();
    const state = await connectedOn(sql);
    await state.set("k", 1);
    await state.disconnect();
    await expect(state.get("k")).rejects.toMatchObject({ code: "STATE_DISCONNECTED" });
    expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    await state.connect();
    expect(await state.get("k")).toBe(1);
  });

  it("with prepare: false leaves no session state behind on its connection", async () => {
    // One connection, so whatever the backend did ran on exactly the one inspected.
    const sql = instance({ max: 1, prepare: false });
    const settings = `SELECT current_setting('statement_timeout') AS statement_timeout,
      current_setting('idle_in_transaction_session_timeout') AS idle`;
    const [before] = await sql.unsafe(settings);
    const state = await connectedOn(sql);
    const entry = { value: 1, enqueuedAt: 0, expiresAt: 1 };
    await state.enqueue("q", entry, { maxSize: 5, onFull: "drop-oldest" });
    await state.appendToList("l", 1, { maxLength: 2 });
    expect(await state.acquireLock("k", 60_000)).not.toBeNull();

    const [after] = await sql.unsafe(`${settings},
      (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS advisory,
      (SELECT count(*)::int FROM pg_prepared_statements) AS prepared,
      (SELECT count(*)::int FROM pg_listening_channels()) AS listening`);
    expect(after).toEqual({ ...before, advisory: 0, prepared: 0, listening: 0 });
  });

  it("with prepared statements on, prepares each statement once per connection", async () => {
    const sql = instance({ max: 1 });
    const state = await connectedOn(sql);
    const count =
      "SELECT count(*)::int AS n, count(DISTINCT statement)::int AS texts FROM pg_prepared_statements";
    const cycle = async (key: string) => {
      const lock = await state.acquireLock(key, 60_000);
      expect(lock).not.toBeNull();
      expect(await state.releaseLock(lock as NonNullable<typeof lock>)).toBe(true);
    };
    await cycle("k0");
    const [first] = await sql.unsafe(count);
    for (let i = 1; i < 4; i += 1) await cycle(`k${i}`);

    // The same two statements ran three more times: nothing new was prepared.
    expect(await sql.unsafe(count)).toEqual([first]);
    expect(first?.n).toBeGreaterThan(0);
    expect(first?.n).toBe(first?.texts);
  });
});
