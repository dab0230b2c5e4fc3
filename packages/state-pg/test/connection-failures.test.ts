import { isBatonError, StateError, silentLogger } from "@baton/core";
import { escapeIdentifier } from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { advisoryKey } from "../src/advisory-key.js";
import {
  createPostgresState,
  type PostgresState,
  type PostgresStateOptions,
} from "../src/index.js";
import {
  createAdminPool,
  dropSchema,
  sleep,
  startProxy,
  type TcpProxy,
  TEST_URL,
  uniqueSchema,
} from "./support.js";

// Outages played for real: a port nobody listens on, a proxy that accepts and never answers or
// refuses, a statement stuck behind a row lock, a backend killed with pg_terminate_backend.
const admin = createAdminPool();
afterAll(() => admin.end());

let schema: string;
const opened: PostgresState[] = [];
const proxies: TcpProxy[] = [];

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

async function failureOf(promise: Promise<unknown>): Promise<StateError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StateError);
  return error as StateError;
}

/** Holds the row of `key` in `schema`'s kv table locked until the returned function is called. */
async function holdRowLock(key: string): Promise<() => Promise<void>> {
  const client = await admin.connect();
  await client.query("BEGIN");
  await client.query(
    `INSERT INTO ${escapeIdentifier(schema)}.kv (prefix, key, value) VALUES ('', $1, '0')
     ON CONFLICT (prefix, key) DO UPDATE SET value = '0'`,
    [key],
  );
  return async () => {
    await client.query("ROLLBACK");
    client.release();
  };
}

/**
 * The pid of this file's backend waiting for a lock: one whose query names this file's schema
 * (a row lock), or, given `advisoryKey`, one waiting for that advisory lock. Never another test
 * file's backend: they run at the same time on the same server.
 */
async function waitForBlockedBackend(advisoryKey?: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { rows } =
      advisoryKey === undefined
        ? await admin.query(
            `SELECT pid FROM pg_stat_activity
             WHERE application_name = 'baton-state-pg' AND wait_event_type = 'Lock'
               AND strpos(query, $1) > 0`,
            [schema],
          )
        : await admin.query(
            `SELECT a.pid FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
             WHERE a.application_name = 'baton-state-pg' AND NOT l.granted
               AND l.locktype = 'advisory'
               AND ((l.classid::bigint << 32) | l.objid::bigint) = $1::bigint`,
            [advisoryKey],
          );
    if (rows[0]) return rows[0].pid;
    await sleep(20);
  }
  throw new Error("no baton backend of this test is waiting on the lock");
}

beforeEach(() => {
  schema = uniqueSchema();
});

afterEach(async () => {
  for (const state of opened.splice(0)) await state.disconnect();
  for (const proxy of proxies.splice(0)) await proxy.close();
  await dropSchema(admin, schema);
});

describe("an unreachable server", () => {
  it("rejects connect() and every call with StateError within timeoutMs when nothing listens", async () => {
    const state = open({ url: "postgres://postgres@127.0.0.1:1/test", timeoutMs: 1_000 });
    const startedAt = Date.now();
    const error = await failureOf(state.connect());
    expect(Date.now() - startedAt).toBeLessThan(1_500);
    expect(error.failure).toBe("unavailable");
    expect(error.step).toBe("connect");
    expect(error.message).toMatch(/^connect: Postgres is unavailable: .*ECONNREFUSED/);
    expect(isBatonError(await failureOf(state.get("k")), "STATE_DISCONNECTED")).toBe(true);
  });

  it("times out, never hangs, when the server accepts but never answers", async () => {
    const proxy = await startProxy("silent");
    proxies.push(proxy);
    const state = open({ url: proxy.url, timeoutMs: 400 });
    const startedAt = Date.now();
    const error = await failureOf(state.connect());
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(error.failure).toBe("timeout");
  });

  it("can connect() again after a failed attempt, once the server is back", async () => {
    const proxy = await startProxy("refuse");
    proxies.push(proxy);
    const state = open({ url: proxy.url, timeoutMs: 1_000 });
    // node-postgres gives up on a connection closed during startup at once; postgres.js takes it
    // for a restarting server and tries again until the budget is spent, so the step times out.
    expect((await failureOf(state.connect())).failure).toBe(
      process.env.BATON_STATE_PG_CLIENT === "postgres" ? "timeout" : "unavailable",
    );
    proxy.mode = "forward";
    await state.connect();
    await state.set("k", "back");
    expect(await state.get("k")).toBe("back");
  });

  it("fails calls while the server is gone and recovers when it returns, without reconnecting", async () => {
    const proxy = await startProxy("forward");
    proxies.push(proxy);
    const state = open({ url: proxy.url, timeoutMs: 1_000 });
    await state.connect();
    await state.set("k", 1);
    proxy.mode = "refuse";
    proxy.dropConnections();
    const error = await failureOf(state.get("k"));
    expect(error.failure).toBe("unavailable");
    proxy.mode = "forward";
    expect(await state.get("k")).toBe(1);
  });
});

