import {
  type AcceptAndAcquireRequest,
  ConfigError,
  isBatonError,
  type QueueEntry,
  silentLogger,
} from "@baton/core";
import { createClient } from "redis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createRedisState, RedisKeyLayout, type RedisState } from "../src/index.js";
import {
  connectRawClient,
  deleteKeysUnder,
  keysUnder,
  REDIS_URL,
  uniquePrefix,
} from "./redis-test-server.js";

// What the fused fast paths really send and write on one Redis; the conformance suite
// (conformance.test.ts) checks their contract. Throws at import when Redis is down.
const raw = await connectRawClient();
afterAll(() => raw.close());

const opened: RedisState[] = [];
afterEach(async () => {
  for (const state of opened.splice(0)) {
    await deleteKeysUnder(raw, state.keyPrefix);
    await state.disconnect();
  }
});

async function openState(
  options: Partial<Parameters<typeof createRedisState>[0]> = {},
): Promise<RedisState> {
  const state = createRedisState({
    url: REDIS_URL,
    keyPrefix: uniquePrefix(),
    logger: silentLogger,
    ...options,
  });
  opened.push(state);
  await state.connect();
  return state;
}

function request(id: string, lockKey = "thread:slack:C1:T1"): AcceptAndAcquireRequest {
  return {
    dedupeKey: `dedupe:slack:${id}`,
    dedupeTtlMs: 60_000,
    lockKey,
    lockTtlMs: 30_000,
    threadId: "slack:C1:T1",
  };
}

function entry(id: string): QueueEntry {
  const now = Date.now();
  return { value: { id }, enqueuedAt: now, expiresAt: now + 60_000 };
}

describe("the fused fast paths on one Redis", () => {
  it("are offered by default and not with fastPaths: false", async () => {
    const fused = await openState();
    expect(typeof fused.acceptAndAcquire).toBe("function");
    expect(typeof fused.releaseAndNext).toBe("function");
    const plain = await openState({ fastPaths: false });
    expect(plain.acceptAndAcquire).toBeUndefined();
    expect(plain.releaseAndNext).toBeUndefined();
  });

  it("refuses a fastPaths option that is not a boolean", () => {
    expect(() => createRedisState({ url: REDIS_URL, fastPaths: "yes" as never })).toThrow(
      ConfigError,
    );
    expect(() => createRedisState({ url: REDIS_URL, fastPaths: 1 as never })).toThrow(
      /fastPaths: must be true or false/,
    );
  });

  it("send one command per call once the server has the scripts", async () => {
    const client = createClient({ url: REDIS_URL });
    client.on("error", () => undefined);
    await client.connect();
    try {
      const state = await openState({ url: undefined, client });
      // A server that never ran a script answers NOSCRIPT once (EVALSHA, then EVAL).
      const warm = await state.acceptAndAcquire?.(request("warm-up", "thread:warm-up"));
      if (warm?.kind !== "acquired") throw new Error("expected the warm-up lock");
      await state.releaseAndNext?.(warm.lock);
      const sent = vi.spyOn(client, "sendCommand");
      const accepted = await state.acceptAndAcquire?.(request("m1"));
      if (accepted?.kind !== "acquired") throw new Error("expected the lock");
      expect(sent).toHaveBeenCalledTimes(1);
      expect(await state.releaseAndNext?.(accepted.lock)).toEqual({ released: true, next: null });
      expect(sent).toHaveBeenCalledTimes(2);
      expect(sent.mock.calls.map(([args]) => String(args[0]))).toEqual(["EVALSHA", "EVALSHA"]);
    } finally {
      await client.close();
    }
  });

  it("write exactly the keys the separate calls write, with the TTLs asked for", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    await state.subscribe("slack:C1:T1");
    const result = await state.acceptAndAcquire?.(request("m1"));
    if (result?.kind !== "acquired") throw new Error("expected the lock");
    expect(result.subscribed).toBe(true);
    const mark = layout.value("dedupe:slack:m1");
    const lock = layout.lock("thread:slack:C1:T1");
    expect(await raw.get(mark)).toBe("1");
    expect(await state.get("dedupe:slack:m1")).toBe(1);
    const markTtl = await raw.pTTL(mark);
    expect(markTtl).toBeGreaterThan(50_000);
    expect(markTtl).toBeLessThanOrEqual(60_000);
    expect(await raw.get(lock)).toBe(`${result.lock.fence}:${result.lock.token}`);
    const lockTtl = await raw.pTTL(lock);
    expect(lockTtl).toBeGreaterThan(20_000);
    expect(lockTtl).toBeLessThanOrEqual(30_000);
    expect(Number(await raw.get(layout.fence("thread:slack:C1:T1")))).toBe(result.lock.fence);
    expect(await state.inspectLock("thread:slack:C1:T1")).toEqual({
      key: "thread:slack:C1:T1",
      fence: result.lock.fence,
      expiresAt: result.lock.expiresAt,
    });
    expect((await keysUnder(raw, state.keyPrefix)).sort()).toEqual(
      [mark, lock, layout.fence("thread:slack:C1:T1"), layout.subscription("slack:C1:T1")].sort(),
    );
  });

  it("answer busy without touching the holder's lock or fence record", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const holder = await state.acquireLock("thread:slack:C1:T1", 30_000);
    if (!holder) throw new Error("expected the lock");
    const before = await raw.get(layout.fence("thread:slack:C1:T1"));
    expect(await state.acceptAndAcquire?.(request("m2"))).toEqual({ kind: "busy" });
    expect(await raw.get(layout.lock("thread:slack:C1:T1"))).toBe(
      `${holder.fence}:${holder.token}`,
    );
    expect(await raw.get(layout.fence("thread:slack:C1:T1"))).toBe(before);
  });

  it("peek at the queue head without dequeuing it or dropping the queue from the pending index", async () => {
    const state = await openState();
    const key = "thread:slack:C1:T1";
    const lock = await state.acquireLock(key, 30_000);
    if (!lock) throw new Error("expected the lock");
    const queued = entry("a");
    await state.enqueue(key, queued, { maxSize: 10, onFull: "drop-oldest" });
    expect(await state.releaseAndNext?.(lock)).toEqual({ released: true, next: queued });
    expect(await state.queueDepth(key)).toBe(1);
    expect(await state.pendingQueueKeys()).toEqual([key]);
    expect(await raw.exists(new RedisKeyLayout(state.keyPrefix).lock(key))).toBe(0);
  });

  it("give back the lock and the mark when no replica confirms the lock, then reject", async () => {
    // The single-node test server has no replica: WAIT can never be satisfied.
    const state = await openState({ replication: { waitReplicas: 1, timeoutMs: 100 } });
    const failure = await state.acceptAndAcquire?.(request("m1")).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isBatonError(failure) && failure.code).toBe("STATE_UNAVAILABLE");
    expect(await state.inspectLock("thread:slack:C1:T1")).toBeNull();
    // The platform's retry must be processed, not taken for a duplicate.
    expect(await state.setIfNotExists("dedupe:slack:m1", 1, 60_000)).toBe(true);
  });

  it("reject before sending anything when not connected", async () => {
    const state = createRedisState({ url: REDIS_URL, keyPrefix: uniquePrefix() });
    await expect(state.acceptAndAcquire?.(request("m1"))).rejects.toSatisfy((error) =>
      isBatonError(error, "STATE_DISCONNECTED"),
    );
    await expect(
      state.releaseAndNext?.({ key: "k", token: "t", fence: 1, expiresAt: 0 }),
    ).rejects.toSatisfy((error) => isBatonError(error, "STATE_DISCONNECTED"));
  });
});
