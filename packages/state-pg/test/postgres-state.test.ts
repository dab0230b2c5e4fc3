import { isBatonError, type Lock, StateError, silentLogger } from "@baton/core";
import { escapeIdentifier } from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createPostgresState,
  LATEST_SCHEMA_VERSION,
  type PostgresState,
  type PostgresStateOptions,
} from "../src/index.js";
import { createAdminPool, dropSchema, sleep, TEST_URL, uniqueSchema } from "./support.js";

// These tests read the tables directly, to check what the backend really wrote — the things a
// round trip through the backend cannot see: server-computed expiries, rows left behind, the
// sequence, the migration history.
const admin = createAdminPool();
afterAll(() => admin.end());

let schema: string;
let q: string;
const opened: PostgresState[] = [];

function open(options: Partial<PostgresStateOptions> = {}): PostgresState {
  const state = createPostgresState({
    url: TEST_URL,
    schema,
    purgeIntervalMs: 0,
    logger: silentLogger,
    ...options,
  });
  opened.push(state);
  return state;
}

async function connected(options: Partial<PostgresStateOptions> = {}): Promise<PostgresState> {
  const state = open(options);
  await state.connect();
  return state;
}

async function rowCount(table: string): Promise<number> {
  const result = await admin.query(`SELECT count(*)::int AS n FROM ${q}.${table}`);
  return result.rows[0].n;
}

beforeEach(() => {
  schema = uniqueSchema();
  q = escapeIdentifier(schema);
});

afterEach(async () => {
  for (const state of opened.splice(0)) await state.disconnect();
  await dropSchema(admin, schema);
});

