import {
  type AcceptAndAcquireRequest,
  isBatonError,
  type QueueEntry,
  silentLogger,
  type TurnWrite,
  ValidationError,
} from "@baton/core";
import { createClient } from "redis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { bucketOf, createRedisState, RedisKeyLayout, type RedisState } from "../src/index.js";
import { keySlot } from "./key-slot.js";
import {
  connectRawClient,
  deleteKeysUnder,
  keysUnder,
  REDIS_URL,
  uniquePrefix,
} from "./redis-test-server.js";

// What the turn-record scripts (DESIGN §6.1) really write on one Redis, looked at with a raw
// client; the conformance suite checks their contract. Throws at import when Redis is down.
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

const KEY = "thread:slack:C1:T1";
const T0 = Date.UTC(2026, 0, 1);
const T1 = Date.UTC(2026, 0, 1, 0, 5);

function entry(id: string, value: QueueEntry["value"] = { id }): QueueEntry {
  return { value, enqueuedAt: T0, expiresAt: T0 + 600_000 };
}

function turnOf(ids: string[], startedAt = T0): TurnWrite {
  return { entries: ids.map((id) => entry(id)), startedAt };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function must<T>(value: Promise<T | null | undefined> | undefined): Promise<T> {
  const resolved = await value;
  if (resolved === null || resolved === undefined) throw new Error("expected a value");
  return resolved;
}

/** The pending-turn index score of `key`: its lease's end, 0 when freed, null when unlisted. */
function indexScore(state: RedisState, key = KEY): Promise<number | null> {
  return raw.zScore(new RedisKeyLayout(state.keyPrefix).pendingTurnShard(key), key);
}

describe("turn records on one Redis", () => {
  it("are written with the acquire next to the lock: a hash with no TTL, listed at the lease's end", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const turn = turnOf(["a", "b"]);
    const lock = await must(state.acquireLock(KEY, 30_000, { turn }));
    expect(await raw.hGetAll(layout.turn(KEY))).toEqual({
      entries: JSON.stringify(turn.entries),
      fence: String(lock.fence),
      attempt: "1",
      startedAt: String(T0),
    });
    expect(await raw.pTTL(layout.turn(KEY))).toBe(-1);
    expect(await indexScore(state)).toBe(lock.expiresAt);
    const tag = `{b${bucketOf(KEY)}}`;
    expect(layout.turn(KEY)).toBe(`${state.keyPrefix}:turn:${tag}:${KEY}`);
    expect(layout.pendingTurnShard(KEY)).toBe(`${state.keyPrefix}:pending-turns:${tag}`);
    expect(keySlot(layout.turn(KEY))).toBe(keySlot(layout.lock(KEY)));
    expect(keySlot(layout.pendingTurnShard(KEY))).toBe(keySlot(layout.lock(KEY)));
    expect((await keysUnder(raw, state.keyPrefix)).sort()).toEqual(
      [layout.lock(KEY), layout.fence(KEY), layout.turn(KEY), layout.pendingTurnShard(KEY)].sort(),
    );
    expect(await state.inspectTurn(KEY)).toEqual({
      key: KEY,
      entries: turn.entries,
      fence: lock.fence,
      attempt: 1,
      startedAt: T0,
    });
  });

  it("leave nothing but the fence record once the turn ended, and plain locks create no index key", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const plain = await must(state.acquireLock("other", 30_000));
    expect(await state.extendLock(plain, 30_000)).toBe(true);
    expect(await state.releaseLock(plain)).toBe(true);
    await state.forceReleaseLock("other");
    expect(await keysUnder(raw, state.keyPrefix)).toEqual([layout.fence("other")]);
    const lock = await must(state.acquireLock(KEY, 30_000, { turn: turnOf(["a"]) }));
    expect(await state.releaseLock(lock, { turn: { kind: "end" } })).toBe(true);
    expect((await keysUnder(raw, state.keyPrefix)).sort()).toEqual(
      [layout.fence("other"), layout.fence(KEY)].sort(),
    );
  });

  it("keep the index score at the lock's lease end through extend, hand-back, plain acquire and force-release", async () => {
    const state = await openState();
    const lockKey = new RedisKeyLayout(state.keyPrefix).lock(KEY);
    const lock = await must(state.acquireLock(KEY, 30_000, { turn: turnOf(["a"]) }));
    expect(await state.extendLock(lock, 90_000)).toBe(true);
    expect(await indexScore(state)).toBe(await raw.pExpireTime(lockKey));
    expect(await indexScore(state)).toBeGreaterThan(lock.expiresAt);
    expect(await state.pendingTurnKeys()).toEqual([]);
    expect(await state.releaseLock(lock, { turn: { kind: "hand-back", reason: "shutdown" } })).toBe(
      true,
    );
    expect(await indexScore(state)).toBe(0);
    expect(await state.pendingTurnKeys()).toEqual([KEY]);
    // A plain acquire may take the lock over the record; the record is not listed while it holds.
    const plain = await must(state.acquireLock(KEY, 30_000));
    expect(await indexScore(state)).toBe(plain.expiresAt);
    expect(await state.pendingTurnKeys()).toEqual([]);
    await state.forceReleaseLock(KEY);
    expect(await indexScore(state)).toBe(0);
    expect(await state.pendingTurnKeys()).toEqual([KEY]);
    expect((await state.inspectTurn(KEY))?.handedBack).toBe("shutdown");
  });

  it("list a turn whose lease ran out by the server's clock, with nobody touching it", async () => {
    const state = await openState();
    const lock = await must(state.acquireLock(KEY, 200, { turn: turnOf(["a"]) }));
    expect(await state.pendingTurnKeys()).toEqual([]);
    await sleep(200 + 300);
    expect(await state.pendingTurnKeys()).toEqual([KEY]);
    expect(await indexScore(state)).toBe(lock.expiresAt);
  });

  it("keep entries exactly as written, through the acquire and through takeQueuedTurn", async () => {
    const state = await openState();
    const odd = [
      entry("u", { text: 'héllo "wörld" \\ 🎉', empty: [], none: {}, list: [1, [2, {}]] }),
      entry("n", { big: 12345678901234567, small: 1e-7, neg: -0.5, nil: null, yes: true }),
      entry("x"),
    ];
    const lock = await must(
      state.acquireLock(KEY, 30_000, { turn: { entries: odd, startedAt: T0 } }),
    );
    expect((await state.inspectTurn(KEY))?.entries).toEqual(odd);
    for (const item of odd) await state.enqueue(KEY, item, { maxSize: 10, onFull: "drop-oldest" });
    expect(await state.takeQueuedTurn(lock, { maxEntries: 10, startedAt: T1 })).toEqual(odd);
    expect(await state.inspectTurn(KEY)).toEqual({
      key: KEY,
      entries: odd,
      fence: lock.fence,
      attempt: 1,
      startedAt: T1,
    });
  });

  it("take queued entries into the record in one step, dropping the queue from its index when emptied", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    const lock = await must(state.acquireLock(KEY, 30_000));
    for (const id of ["a", "b", "c"]) {
      await state.enqueue(KEY, entry(id), { maxSize: 10, onFull: "drop-oldest" });
    }
    const first = await state.takeQueuedTurn(lock, { maxEntries: 2, startedAt: T0 });
    expect(first).toEqual([entry("a"), entry("b")]);
    expect(JSON.parse(String(await raw.hGet(layout.turn(KEY), "entries")))).toEqual(first);
    expect(await indexScore(state)).toBe(lock.expiresAt);
    expect(await raw.sIsMember(layout.pendingShard(KEY), KEY)).toBe(1);
    expect(await state.takeQueuedTurn(lock, { maxEntries: 5, startedAt: T1 })).toEqual([
      entry("c"),
    ]);
    expect(await raw.sIsMember(layout.pendingShard(KEY), KEY)).toBe(0);
    expect(await raw.exists(layout.queue(KEY))).toBe(0);
    expect(await raw.hGetAll(layout.turn(KEY))).toEqual({
      entries: JSON.stringify([entry("c")]),
      fence: String(lock.fence),
      attempt: "1",
      startedAt: String(T1),
    });
  });

  it("drop an index entry whose record was deleted behind the backend's back, at the next recovery", async () => {
    const state = await openState();
    const layout = new RedisKeyLayout(state.keyPrefix);
    await must(state.acquireLock(KEY, 30_000, { turn: turnOf(["a"]) }));
    await state.forceReleaseLock(KEY);
    await raw.del(layout.turn(KEY));
    expect(await state.pendingTurnKeys()).toEqual([KEY]);
    expect(await state.recoverTurn(KEY, 30_000, { startedAt: T1 })).toBeNull();
    expect(await indexScore(state)).toBeNull();
    expect(await state.pendingTurnKeys()).toEqual([]);
    expect(await raw.exists(layout.lock(KEY))).toBe(0);
  });

  it("cost one command each, and pendingTurnKeys one per index shard", async () => {
    const client = createClient({ url: REDIS_URL });
    client.on("error", () => undefined);
    await client.connect();
    try {
      const state = await openState({ url: undefined, client });
      const counts: Record<string, number> = {};
      const commands: string[] = [];
      const measure = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
        const sent = vi.spyOn(client, "sendCommand");
        try {
          const result = await call();
          counts[name] = sent.mock.calls.length;
          commands.push(...sent.mock.calls.map(([args]) => String(args[0])));
          return result;
        } finally {
          sent.mockRestore();
        }
      };
      const round = async (n: number) => {
        await state.enqueue(KEY, entry("q"), { maxSize: 10, onFull: "drop-oldest" });
        const turn = { turn: turnOf(["a"]) };
        const lock = await measure("acquireLock + turn", () =>
          must(state.acquireLock(KEY, 30_000, turn)),
        );
        await measure("extendLock", () => state.extendLock(lock, 30_000));
        await measure("writeTurn", () => state.writeTurn(lock, turnOf(["a", "b"], T1)));
        await measure("takeQueuedTurn", () =>
          state.takeQueuedTurn(lock, { maxEntries: 1, startedAt: T1 }),
        );
        await measure("inspectTurn", () => state.inspectTurn(KEY));
        const handBack = { turn: { kind: "hand-back", reason: "lease-lost" } } as const;
        await measure("releaseLock + hand-back", () => state.releaseLock(lock, handBack));
        await measure("pendingTurnKeys", () => state.pendingTurnKeys());
        const recovered = await measure("recoverTurn", () =>
          must(state.recoverTurn(KEY, 30_000, { startedAt: T1 })),
        );
        const end = { turn: { kind: "end" } } as const;
        await measure("releaseLock + end", () => state.releaseLock(recovered.lock, end));
        const accepted = await measure("acceptAndAcquire + turn", () =>
          must(
            state.acceptAndAcquire?.({
              dedupeKey: `dedupe:m${n}`,
              dedupeTtlMs: 60_000,
              lockKey: KEY,
              lockTtlMs: 30_000,
              threadId: "slack:C1:T1",
              ...turn,
            }),
          ),
        );
        if (accepted.kind !== "acquired") throw new Error("expected the lock");
        await measure("releaseAndNext + end", () =>
          must(state.releaseAndNext?.(accepted.lock, end)),
        );
        await measure("forceReleaseLock", () => state.forceReleaseLock(KEY));
      };
      await round(1); // warm-up: a server that never ran a script answers NOSCRIPT once
      commands.length = 0;
      await round(2);
      expect(counts).toEqual({
        "acquireLock + turn": 1,
        extendLock: 1,
        writeTurn: 1,
        takeQueuedTurn: 1,
        inspectTurn: 1,
        "releaseLock + hand-back": 1,
        pendingTurnKeys: 64,
        recoverTurn: 1,
        "releaseLock + end": 1,
        "acceptAndAcquire + turn": 1,
        "releaseAndNext + end": 1,
        forceReleaseLock: 1,
      });
      expect(new Set(commands)).toEqual(new Set(["EVALSHA"]));
    } finally {
      await client.close();
    }
  });
});