describe("a slow or failing server", () => {
  it("rejects a statement stuck past timeoutMs with StateError timeout, then works again", async () => {
    await open().connect();
    const state = open({ timeoutMs: 500 });
    await state.connect();
    const release = await holdRowLock("busy");
    try {
      const startedAt = Date.now();
      const error = await failureOf(state.set("busy", 1));
      expect(error.failure).toBe("timeout");
      expect(error.step).toBe("set value");
      expect(Date.now() - startedAt).toBeLessThan(1_200);
      // The server cancelled the statement too (the backend sends a CancelRequest; no session
      // statement_timeout is set): while the row lock is still held, nothing waits on it, so
      // the abandoned write can never land later.
      await expect
        .poll(
          async () => {
            const waiting = await admin.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE application_name = 'baton-state-pg' AND wait_event_type = 'Lock'
               AND strpos(query, $1) > 0`,
              [schema],
            );
            return waiting.rows[0].n;
          },
          { timeout: 2_000 },
        )
        .toBe(0);
    } finally {
      await release();
    }
    expect(await state.get("busy")).toBeNull();
    await state.set("busy", 2);
    expect(await state.get("busy")).toBe(2);
  });

  it("surfaces a connection terminated by the server as a StateError, and the pool recovers", async () => {
    const state = open();
    await state.connect();
    await state.set("k", "before");
    const release = await holdRowLock("held");
    try {
      const pending = failureOf(state.set("held", 1));
      const pid = await waitForBlockedBackend();
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      const error = await pending;
      expect(error.failure).toBe("unavailable");
      expect(error.step).toBe("set value");
      expect(error.cause).toBeDefined();
    } finally {
      await release();
    }
    // Kill this state's idle pooled connections too (their last query named its schema; other
    // test files' connections are left alone): later calls get fresh ones.
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'baton-state-pg' AND strpos(query, $1) > 0`,
      [schema],
    );
    await sleep(100);
    expect(await state.get("k")).toBe("before");
    await state.set("held", 2);
    expect(await state.get("held")).toBe(2);
  });

  it("rolls back a transaction whose connection dies, leaving the queue unchanged", async () => {
    const state = open();
    await state.connect();
    const options = { maxSize: 5, onFull: "drop-oldest" } as const;
    const entry = (id: number) => ({ value: { id }, enqueuedAt: 0, expiresAt: 0 });
    await state.enqueue("q", entry(1), options);
    // Hold the queue's advisory lock as an enqueue would, so the next enqueue waits inside its
    // transaction, where the server then kills it.
    const blocker = await admin.connect();
    try {
      await blocker.query("BEGIN");
      const queueKey = advisoryKey(schema, "", "queue", "q");
      await blocker.query("SELECT pg_advisory_xact_lock($1::bigint)", [queueKey]);
      const pending = failureOf(state.enqueue("q", entry(2), options));
      const pid = await waitForBlockedBackend(queueKey);
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      expect((await pending).failure).toBe("unavailable");
    } finally {
      await blocker.query("ROLLBACK");
      blocker.release();
    }
    expect(await state.queueDepth("q")).toBe(1);
    expect(await state.enqueue("q", entry(3), options)).toEqual({ depth: 2, evicted: [] });
  });
});
