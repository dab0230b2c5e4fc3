import type { Lock, QueueEntry, ReleaseAndNextResult } from "@baton/core";
import { silentLogger } from "@baton/core";
import { escapeIdentifier, type PoolClient } from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import {
  createAdminPool,
  dropSchema,
  PGBOUNCER_STATE_URL,
  sleep,
  TEST_URL,
  uniqueSchema,
} from "./support.js";

// The fused fast paths against the real server, directly and through PgBouncer in transaction
// mode. The conformance suite (conformance*.test.ts) checks their contract case by case; here
// the two snapshot hazards of a single statement are played deterministically (a transaction of
// our own holds the lock row, so the fused statement has started and waits while another client
// commits), and a race of many clients follows the runtime's queue protocol end to end.
const admin = createAdminPool();
const LONG_TTL_MS = 30_000;

afterAll(async () => {
  await admin.end();
});

function entryOf(id: string): QueueEntry {
  const now = Date.now();
  return { value: { id }, enqueuedAt: now, expiresAt: now + LONG_TTL_MS };
}

/**
 * Waits until a backend runs a statement containing `marker` and waits for a lock. The server
 * shows only the first 1 kB of a statement (track_activity_query_size), so the marker must be
 * near its start.
 */
async function untilBlocked(marker: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [marker],
    );
    if (rows[0].n > 0) return;
    await sleep(10);
  }
  throw new Error(`no statement with ${marker} ever waited for a lock`);
}

