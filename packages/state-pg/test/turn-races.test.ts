import type { Lock, ReleaseAndNextResult } from "@baton/core";
import { silentLogger } from "@baton/core";
import { Pool } from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresState, type PostgresState } from "../src/index.js";
import { createAdminPool, sleep, uniqueSchema } from "./support.js";
import {
  entryOf,
  ids,
  KEY,
  LONG_TTL_MS,
  ROUTES,
  turnFixture,
  turnOf,
  untilBlocked,
} from "./turn-support.js";

// Turn records under concurrency, directly and through PgBouncer: the fused paths with a turn
// stay one statement each; a record committed or ended while a statement waits for the key's
// advisory lock is seen (a transaction of our own holds that lock, so the statement has started,
// with its snapshot, before the commit); and many clients racing through the runtime's durable
// protocol lose no message and leave no lock or record behind.
const admin = createAdminPool();
afterAll(() => admin.end());

describe.each(ROUTES)("postgres turn races %s", (_how, url) => {
  const { states, one, table, turnRows, lockRow, lastFence, interrupted, holdGate, track } =
    turnFixture(admin, url);

  describe("the fused paths with a turn", () => {
    it("stay one statement each: an uncontended message costs 2", async () => {
      const schema = uniqueSchema();
      track({ schema });
      const pool = new Pool({ connectionString: url, max: 2 });
      track({ pool });
      const sent: string[] = [];
      pool.on("connect", (client) => {
        const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
          const first = args[0] as string | { text: string };
          sent.push(typeof first === "string" ? first : first.text);
          return clientQuery(...args);
        };
      });
      const state = createPostgresState({ pool, schema, purgeIntervalMs: 0, logger: silentLogger });
      await state.connect();
      track({ state });
      await state.subscribe("slack:C1:T1");
      sent.length = 0;

      const accepted = await state.acceptAndAcquire?.({
        dedupeKey: "dedupe:slack:m1",
        dedupeTtlMs: LONG_TTL_MS,
        lockKey: KEY,
        lockTtlMs: LONG_TTL_MS,
        threadId: "slack:C1:T1",
        turn: turnOf("m1"),
      });
      expect(accepted).toMatchObject({ kind: "acquired", subscribed: true });
      const lock = (accepted?.kind === "acquired" && accepted.lock) as Lock;
      expect(await turnRows(state)).toMatchObject([{ fence: lock.fence, attempt: 1 }]);
      const released = await state.releaseAndNext?.(lock, { turn: { kind: "end" } });
      expect(released).toEqual({ released: true, next: null });
      expect(sent).toHaveLength(2);
      expect(await turnRows(state)).toEqual([]);
      expect(await lockRow(state)).toBeUndefined();
    });

    it("acceptAndAcquire is busy, with its mark written, while an interrupted turn waits", async () => {
      const state = await one();
      const first = await interrupted(state, "m1");
      const request = {
        dedupeKey: "dedupe:slack:m2",
        dedupeTtlMs: LONG_TTL_MS,
        lockKey: KEY,
        lockTtlMs: LONG_TTL_MS,
        threadId: "slack:C1:T1",
        turn: turnOf("m2"),
      };
      const fenceBefore = await lastFence(state);
      expect(await state.acceptAndAcquire?.(request)).toEqual({ kind: "busy" });
      expect(await state.acceptAndAcquire?.(request)).toEqual({ kind: "duplicate" });
      expect(await lastFence(state)).toBe(fenceBefore);
      expect(await turnRows(state)).toMatchObject([
        { fence: first.fence, entries: [entryOf("m1")] },
      ]);
    });

    it("releaseAndNext hands back with a look at the queue", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      await peer.enqueue(KEY, entryOf("q1"), { maxSize: 10, onFull: "drop-oldest" });
      const result = await state.releaseAndNext?.(lock, {
        turn: { kind: "hand-back", reason: "lease-lost" },
      });
      expect(result).toEqual({ released: true, next: entryOf("q1") });
      expect(await turnRows(state)).toMatchObject([
        { fence: lock.fence, handed_back: "lease-lost" },
      ]);
      expect(await state.queueDepth(KEY)).toBe(1);
    });
  });

  describe("a commit that lands while a statement waits for the key's advisory lock", () => {
    it("acquire with a turn sees a record committed meanwhile, and is refused", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const gate = await holdGate(state);
      const acquiring = peer.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m2") });
      await untilBlocked(admin, "pg_advisory_xact_lock");
      // What an interrupted holder left, committed after the acquire took its snapshot.
      await gate.client.query(
        `INSERT INTO ${table(state, "turns")} (prefix, key, entries, fence, attempt, started_at_ms)
         VALUES ('', $1, '[]'::jsonb, 1, 1, 0)`,
        [KEY],
      );
      await gate.commit();
      expect(await acquiring).toBeNull();
      expect(await turnRows(state)).toMatchObject([{ fence: 1, entries: [] }]);
    });

    it("a release with a turn waits for it too, and then sees an entry enqueued meanwhile", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const lock = (await state.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m1") })) as Lock;
      const gate = await holdGate(state);
      // Serialized with every other writer of the key's record: a contender's acquire can never
      // read the record between this release's delete and its commit.
      const releasing = state.releaseAndNext?.(lock, { turn: { kind: "end" } });
      await untilBlocked(admin, "pg_advisory_xact_lock");
      await peer.enqueue(KEY, entryOf("q1"), { maxSize: 10, onFull: "drop-oldest" });
      await gate.commit();
      expect(await releasing).toEqual({ released: true, next: entryOf("q1") });
      expect(await turnRows(state)).toEqual([]);
    });

    it("recoverTurn sees a record committed meanwhile, and takes it", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const gate = await holdGate(state);
      const recovering = peer.recoverTurn(KEY, LONG_TTL_MS, { startedAt: 9 });
      await untilBlocked(admin, "pg_advisory_xact_lock");
      await gate.client.query(
        `INSERT INTO ${table(state, "turns")} (prefix, key, entries, fence, attempt, started_at_ms)
         VALUES ('', $1, $2::jsonb, 1, 1, 0)`,
        [KEY, JSON.stringify([entryOf("m1")])],
      );
      await gate.commit();
      const recovered = await recovering;
      expect(recovered?.interrupted).toMatchObject({ fence: 1, attempt: 1 });
      expect(await turnRows(state)).toMatchObject([
        { fence: recovered?.lock.fence, attempt: 2, started_at_ms: 9 },
      ]);
    });

    it("acquire with a turn sees a record ended meanwhile, and takes the lock", async () => {
      const [state, peer] = (await states(2)) as [PostgresState, PostgresState];
      const lapsed = await interrupted(state, "m1");
      const gate = await holdGate(state);
      const acquiring = peer.acquireLock(KEY, LONG_TTL_MS, { turn: turnOf("m2") });
      await untilBlocked(admin, "pg_advisory_xact_lock");
      // The lapsed holder's release ends the record while the acquire waits.
      await gate.client.query(`DELETE FROM ${table(state, "turns")} WHERE key = $1`, [KEY]);
      await gate.commit();
      const lock = await acquiring;
      expect(lock?.fence).toBeGreaterThan(lapsed.fence);
      expect(await turnRows(state)).toMatchObject([
        { fence: lock?.fence, entries: [entryOf("m2")] },
      ]);
    });
  });

  it("races of accept, enqueue, drain and release with turns lose no message and leave no record", async () => {
    const clients = await states(4);
    const keys = ["thread:a", "thread:b", "thread:c"];
    const messages = Array.from({ length: 120 }, (_, i) => ({
      id: `m${i}`,
      key: keys[i % keys.length] as string,
    }));
    const handled = new Map<string, number>();
    const holders = new Set<string>();
    const lastFence = new Map<string, number>();
    const problems: string[] = [];
    const handle = (id: string) => handled.set(id, (handled.get(id) ?? 0) + 1);
    const enter = (lock: Lock) => {
      if (holders.has(lock.key)) problems.push(`${lock.key} held twice`);
      if ((lastFence.get(lock.key) ?? 0) >= lock.fence) problems.push(`${lock.key} fence back`);
      holders.add(lock.key);
      lastFence.set(lock.key, lock.fence);
    };

    // The runtime's durable protocol: run the own turn, drain with takeQueuedTurn (each round
    // a record), release ending the turn with a look at the queue, take the lock again (with a
    // turn) when the look saw an entry; a contender enqueues, then tries the lock once.
    async function holdAndDrain(state: PostgresState, first: Lock, own: string | undefined) {
      let lock: Lock | null = first;
      let mine = own;
      while (lock) {
        enter(lock);
        const record = await state.inspectTurn(lock.key);
        if (record?.fence !== lock.fence) problems.push(`${lock.key} runs without its record`);
        if (mine) handle(mine);
        mine = undefined;
        await sleep(Math.random() * 2);
        for (;;) {
          const round = await state.takeQueuedTurn(lock, { maxEntries: 3, startedAt: Date.now() });
          if (round.length === 0) break;
          for (const id of ids(round)) handle(id);
        }
        holders.delete(lock.key);
        const result: ReleaseAndNextResult | undefined = await state.releaseAndNext?.(lock, {
          turn: { kind: "end" },
        });
        if (result?.released !== true) problems.push(`${lock.key} release failed`);
        lock = result?.next
          ? await state.acquireLock(lock.key, LONG_TTL_MS, { turn: { entries: [], startedAt: 0 } })
          : null;
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
        turn: turnOf(message.id),
      });
      if (outcome?.kind === "acquired") return holdAndDrain(state, outcome.lock, message.id);
      if (outcome?.kind !== "busy") return;
      await state.enqueue(message.key, entryOf(message.id), {
        maxSize: 10_000,
        onFull: "drop-newest",
      });
      const lock = await state.acquireLock(message.key, LONG_TTL_MS, {
        turn: { entries: [], startedAt: 0 },
      });
      if (lock) await holdAndDrain(state, lock, undefined);
    }

    await Promise.all(messages.flatMap((message) => [deliver(message, 0), deliver(message, 1)]));

    expect(problems).toEqual([]);
    expect([...handled.keys()].sort()).toEqual(messages.map((m) => m.id).sort());
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    const state = clients[0] as PostgresState;
    for (const key of keys) {
      expect(await state.queueDepth(key), `queue ${key} left behind`).toBe(0);
      expect(await state.inspectLock(key), `lock ${key} left held`).toBeNull();
      expect(await state.inspectTurn(key), `record ${key} left behind`).toBeNull();
    }
    expect(await state.pendingTurnKeys()).toEqual([]);
  }, 60_000);
});