describe("turn records with replication on a server that has no replica", () => {
  // WAIT can never be satisfied here: every lock write is refused and must be given back.
  const replication = { waitReplicas: 1, timeoutMs: 100 };

  it("an unconfirmed acquire with a turn takes its record and index entry back with the lock", async () => {
    const state = await openState({ replication });
    const layout = new RedisKeyLayout(state.keyPrefix);
    const failure = await state.acquireLock(KEY, 30_000, { turn: turnOf(["a"]) }).catch((e) => e);
    expect(isBatonError(failure) && failure.code).toBe("STATE_UNAVAILABLE");
    expect(await keysUnder(raw, state.keyPrefix)).toEqual([layout.fence(KEY)]);
    const accepted = await state
      .acceptAndAcquire?.({
        dedupeKey: "dedupe:m1",
        dedupeTtlMs: 60_000,
        lockKey: KEY,
        lockTtlMs: 30_000,
        threadId: "slack:C1:T1",
        turn: turnOf(["m1"]),
      })
      .catch((e) => e);
    expect(isBatonError(accepted) && accepted.code).toBe("STATE_UNAVAILABLE");
    expect(await keysUnder(raw, state.keyPrefix)).toEqual([layout.fence(KEY)]);
  });

  it("an unconfirmed recovery puts the record back as it was, so it costs the turn no attempt", async () => {
    const plain = await openState();
    const state = await openState({ keyPrefix: plain.keyPrefix, replication });
    const layout = new RedisKeyLayout(state.keyPrefix);
    const lock = await must(plain.acquireLock(KEY, 30_000, { turn: turnOf(["a"]) }));
    await plain.releaseLock(lock, { turn: { kind: "hand-back", reason: "shutdown" } });
    const before = await raw.hGetAll(layout.turn(KEY));
    const failure = await state.recoverTurn(KEY, 30_000, { startedAt: T1 }).catch((e) => e);
    expect(isBatonError(failure) && failure.code).toBe("STATE_UNAVAILABLE");
    expect(await raw.hGetAll(layout.turn(KEY))).toEqual(before);
    expect(await raw.exists(layout.lock(KEY))).toBe(0);
    expect(await state.pendingTurnKeys()).toEqual([KEY]);
    const recovered = await must(plain.recoverTurn(KEY, 30_000, { startedAt: T1 }));
    expect(recovered.interrupted).toMatchObject({ attempt: 1, handedBack: "shutdown" });
    expect(recovered.lock.fence).toBeGreaterThan(lock.fence);
  });
});