describe.each([
  ["directly", TEST_URL],
  ["through pgbouncer", PGBOUNCER_STATE_URL],
])("postgres fast paths %s", (_how, url) => {
  const opened: PostgresState[] = [];
  const schemas: string[] = [];
  const openTransactions: (() => Promise<void>)[] = [];

  afterEach(async () => {
    // A failed test must not leave our transaction holding rows the next cleanup needs.
    for (const commit of openTransactions.splice(0)) await commit();
    for (const state of opened.splice(0)) await state.disconnect();
    for (const schema of schemas.splice(0)) await dropSchema(admin, schema);
  });

  async function states(count: number): Promise<PostgresState[]> {
    const schema = uniqueSchema();
    schemas.push(schema);
    const made: PostgresState[] = [];
    for (let i = 0; i < count; i++) {
      const state = createPostgresState({ url, schema, purgeIntervalMs: 0, logger: silentLogger });
      await state.connect();
      opened.push(state);
      made.push(state);
    }
    return made;
  }

  /** A transaction of our own that holds the lock row of `key` (or has deleted it, uncommitted). */
  async function holdLockRow(state: PostgresState, key: string, how: "lock" | "delete") {
    const client: PoolClient = await admin.connect();
    const table = `${escapeIdentifier(state.schema)}.locks`;
    await client.query("BEGIN");
    const sql =
      how === "lock"
        ? `SELECT 1 FROM ${table} WHERE key = $1 FOR UPDATE`
        : `DELETE FROM ${table} WHERE key = $1`;
    const { rowCount } = await client.query(sql, [key]);
    let open = true;
    const commit = async () => {
      if (!open) return;
      open = false;
      await client.query("COMMIT");
      client.release();
    };
    openTransactions.push(commit);
    expect(rowCount).toBe(1);
    return commit;
  }

  it("releaseAndNext sees an entry committed while it waited for the lock row", async () => {
    const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
    const key = "thread:slack:C1:T1";
    const lock = await state.acquireLock(key, LONG_TTL_MS);
    expect(lock).not.toBeNull();
    const commit = await holdLockRow(state, key, "lock");

    // The statement starts (and takes its snapshot) before the enqueue commits.
    const releasing = state.releaseAndNext?.(lock as Lock);
    await untilBlocked("WITH released AS");
    await peer.enqueue(key, entryOf("late"), { maxSize: 10, onFull: "drop-oldest" });
    await commit();

    const result = await releasing;
    expect(result?.released).toBe(true);
    expect(result?.next?.value).toEqual({ id: "late" });
    expect(await state.queueDepth(key)).toBe(1);
  });

  it("acceptAndAcquire reads a subscription committed while it waited for the lock", async () => {
    const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
    const lockKey = "thread:slack:C1:T1";
    expect(await state.acquireLock(lockKey, LONG_TTL_MS)).not.toBeNull();
    // The holder's release is under way: its row is deleted but not yet committed.
    const commit = await holdLockRow(state, lockKey, "delete");

    const accepting = state.acceptAndAcquire?.({
      dedupeKey: "dedupe:slack:m1",
      dedupeTtlMs: LONG_TTL_MS,
      lockKey,
      lockTtlMs: LONG_TTL_MS,
      threadId: "slack:C1:T1",
    });
    await untilBlocked("WITH mark AS");
    // What the previous holder's handler did before its release committed.
    await peer.subscribe("slack:C1:T1");
    await commit();

    const result = await accepting;
    expect(result?.kind).toBe("acquired");
    expect(result?.kind === "acquired" && result.subscribed).toBe(true);
  });

  it("races of accept, enqueue and release across pools lose no wake-up and never double-hold", async () => {
    const clients = await states(4);
    const keys = ["thread:a", "thread:b", "thread:c"];
    const messages = Array.from({ length: 180 }, (_, i) => ({
      id: `m${i}`,
      key: keys[i % keys.length] as string,
    }));
    const handled = new Map<string, number>();
    const holders = new Map<string, number>();
    const lastFence = new Map<string, number>();
    const problems: string[] = [];

    const handle = (id: string) => handled.set(id, (handled.get(id) ?? 0) + 1);
    const enter = (lock: Lock) => {
      if (holders.has(lock.key)) problems.push(`${lock.key} held twice`);
      if ((lastFence.get(lock.key) ?? 0) >= lock.fence)
        problems.push(`${lock.key} fence went back`);
      holders.set(lock.key, lock.fence);
      lastFence.set(lock.key, lock.fence);
    };

    // The runtime's queue protocol: run, drain, release with a peek, take the lock again when
    // the peek saw an entry; a contender enqueues, then tries the lock once.
    async function holdAndDrain(state: PostgresState, first: Lock, own: string | undefined) {
      let lock: Lock | null = first;
      let mine = own;
      while (lock) {
        enter(lock);
        if (mine) handle(mine);
        mine = undefined;
        await sleep(Math.random() * 2);
        for (let e = await state.dequeue(lock.key); e; e = await state.dequeue(lock.key)) {
          handle((e.value as { id: string }).id);
        }
        holders.delete(lock.key);
        const result: ReleaseAndNextResult | undefined = await state.releaseAndNext?.(lock);
        if (result?.released !== true) problems.push(`${lock.key} release failed`);
        lock = result?.next ? await state.acquireLock(lock.key, LONG_TTL_MS) : null;
      }
    }

    async function deliver(message: { id: string; key: string }, copy: number) {
      const state = clients[(Number(message.id.slice(1)) + copy) % clients.length] as PostgresState;
      const outcome = await state.acceptAndAcquire?.({
        dedupeKey: `dedupe:${message.id}`,
        dedupeTtlMs: LONG_TTL_MS,
        lockKey: message.key,
        lockTtlMs: LONG_TTL_MS,
        threadId: message.key,
      });
      if (outcome?.kind === "acquired") return holdAndDrain(state, outcome.lock, message.id);
      if (outcome?.kind !== "busy") return;
      await state.enqueue(message.key, entryOf(message.id), {
        maxSize: 10_000,
        onFull: "drop-newest",
      });
      const lock = await state.acquireLock(message.key, LONG_TTL_MS);
      if (lock) await holdAndDrain(state, lock, undefined);
    }

    // Every message is delivered twice, by different clients: the copy must be a duplicate.
    await Promise.all(messages.flatMap((message) => [deliver(message, 0), deliver(message, 1)]));

    expect(problems).toEqual([]);
    expect([...handled.keys()].sort()).toEqual(messages.map((m) => m.id).sort());
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    for (const key of keys) {
      expect(await clients[0]?.queueDepth(key), `queue ${key} left behind`).toBe(0);
      expect(await clients[0]?.inspectLock(key), `lock ${key} left held`).toBeNull();
    }
  }, 60_000);
});

describe("postgres fast paths switched off", () => {
  it("offers neither method with fastPaths: false, so the runtime uses the separate calls", () => {
    const state = createPostgresState({ url: TEST_URL, fastPaths: false, logger: silentLogger });
    expect(state.acceptAndAcquire).toBeUndefined();
    expect(state.releaseAndNext).toBeUndefined();
    const byDefault = createPostgresState({ url: TEST_URL, logger: silentLogger });
    expect(typeof byDefault.acceptAndAcquire).toBe("function");
    expect(typeof byDefault.releaseAndNext).toBe("function");
  });
});