describe("what the backend writes", () => {
  it("stores values as jsonb with an expiry computed from the server's clock", async () => {
    const state = await connected();
    await state.set("greeting", { text: "héllo", n: 1 }, 60_000);
    await state.set("forever", [1, 2]);
    const { rows } = await admin.query(
      `SELECT key, value, jsonb_typeof(value) AS type,
        extract(epoch FROM expires_at - now()) * 1000 AS remaining_ms
       FROM ${q}.kv ORDER BY key`,
    );
    expect(rows.map((row) => [row.key, row.value, row.type])).toEqual([
      ["forever", [1, 2], "array"],
      ["greeting", { text: "héllo", n: 1 }, "object"],
    ]);
    expect(rows[0].remaining_ms).toBeNull();
    expect(Number(rows[1].remaining_ms)).toBeGreaterThan(59_000);
    expect(Number(rows[1].remaining_ms)).toBeLessThanOrEqual(60_000);
  });

  it("returns a lock's expiresAt exactly as the server stored it, in epoch milliseconds", async () => {
    const state = await connected();
    const lock = await state.acquireLock("thread:1", 30_000);
    expect(lock).not.toBeNull();
    const { rows } = await admin.query(
      `SELECT token, fence, floor(extract(epoch FROM expires_at) * 1000)::float8 AS expires_at_ms,
        extract(epoch FROM expires_at - now()) * 1000 AS remaining_ms
       FROM ${q}.locks WHERE key = 'thread:1'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token).toBe(lock?.token);
    expect(Number(rows[0].fence)).toBe(lock?.fence);
    expect(rows[0].expires_at_ms).toBe(lock?.expiresAt);
    expect(Number(rows[0].remaining_ms)).toBeGreaterThan(29_000);
    const info = await state.inspectLock("thread:1");
    expect(info).toEqual({ key: "thread:1", fence: lock?.fence, expiresAt: lock?.expiresAt });
  });

  it("keeps each key prefix in its own column, so stores share a schema without meeting", async () => {
    const tenantA = await connected({ keyPrefix: "tenant-a" });
    const tenantB = await connected({ keyPrefix: "tenant-b" });
    await tenantA.set("k", "a");
    await tenantB.set("k", "b");
    expect(await tenantA.get("k")).toBe("a");
    expect(await tenantB.get("k")).toBe("b");
    expect(await tenantA.acquireLock("k", 60_000)).not.toBeNull();
    expect(await tenantB.acquireLock("k", 60_000)).not.toBeNull();
    const { rows } = await admin.query(`SELECT prefix, value FROM ${q}.kv ORDER BY prefix`);
    expect(rows).toEqual([
      { prefix: "tenant-a", value: "a" },
      { prefix: "tenant-b", value: "b" },
    ]);
  });

  it("queues one row per entry in enqueue order and deletes the row it dequeues", async () => {
    const state = await connected();
    const now = Date.now();
    for (const id of [1, 2, 3]) {
      await state.enqueue(
        "q",
        { value: { id }, enqueuedAt: now + id, expiresAt: now + 90_000 },
        { maxSize: 2, onFull: "drop-oldest" },
      );
    }
    const before = await admin.query(
      `SELECT value, enqueued_at_ms FROM ${q}.queue_entries WHERE key = 'q' ORDER BY id`,
    );
    expect(before.rows).toEqual([
      { value: { id: 2 }, enqueued_at_ms: now + 2 },
      { value: { id: 3 }, enqueued_at_ms: now + 3 },
    ]);
    expect((await state.dequeue("q"))?.value).toEqual({ id: 2 });
    expect(await rowCount("queue_entries")).toBe(1);
  });

  it("answers pendingQueueKeys from the queue index, not by scanning tables", async () => {
    const state = await connected();
    await state.enqueue(
      "q",
      { value: 1, enqueuedAt: 0, expiresAt: 0 },
      { maxSize: 1, onFull: "drop-oldest" },
    );
    const client = await admin.connect();
    try {
      // Tiny tables make a sequential scan cheapest; forbid it to see the plan an index serves.
      await client.query("SET enable_seqscan = off");
      const plan = await client.query(
        `EXPLAIN SELECT DISTINCT key FROM ${q}.queue_entries WHERE prefix = '' LIMIT 100`,
      );
      const text = plan.rows.map((row) => row["QUERY PLAN"]).join("\n");
      expect(text).toContain("queue_entries_key_idx");
      expect(text).not.toMatch(/Seq Scan/);
    } finally {
      client.release();
    }
    expect(await state.pendingQueueKeys()).toEqual(["q"]);
  });

  it("trims a list in the table and keeps its TTL on one parent row", async () => {
    const state = await connected();
    for (let n = 1; n <= 5; n += 1)
      await state.appendToList("h", n, { maxLength: 2, ttlMs: 60_000 });
    expect(await rowCount("list_items")).toBe(2);
    const { rows } = await admin.query(
      `SELECT extract(epoch FROM expires_at - now()) * 1000 AS remaining_ms FROM ${q}.lists`,
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].remaining_ms)).toBeGreaterThan(59_000);
    expect(await state.getList("h")).toEqual([4, 5]);
  });

  it("keeps or drops TTLs on the edges exactly like the reference backend", async () => {
    const state = await connected();
    // An append without ttlMs keeps a live list's TTL…
    await state.appendToList("kept", 1, { ttlMs: 200 });
    await state.appendToList("kept", 2);
    // …and an expired list restarts empty and without one; an expired scalar merges as {}.
    await state.appendToList("restarted", "old", { ttlMs: 200 });
    await state.set("scalar", 5, 200);
    await sleep(350);
    expect(await state.getList("kept")).toEqual([]);
    await state.appendToList("restarted", "new");
    expect(await state.mergeObject("scalar", { a: 1 })).toEqual({ a: 1 });
    const { rows } = await admin.query(
      `SELECT key, expires_at FROM ${q}.lists WHERE key = 'restarted'
       UNION ALL SELECT key, expires_at FROM ${q}.kv WHERE key = 'scalar'`,
    );
    expect(rows).toEqual([
      { key: "restarted", expires_at: null },
      { key: "scalar", expires_at: null },
    ]);
    expect(await state.getList("restarted")).toEqual(["new"]);
    // The restart deleted the expired items in the same transaction.
    const items = await admin.query(`SELECT value FROM ${q}.list_items WHERE key = 'restarted'`);
    expect(items.rows).toEqual([{ value: "new" }]);
  });

  it("rejects what Postgres cannot store with a ValidationError, writing nothing", async () => {
    const state = await connected();
    await expect(state.set("k", "nul \u0000 inside")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      step: "set value",
    });
    await expect(state.set("nul \u0000 key", 1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    // A TTL so long the expiry would pass the year 294 276: timestamptz cannot hold it.
    await expect(state.set("k", 1, 1e16)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await rowCount("kv")).toBe(0);
    expect(await state.get("k")).toBeNull();
  });
});

describe("the fence sequence", () => {
  it("is one sequence in the schema, shared by locks and claims, strictly increasing", async () => {
    const state = await connected();
    const { rows } = await admin.query(
      "SELECT data_type, cache_size, cycle FROM pg_sequences WHERE schemaname = $1 AND sequencename = 'fence_seq'",
      [schema],
    );
    expect(rows).toEqual([{ data_type: "bigint", cache_size: "1", cycle: false }]);
    const lock = await state.acquireLock("a", 60_000);
    const claim = await state.claim("a", 60_000);
    const next = await state.acquireLock("b", 60_000);
    expect(lock && claim && next).toBeTruthy();
    expect((claim?.generation ?? 0) > (lock?.fence ?? 0)).toBe(true);
    expect((next?.fence ?? 0) > (claim?.generation ?? 0)).toBe(true);
    const seq = await admin.query(`SELECT last_value FROM ${q}.fence_seq`);
    expect(Number(seq.rows[0].last_value)).toBeGreaterThanOrEqual(next?.fence ?? Infinity);
  });

  it("continues after a reconnect and across backends: a fence is never handed out twice", async () => {
    const first = await connected();
    const before = (await first.acquireLock("k", 60_000)) as Lock;
    await first.disconnect();
    await first.connect();
    await first.forceReleaseLock("k");
    const again = (await first.acquireLock("k", 60_000)) as Lock;
    const other = await connected();
    const elsewhere = (await other.acquireLock("other", 60_000)) as Lock;
    expect(again.fence).toBeGreaterThan(before.fence);
    expect(elsewhere.fence).toBeGreaterThan(again.fence);
  });
});

describe("purging expired rows", () => {
  it("deletes expired values, locks, lists and lapsed claims, and keeps live and completed ones", async () => {
    const state = await connected();
    const ttlMs = 200;
    await state.set("old", 1, ttlMs);
    await state.set("live", 1, 60_000);
    await state.set("forever", 1);
    await state.setIfNotExists("dedupe:old", true, ttlMs);
    await state.acquireLock("old", ttlMs);
    await state.acquireLock("live", 60_000);
    await state.appendToList("old", "x", { ttlMs });
    await state.appendToList("old", "y", { ttlMs });
    await state.appendToList("live", "x");
    await state.claim("lapsed", ttlMs);
    const done = await state.claim("done", ttlMs);
    expect(done && (await state.completeClaim(done))).toBe(true);
    const rearmed = await state.claim("rearmed", 60_000);
    expect(rearmed && (await state.rearmClaim(rearmed))).toBe(true);
    await sleep(ttlMs + 150);

    // Expired rows are invisible at once, but still in the tables until a purge.
    expect(await state.get("old")).toBeNull();
    expect(await rowCount("kv")).toBe(4);
    expect(await rowCount("list_items")).toBe(3);

    expect(await state.purgeExpired()).toEqual({ values: 2, locks: 1, lists: 1, claims: 2 });
    const kv = await admin.query(`SELECT key FROM ${q}.kv ORDER BY key`);
    expect(kv.rows.map((row) => row.key)).toEqual(["forever", "live"]);
    const locks = await admin.query(`SELECT key FROM ${q}.locks`);
    expect(locks.rows.map((row) => row.key)).toEqual(["live"]);
    const items = await admin.query(`SELECT key FROM ${q}.list_items`);
    expect(items.rows.map((row) => row.key)).toEqual(["live"]);
    const claims = await admin.query(`SELECT key, status FROM ${q}.claims`);
    expect(claims.rows).toEqual([{ key: "done", status: "completed" }]);
    expect(await state.claim("done", 60_000)).toBeNull();
    expect(await state.purgeExpired()).toEqual({ values: 0, locks: 0, lists: 0, claims: 0 });
  });

  it("runs on its own every purgeIntervalMs", async () => {
    const state = await connected({ purgeIntervalMs: 100 });
    await state.set("old", 1, 100);
    await state.acquireLock("old", 100);
    await state.set("live", 1);
    const deadline = Date.now() + 5_000;
    while ((await rowCount("kv")) > 1 || (await rowCount("locks")) > 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(50);
    }
    expect(await state.get("live")).toBe(1);
  });
});

describe("migrations", () => {
  it("migrates a brand-new schema once when five backends connect at the same time", async () => {
    const states = Array.from({ length: 5 }, () => open());
    const results = await Promise.allSettled(states.map((state) => state.connect()));
    expect(results.map((result) => result.status)).toEqual(Array(5).fill("fulfilled"));
    const { rows } = await admin.query(
      `SELECT version FROM ${q}.schema_migrations ORDER BY version`,
    );
    expect(rows.map((row) => row.version)).toEqual(
      Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1),
    );
    // Every backend works on the one schema.
    await Promise.all(states.map((state, i) => state.set(`k${i}`, i)));
    expect(await rowCount("kv")).toBe(5);
  });

  it("leaves an up-to-date schema and its data alone on the next connect", async () => {
    const first = await connected();
    await first.set("kept", true);
    await first.disconnect();
    const second = await connected();
    expect(await second.get("kept")).toBe(true);
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${q}.schema_migrations`);
    expect(rows[0].n).toBe(LATEST_SCHEMA_VERSION);
  });
});