describe("turn arguments", () => {
  it("are refused with a ValidationError before anything is written", async () => {
    const state = await openState();
    const refused = (promise: Promise<unknown>) =>
      expect(promise).rejects.toBeInstanceOf(ValidationError);
    const bad = { entries: "a", startedAt: T0 } as unknown as TurnWrite;
    await refused(state.acquireLock(KEY, 30_000, { turn: bad }));
    await refused(state.acquireLock(KEY, 30_000, { turn: { entries: [], startedAt: Number.NaN } }));
    await refused(state.recoverTurn(KEY, 30_000, { startedAt: Number.POSITIVE_INFINITY }));
    await refused(state.recoverTurn(KEY, 0, { startedAt: T0 }));
    expect(await keysUnder(raw, state.keyPrefix)).toEqual([]);
    const lock = await must(state.acquireLock(KEY, 30_000));
    const wrongReason = { turn: { kind: "hand-back", reason: "lease-expired" } } as never;
    await refused(state.releaseLock(lock, wrongReason));
    await refused(
      state.releaseAndNext?.(lock, { turn: { kind: "done" } } as never) as Promise<unknown>,
    );
    await refused(state.takeQueuedTurn(lock, { maxEntries: 0, startedAt: T0 }));
    await refused(state.writeTurn(lock, undefined as never));
    await refused(state.pendingTurnKeys(0));
    expect(await state.inspectLock(KEY)).toMatchObject({ fence: lock.fence });
    expect(await state.inspectTurn(KEY)).toBeNull();
  });

  it("reject with STATE_DISCONNECTED before connect()", async () => {
    const state = createRedisState({ url: REDIS_URL, keyPrefix: uniquePrefix() });
    const lock = { key: KEY, token: "t", fence: 1, expiresAt: 0 };
    for (const call of [
      () => state.pendingTurnKeys(),
      () => state.recoverTurn(KEY, 1_000, { startedAt: T0 }),
      () => state.takeQueuedTurn(lock, { maxEntries: 1, startedAt: T0 }),
      () => state.writeTurn(lock, turnOf(["a"])),
      () => state.inspectTurn(KEY),
    ]) {
      await expect(call()).rejects.toSatisfy((error) => isBatonError(error, "STATE_DISCONNECTED"));
    }
  });
});
