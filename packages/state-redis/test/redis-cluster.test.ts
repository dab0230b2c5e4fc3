import { isBatonError, type QueueEntry, silentLogger } from "@baton/core";
import { createCluster } from "redis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRedisState, RedisKeyLayout, type RedisState } from "../src/index.js";
import {
  CLUSTER_OPTION,
  CLUSTER_ROOT_URLS,
  clusterDeleteKeysUnder,
  clusterKeysUnder,
  connectRawCluster,
} from "./redis-cluster-server.js";
import { REDIS_URL, uniquePrefix } from "./redis-test-server.js";

// Throws at import when the cluster is down: the file fails, it never skips.
const raw = await connectRawCluster();
afterAll(() => raw.close());

const opened: RedisState[] = [];
afterEach(async () => {
  for (const state of opened.splice(0)) {
    await clusterDeleteKeysUnder(raw, state.keyPrefix);
    await state.disconnect();
  }
});

async function openState(options: Partial<Parameters<typeof createRedisState>[0]> = {}) {
  const state = createRedisState({
    cluster: CLUSTER_OPTION,
    keyPrefix: uniquePrefix(),
    logger: silentLogger,
    ...options,
  });
  opened.push(state);
  await state.connect();
  return state;
}

function entry(id: string): QueueEntry {
  const now = Date.now();
  return { value: { id }, enqueuedAt: now, expiresAt: now + 60_000 };
}

/** The slot as the server computes it. */
async function serverSlot(key: string): Promise<number> {
  return Number(await raw.sendCommand(key, true, ["CLUSTER", "KEYSLOT", key]));
}

/** host:port of the master serving `key`. */
async function masterOf(key: string): Promise<string> {
  const master = raw.getSlotMaster(await serverSlot(key));
  return `${master.host}:${master.port}`;
}

describe("on a Redis Cluster", () => {
  it("puts a thread's lock, fence record, queue and index shard in one slot, by the server's count", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    for (const key of ["thread:slack:C1:T1", "channel:teams:19:abc", "}{odd{"]) {
      const slots = await Promise.all(
        [layout.lock(key), layout.fence(key), layout.queue(key), layout.pendingShard(key)].map(
          serverSlot,
        ),
      );
      expect(new Set(slots).size).toBe(1);
    }
    expect(state.isCluster).toBe(true);
  });

  it("spreads locks over every master, and the sweep finds queues on all of them", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const keys = Array.from({ length: 120 }, (_, i) => `thread:mock:C1:T${i}`);
    for (const key of keys) {
      expect(await state.acquireLock(key, 60_000)).not.toBeNull();
      await state.enqueue(key, entry(key), { maxSize: 5, onFull: "drop-oldest" });
    }
    const masters = new Set(await Promise.all(keys.map((key) => masterOf(layout.lock(key)))));
    expect(masters.size).toBe(3);
    expect((await state.pendingQueueKeys(1_000)).sort()).toEqual([...keys].sort());
    const some = await state.pendingQueueKeys(10);
    expect(some).toHaveLength(10);
    for (const key of keys) await state.dequeue(key);
    expect(await state.pendingQueueKeys(1_000)).toEqual([]);
    const left = await clusterKeysUnder(raw, `${state.keyPrefix}:pending`);
    expect(left).toEqual([]);
  });

  it("accepts a ready cluster client, and neither opens nor closes it", async () => {
    const client = createCluster({ rootNodes: CLUSTER_ROOT_URLS.map((url) => ({ url })) });
    client.on("error", () => undefined);
    const notOpen = createRedisState({ client, keyPrefix: uniquePrefix(), logger: silentLogger });
    const refused = await notOpen.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isBatonError(refused) && refused.code).toBe("STATE_UNAVAILABLE");
    await client.connect();
    try {
      const state = await openState({ cluster: undefined, client });
      const lock = await state.acquireLock("k", 60_000);
      expect(lock).not.toBeNull();
      await state.disconnect();
      opened.splice(opened.indexOf(state), 1);
      expect(client.isOpen).toBe(true);
      await clusterDeleteKeysUnder(raw, state.keyPrefix);
    } finally {
      await client.close();
    }
  });
});

describe("fast paths on a Redis Cluster", () => {
  it("offers releaseAndNext but never the cross-slot acceptAndAcquire, also on a borrowed client", async () => {
    const state = await openState();
    expect(state.acceptAndAcquire).toBeUndefined();
    const lock = await state.acquireLock("thread:slack:C1:T1", 60_000);
    if (!lock) throw new Error("expected the lock");
    const queued = entry("a");
    await state.enqueue("thread:slack:C1:T1", queued, { maxSize: 10, onFull: "drop-oldest" });
    expect(await state.releaseAndNext?.(lock)).toEqual({ released: true, next: queued });
    // A cluster client handed in is recognised before connect(), so the choice never changes.
    const client = createCluster({ rootNodes: CLUSTER_ROOT_URLS.map((url) => ({ url })) });
    const borrowed = createRedisState({ client, keyPrefix: uniquePrefix(), logger: silentLogger });
    expect(borrowed.acceptAndAcquire).toBeUndefined();
    expect(typeof borrowed.releaseAndNext).toBe("function");
  });
});

describe("replication: { waitReplicas }", () => {
  it("confirms lock writes on a replica before they count", async () => {
    const state = await openState({ replication: { waitReplicas: 1, timeoutMs: 1_000 } });
    const lock = await state.acquireLock("k", 60_000);
    if (!lock) throw new Error("expected the lock");
    expect(await state.extendLock(lock, 60_000)).toBe(true);
    expect(await state.releaseLock(lock)).toBe(true);
    const next = await state.acquireLock("k", 60_000);
    expect(next?.fence).toBeGreaterThan(lock.fence);
  });

  it("refuses a lock no replica confirmed, and gives it back", async () => {
    // The single-node test server has no replica: WAIT can never be satisfied.
    const state = createRedisState({
      url: REDIS_URL,
      keyPrefix: uniquePrefix(),
      logger: silentLogger,
      replication: { waitReplicas: 1, timeoutMs: 100 },
    });
    await state.connect();
    try {
      const failure = await state.acquireLock("k", 60_000).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isBatonError(failure) && failure.code).toBe("STATE_UNAVAILABLE");
      expect(String((failure as Error).message)).toMatch(/not confirmed by 1 replica/);
      expect(await state.inspectLock("k")).toBeNull();
    } finally {
      await state.disconnect();
    }
  });
});