describe("no session state (PgBouncer in transaction mode)", () => {
  it("leaves no setting behind on the server connection after connect, transactions and locks", async () => {
    // One server connection, so whatever the backend did ran on exactly the one we inspect.
    const pool = createAdminPool();
    pool.options.max = 1;
    try {
      const before = await pool.query(
        "SELECT current_setting('statement_timeout') AS statement_timeout, current_setting('idle_in_transaction_session_timeout') AS idle",
      );
      const state = await connected({ url: undefined, pool });
      await state.enqueue(
        "q",
        { value: 1, enqueuedAt: 0, expiresAt: 1 },
        { maxSize: 5, onFull: "drop-oldest" },
      );
      await state.appendToList("l", 1, { maxLength: 2 });
      const lock = await state.acquireLock("k", 60_000);
      expect(lock).not.toBeNull();
      const after = await pool.query(
        `SELECT current_setting('statement_timeout') AS statement_timeout,
           current_setting('idle_in_transaction_session_timeout') AS idle,
           (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS advisory,
           (SELECT count(*)::int FROM pg_prepared_statements) AS prepared,
           (SELECT count(*)::int FROM pg_listening_channels()) AS listening`,
      );
      expect(after.rows[0]).toEqual({ ...before.rows[0], advisory: 0, prepared: 0, listening: 0 });
    } finally {
      for (const state of opened.splice(0)) await state.disconnect();
      await pool.end();
    }
  });
});

describe("lifecycle", () => {
  it("names the step and the fix when called before connect()", async () => {
    const state = open();
    const error = await state.acquireLock("k", 1_000).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateError);
    expect(isBatonError(error, "STATE_DISCONNECTED")).toBe(true);
    expect((error as StateError).step).toBe("acquire lock");
    expect((error as Error).message).toMatch(/^acquire lock: .*call connect\(\) first/);
  });

  it("never ends a pool it was given, and can connect through it again", async () => {
    const pool = createAdminPool();
    try {
      const state = await connected({ url: undefined, pool });
      await state.set("k", 1);
      await state.disconnect();
      await expect(state.get("k")).rejects.toMatchObject({ code: "STATE_DISCONNECTED" });
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await state.connect();
      expect(await state.get("k")).toBe(1);
    } finally {
      for (const state of opened.splice(0)) await state.disconnect();
      await pool.end();
    }
  });
});
