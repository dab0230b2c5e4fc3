import {
  ConfigError,
  isBatonError,
  type QueueEntry,
  silentLogger,
  ValidationError,
} from "@baton/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRedisState, RedisKeyLayout, type RedisState } from "../src/index.js";
import { keySlot } from "./key-slot.js";
import {
  connectRawClient,
  deleteKeysUnder,
  keysUnder,
  REDIS_URL,
  uniquePrefix,
} from "./redis-test-server.js";

// Throws at import when Redis is down: the file fails, it never skips.
const raw = await connectRawClient();
afterAll(() => raw.close());

const opened: RedisState[] = [];
afterEach(async () => {
  for (const state of opened.splice(0)) {
    await deleteKeysUnder(raw, state.keyPrefix);
    await state.disconnect();
  }
});

async function openState(keyPrefix = uniquePrefix()): Promise<RedisState> {
  const state = createRedisState({ url: REDIS_URL, keyPrefix, logger: silentLogger });
  opened.push(state);
  await state.connect();
  return state;
}

function entry(id: string): QueueEntry {
  const now = Date.now();
  return { value: { id }, enqueuedAt: now, expiresAt: now + 60_000 };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("what the backend really writes to Redis", () => {
  it("stores a lock whose PTTL on the server equals the TTL asked for", async () => {
    const state = await openState();
    const keys = new RedisKeyLayout(state.keyPrefix);
    const lock = await state.acquireLock("thread:slack:C1:T1", 10_000);
    expect(lock).not.toBeNull();
    const pttl = await raw.pTTL(keys.lock("thread:slack:C1:T1"));
    expect(pttl).toBeGreaterThan(9_000);
    expect(pttl).toBeLessThanOrEqual(10_000);
    expect(await raw.pExpireTime(keys.lock("thread:slack:C1:T1"))).toBe(lock?.expiresAt);
    expect(await raw.get(keys.lock("thread:slack:C1:T1"))).toBe(`${lock?.fence}:${lock?.token}`);
  });

  it("moves the lock key's PTTL on extend, and a forged extend leaves it alone", async () => {
    const state = await openState();
    const key = new RedisKeyLayout(state.keyPrefix).lock("k");
    const lock = await state.acquireLock("k", 2_000);
    if (!lock) throw new Error("expected the lock");
    expect(await state.extendLock(lock, 60_000)).toBe(true);
    expect(await raw.pTTL(key)).toBeGreaterThan(55_000);
    const before = await raw.pExpireTime(key);
    expect(await state.extendLock({ ...lock, token: "forged" }, 1_000)).toBe(false);
    expect(await raw.pExpireTime(key)).toBe(before);
    expect(await state.releaseLock(lock)).toBe(true);
    expect(await raw.exists(key)).toBe(0);
  });

  it("puts a key's lock, fence record, queue and index shard in one slot, each capability in its own namespace", async () => {
    expect(keySlot("123456789")).toBe(0x31c3 % 16_384); // the CRC16 check value of Redis's spec
    const state = await openState();
    const keys = ["thread:slack:C1:T1", "a}b", "}leading", "%7D", "{x}"];
    for (const key of keys) {
      await state.acquireLock(key, 60_000);
      await state.enqueue(key, entry("e"), { maxSize: 5, onFull: "drop-oldest" });
      await state.set(key, 1);
      await state.appendToList(key, 1);
      await state.claim(key, 60_000);
      await state.subscribe(key);
    }
    const written = await keysUnder(raw, state.keyPrefix);
    const layout = new RedisKeyLayout(state.keyPrefix);
    for (const key of keys) {
      const coordination = [
        layout.lock(key),
        layout.fence(key),
        layout.queue(key),
        layout.pendingShard(key),
      ];
      const items = [
        layout.value(key),
        layout.list(key),
        layout.claim(key),
        layout.subscription(key),
      ];
      expect(new Set([...coordination, ...items]).size).toBe(8);
      for (const redisKey of [...coordination, ...items]) expect(written).toContain(redisKey);
      expect(new Set(coordination.map(keySlot)).size).toBe(1);
      expect(new Set(items.map(keySlot)).size).toBe(1);
    }
    expect(layout.lock("thread:slack:C1:T1")).toMatch(
      new RegExp(`^${state.keyPrefix}:lock:\\{b\\d+\\}:thread:slack:C1:T1$`),
    );
    expect(layout.value("a}b")).toBe(`${state.keyPrefix}:value:{a%7Db}`);
    // The buckets spread: 200 thread keys land in most of the 64 shards.
    const shards = new Set(Array.from({ length: 200 }, (_, i) => layout.pendingShard(`t${i}`)));
    expect(shards.size).toBeGreaterThan(48);
    expect(layout.pendingShards).toHaveLength(64);
  });

  it("writes no key outside its prefix", async () => {
    const url = new URL(REDIS_URL);
    url.pathname = "/9"; // a database of its own, so other test files' keys do not show up
    const db9 = await connectRawClient(url.toString());
    const state = createRedisState({ url: url.toString(), keyPrefix: uniquePrefix() });
    try {
      const before = new Set(await db9.keys("*"));
      await state.connect();
      const lock = await state.acquireLock("k", 60_000);
      if (lock) await state.extendLock(lock, 60_000);
      await state.inspectLock("k");
      await state.enqueue("k", entry("1"), { maxSize: 1, onFull: "drop-oldest" });
      await state.enqueue("k", entry("2"), { maxSize: 1, onFull: "drop-oldest" });
      await state.pendingQueueKeys();
      await state.set("k", { a: 1 }, 60_000);
      await state.setIfNotExists("d", true, 60_000);
      await state.mergeObject("k", { b: 2 });
      await state.appendToList("k", 1, { maxLength: 2, ttlMs: 60_000 });
      const claim = await state.claim("k", 60_000);
      if (claim) await state.rearmClaim(claim);
      await state.subscribe("k");
      const added = (await db9.keys("*")).filter((key) => !before.has(key));
      expect(added.length).toBeGreaterThan(0);
      for (const key of added) expect(key.startsWith(`${state.keyPrefix}:`)).toBe(true);
      await db9.del(added);
    } finally {
      await state.disconnect();
      db9.destroy();
    }
  });

  it("keeps in the pending index exactly the queues that hold entries", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const indexed = async () =>
      (await Promise.all(layout.pendingShards.map((shard) => raw.sMembers(shard)))).flat().sort();
    const indexKeys = async () =>
      (await Promise.all(layout.pendingShards.map((shard) => raw.exists(shard)))).reduce(
        (sum, n) => sum + n,
        0,
      );
    const full = { maxSize: 1, onFull: "drop-newest" } as const;
    await state.enqueue("a", entry("a1"), full);
    await state.enqueue("a", entry("a2"), full); // refused: a stays indexed once
    await state.enqueue("b", entry("b1"), { maxSize: 1, onFull: "drop-oldest" });
    await state.enqueue("b", entry("b2"), { maxSize: 1, onFull: "drop-oldest" });
    await state.enqueue("c", entry("c1"), full);
    expect(await indexed()).toEqual(["a", "b", "c"]);
    expect(await raw.sMembers(layout.pendingShard("b"))).toContain("b");
    await state.dequeue("b");
    expect(await indexed()).toEqual(["a", "c"]);
    await state.dequeue("a");
    await state.dequeue("c");
    expect(await indexKeys()).toBe(0);
    expect(await state.dequeue("c")).toBeNull();
    expect(await indexKeys()).toBe(0);
  });

  it("drops a stale index entry when a queue was emptied behind its back", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    await state.enqueue("q", entry("1"), { maxSize: 3, onFull: "drop-oldest" });
    await raw.del(layout.queue("q"));
    expect(await state.pendingQueueKeys()).toEqual(["q"]);
    expect(await state.dequeue("q")).toBeNull();
    expect(await state.pendingQueueKeys()).toEqual([]);
  });

  it("lets dedupe marks from setIfNotExists expire on the server", async () => {
    const state = await openState();
    const key = new RedisKeyLayout(state.keyPrefix).value("dedupe:slack:1");
    expect(await state.setIfNotExists("dedupe:slack:1", true, 400)).toBe(true);
    expect(await state.setIfNotExists("dedupe:slack:1", true, 60_000)).toBe(false);
    const pttl = await raw.pTTL(key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(400);
    await sleep(600);
    expect(await raw.exists(key)).toBe(0);
  });

  it("merges objects without the damage cjson would do to untouched fields", async () => {
    const state = await openState();
    const stored = {
      empty: [],
      nested: { list: [], object: {}, deep: [[], [{}]] },
      big: Number.MAX_SAFE_INTEGER,
      float: 0.1 + 0.2,
      text: 'quote " backslash \\ braces {} [] colon: comma, é ✓ \u0001 \ud83d\ude00',
      'field with "quotes" and }': null,
      "1": "integer-like name",
    };
    await state.set("o", stored);
    const merged = await state.mergeObject("o", { added: [], big: 1, é: "x" });
    const expected = { ...stored, added: [], big: 1, é: "x" };
    expect(merged).toEqual(expected);
    expect(await state.get("o")).toEqual(expected);
    expect(Object.keys(merged)).toEqual(Object.keys(expected));
  });

  it("refuses to merge into a stored array, string or number, changing nothing", async () => {
    const state = await openState();
    for (const value of [[], "text", 5, null]) {
      await state.set("x", value);
      await expect(state.mergeObject("x", { a: 1 })).rejects.toBeInstanceOf(ValidationError);
      expect(await state.get("x")).toEqual(value);
    }
  });

  it("keeps a key's fences increasing when Redis loses its fence record", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const first = await state.acquireLock("a", 60_000);
    if (!first) throw new Error("expected the lock");
    expect(Number(await raw.get(layout.fence("a")))).toBe(first.fence);
    const recordTtlMs = await raw.pTTL(layout.fence("a"));
    expect(recordTtlMs).toBeGreaterThan(86_000_000); // kept a day after the last acquire
    await state.releaseLock(first);
    await raw.del(layout.fence("a")); // e.g. a restart without persistence, or the record's TTL
    const second = await state.acquireLock("a", 60_000);
    const claim = await state.claim("w", 60_000);
    if (!second || !claim) throw new Error("expected every acquire to win");
    expect(second.fence).toBeGreaterThan(first.fence);
    expect(Number.isSafeInteger(claim.generation)).toBe(true);
  });

  it("keeps a key's fences increasing when its fence record goes back, as after a failover", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const before = await state.acquireLock("a", 60_000);
    if (!before) throw new Error("expected the lock");
    await raw.del(layout.lock("a")); // the lock, too, was lost with the master
    await raw.set(layout.fence("a"), "5"); // a replica that lagged behind
    const after = await state.acquireLock("a", 60_000);
    if (!after) throw new Error("expected the acquire to win");
    expect(after.fence).toBeGreaterThan(before.fence);
  });

  it("stores a claim as a hash that expires with the claim, and keeps a completed one", async () => {
    const state = await openState();
    const key = new RedisKeyLayout(state.keyPrefix).claim("w");
    const claim = await state.claim("w", 300);
    if (!claim) throw new Error("expected the claim");
    expect(await raw.hGetAll(key)).toEqual({
      status: "claimed",
      generation: String(claim.generation),
      expiresAt: String(claim.expiresAt),
    });
    const [seconds, micros] = (await raw.sendCommand(["TIME"])) as [string, string];
    const serverNowMs = Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
    expect(Math.abs(claim.expiresAt - (serverNowMs + 300))).toBeLessThan(200);
    expect(await raw.pExpireTime(key)).toBe(claim.expiresAt); // purged by Redis when it lapses
    await sleep(450);
    expect(await raw.exists(key)).toBe(0);
    const next = await state.claim("w", 60_000);
    expect(next?.generation).toBeGreaterThan(claim.generation);
    expect(await state.completeClaim(next as NonNullable<typeof next>)).toBe(true);
    expect(await raw.hGet(key, "status")).toBe("completed");
    expect(await raw.pTTL(key)).toBe(-1); // no TTL: a completed record must stay
    const other = await state.claim("r", 60_000);
    expect(await state.rearmClaim(other as NonNullable<typeof other>)).toBe(true);
    expect(await raw.exists(new RedisKeyLayout(state.keyPrefix).claim("r"))).toBe(0); // absent = armed
  });

  it("rejects invalid arguments before anything is written", async () => {
    const state = await openState();
    const bad: Array<() => Promise<unknown>> = [
      () => state.set("", 1),
      () => state.set("k", 1, -1),
      () => state.set("k", undefined as never),
      () => state.setIfNotExists("k", 1, Number.POSITIVE_INFINITY),
      () => state.mergeObject("k", [] as never),
      () => state.acquireLock("", 1_000),
      () => state.claim("k", 0),
      () => state.appendToList("k", 1, { maxLength: 0 }),
      () => state.enqueue("k", entry("e"), { maxSize: 1.5, onFull: "drop-oldest" }),
      () => state.pendingQueueKeys(0),
    ];
    for (const call of bad) {
      await expect(call()).rejects.toSatisfy((error) => isBatonError(error, "VALIDATION_FAILED"));
    }
    expect(await keysUnder(raw, state.keyPrefix)).toEqual([]);
  });
});

