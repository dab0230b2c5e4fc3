import { type Lock, type QueueEntry, silentLogger } from "@baton/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRedisState, RedisKeyLayout, type RedisState } from "../src/index.js";
import {
  CLUSTER_OPTION,
  clusterDeleteKeysUnder,
  clusterKeysUnder,
  connectRawCluster,
} from "./redis-cluster-server.js";
import { uniquePrefix } from "./redis-test-server.js";

// Turn records (DESIGN §6.1) on a real Redis Cluster (3 masters + 3 replicas, .ci/services.sh):
// a script whose keys span slots fails here with CROSSSLOT. Throws at import when the cluster is
// down: the file fails, it never skips.
const raw = await connectRawCluster();
afterAll(() => raw.close());

const opened: RedisState[] = [];
afterEach(async () => {
  for (const state of opened.splice(0)) {
    await clusterDeleteKeysUnder(raw, state.keyPrefix);
    await state.disconnect();
  }
});

async function openState(): Promise<RedisState> {
  const state = createRedisState({
    cluster: CLUSTER_OPTION,
    keyPrefix: uniquePrefix(),
    logger: silentLogger,
  });
  opened.push(state);
  await state.connect();
  return state;
}

const T0 = Date.UTC(2026, 0, 1);
const T1 = Date.UTC(2026, 0, 1, 0, 5);

function entry(id: string): QueueEntry {
  return { value: { id }, enqueuedAt: T0, expiresAt: T0 + 600_000 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The slot as the server computes it. */
async function serverSlot(key: string): Promise<number> {
  return Number(await raw.sendCommand(key, true, ["CLUSTER", "KEYSLOT", key]));
}

/** host:port of the master serving `key`. */
async function masterOf(key: string): Promise<string> {
  const master = raw.getSlotMaster(await serverSlot(key));
  return `${master.host}:${master.port}`;
}

async function must<T>(value: Promise<T | null | undefined>): Promise<T> {
  const resolved = await value;
  if (resolved === null || resolved === undefined) throw new Error("expected a value");
  return resolved;
}

describe("turn records on a Redis Cluster", () => {
  it("sit in their lock's slot, with their index shard, by the server's count", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    for (const key of ["thread:slack:C1:T1", "channel:teams:19:abc", "}{odd{"]) {
      const slots = await Promise.all(
        [
          layout.lock(key),
          layout.fence(key),
          layout.queue(key),
          layout.pendingShard(key),
          layout.turn(key),
          layout.pendingTurnShard(key),
        ].map(serverSlot),
      );
      expect(new Set(slots).size).toBe(1);
    }
  });

  it("go through a whole life on keys of every master: acquire, take, write, hand back, recover, end", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    expect(state.acceptAndAcquire).toBeUndefined(); // ADR 0026: acquireLock carries the turn here
    const keys = Array.from({ length: 60 }, (_, i) => `thread:mock:C1:T${i}`);
    const locks = new Map<string, Lock>();
    for (const key of keys) {
      const lock = await must(
        state.acquireLock(key, 60_000, { turn: { entries: [entry(key)], startedAt: T0 } }),
      );
      expect(await raw.pTTL(layout.turn(key))).toBe(-1);
      await state.enqueue(key, entry(`${key}:q`), { maxSize: 5, onFull: "drop-oldest" });
      expect(await state.takeQueuedTurn(lock, { maxEntries: 5, startedAt: T1 })).toEqual([
        entry(`${key}:q`),
      ]);
      expect(await state.writeTurn(lock, { entries: [entry(key)], startedAt: T1 })).toBe(true);
      expect(await state.extendLock(lock, 60_000)).toBe(true);
      locks.set(key, lock);
    }
    const masters = new Set(await Promise.all(keys.map((key) => masterOf(layout.turn(key)))));
    expect(masters.size).toBe(3);
    expect(await state.pendingTurnKeys(1_000)).toEqual([]);

    const handedBack = keys.filter((_, i) => i % 2 === 0);
    for (const key of handedBack) {
      const reason = { turn: { kind: "hand-back", reason: "shutdown" } } as const;
      expect(await state.releaseLock(locks.get(key) as Lock, reason)).toBe(true);
    }
    expect((await state.pendingTurnKeys(1_000)).sort()).toEqual([...handedBack].sort());
    expect(await state.pendingTurnKeys(7)).toHaveLength(7);

    for (const key of handedBack) {
      const recovered = await must(state.recoverTurn(key, 60_000, { startedAt: T1 }));
      expect(recovered.interrupted).toEqual({
        key,
        entries: [entry(key)],
        fence: (locks.get(key) as Lock).fence,
        attempt: 1,
        startedAt: T1,
        handedBack: "shutdown",
      });
      expect(recovered.lock.fence).toBeGreaterThan((locks.get(key) as Lock).fence);
      expect((await state.inspectTurn(key))?.attempt).toBe(2);
      locks.set(key, recovered.lock);
    }
    expect(await state.pendingTurnKeys(1_000)).toEqual([]);

    for (const key of keys) {
      const result = await state.releaseAndNext?.(locks.get(key) as Lock, {
        turn: { kind: "end" },
      });
      expect(result).toEqual({ released: true, next: null });
    }
    expect(await clusterKeysUnder(raw, `${state.keyPrefix}:turn`)).toEqual([]);
    expect(await clusterKeysUnder(raw, `${state.keyPrefix}:pending-turns`)).toEqual([]);
    expect(await clusterKeysUnder(raw, `${state.keyPrefix}:pending`)).toEqual([]);
  });

  it("list turns whose lease ran out by the servers' clocks, on every master", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const keys = Array.from({ length: 24 }, (_, i) => `thread:mock:C2:T${i}`);
    for (const key of keys) {
      await must(state.acquireLock(key, 200, { turn: { entries: [entry(key)], startedAt: T0 } }));
    }
    expect(new Set(await Promise.all(keys.map((key) => masterOf(layout.turn(key))))).size).toBe(3);
    expect(await state.pendingTurnKeys(1_000)).toEqual([]);
    await sleep(200 + 300);
    expect((await state.pendingTurnKeys(1_000)).sort()).toEqual([...keys].sort());
    // An acquire with a turn is refused while an interrupted turn waits; recovery takes it.
    expect(
      await state.acquireLock(keys[0] as string, 60_000, { turn: { entries: [], startedAt: T1 } }),
    ).toBeNull();
    const recovered = await must(state.recoverTurn(keys[0] as string, 60_000, { startedAt: T1 }));
    expect(recovered.interrupted.handedBack).toBeUndefined();
    expect(await state.pendingTurnKeys(1_000)).toHaveLength(keys.length - 1);
  });
});