describe("options", () => {
  it("lists every problem of the options in one ConfigError", () => {
    let caught: unknown;
    try {
      createRedisState({ keyPrefix: "", timeoutMs: 0 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(/url, cluster or client/);
    expect(problems.join("\n")).toMatch(/keyPrefix/);
    expect(problems.join("\n")).toMatch(/timeoutMs/);
  });

  it("refuses both url and client, a non-redis url, braces in the prefix and a NaN timeout", async () => {
    const client = (await import("redis")).createClient({ url: REDIS_URL });
    const attempt = () =>
      createRedisState({
        url: "http://user:secret@127.0.0.1:6379",
        client,
        keyPrefix: "{baton}",
        timeoutMs: Number.NaN,
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(4);
      expect(problems.join("\n")).not.toContain("secret");
    }
  });

  it("checks the cluster root nodes and the replication option", () => {
    let caught: unknown;
    try {
      createRedisState({
        cluster: { rootNodes: [{ url: "redis://127.0.0.1:7000" }, { url: "http://x" }] },
        replication: { waitReplicas: 0, timeoutMs: 10_000 },
        timeoutMs: 5_000,
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join("\n");
    expect(problems).toMatch(/cluster\.rootNodes\[1\]\.url/);
    expect(problems).toMatch(/replication\.waitReplicas/);
    expect(problems).toMatch(/replication\.timeoutMs: must be below timeoutMs/);
    expect(() =>
      createRedisState({ url: REDIS_URL, cluster: { rootNodes: [{ url: REDIS_URL }] } }),
    ).toThrow(/url and cluster: give one/);
    expect(() => createRedisState({ cluster: { rootNodes: [] } })).toThrow(/cluster\.rootNodes/);
  });

  it("accepts a url alone and applies the defaults", () => {
    const state = createRedisState({ url: REDIS_URL });
    expect(state.keyPrefix).toBe("baton");
    expect(state.name).toBe("redis");
  });
});
