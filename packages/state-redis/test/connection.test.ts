import { type BatonErrorCode, isBatonError, type StateError, silentLogger } from "@baton/core";
import { createClient, RESP_TYPES } from "redis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createRedisState, type RedisState, type RedisStateOptions } from "../src/index.js";
import { connectRawClient, deleteKeysUnder, REDIS_URL, uniquePrefix } from "./redis-test-server.js";
import { TcpProxy } from "./tcp-proxy.js";

// Throws at import when Redis is down: the file fails, it never skips.
const raw = await connectRawClient();
afterAll(() => raw.close());

const target = new URL(REDIS_URL);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function makeState(options: Partial<RedisStateOptions> = {}): RedisState {
  const state = createRedisState({
    url: REDIS_URL,
    keyPrefix: uniquePrefix(),
    logger: silentLogger,
    ...options,
  });
  cleanups.push(async () => {
    await state.disconnect();
    await deleteKeysUnder(raw, state.keyPrefix);
  });
  return state;
}

async function startProxy(): Promise<TcpProxy> {
  const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
  await proxy.start(0);
  cleanups.push(() => proxy.stop());
  return proxy;
}

/** Settles `promise` and reports how long it took; never throws. */
async function timed(
  promise: Promise<unknown>,
): Promise<{ error: unknown; value: unknown; ms: number }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { error: undefined, value, ms: performance.now() - start };
  } catch (error) {
    return { error, value: undefined, ms: performance.now() - start };
  }
}

function expectCode(error: unknown, ...codes: BatonErrorCode[]): void {
  expect(isBatonError(error), `expected a BatonError, got ${String(error)}`).toBe(true);
  expect(codes).toContain((error as StateError).code);
}

/** Retries `call` until it resolves, for at most `withinMs`; returns its value. */
async function eventually<T>(call: () => Promise<T>, withinMs = 10_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      expectCode(error, "STATE_UNAVAILABLE", "STATE_TIMEOUT");
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** The ids of the server connections named after `state`'s prefix. */
async function connectionIds(state: RedisState): Promise<string[]> {
  const list = String(await raw.sendCommand(["CLIENT", "LIST"]));
  return list
    .split("\n")
    .filter((line) => line.includes(` name=baton:${state.keyPrefix} `))
    .map((line) => /\bid=(\d+)/.exec(line)?.[1] ?? "");
}

describe("lifecycle", () => {
  it("rejects calls before connect() and after disconnect() with STATE_DISCONNECTED, naming the step", async () => {
    const state = makeState();
    const before = await timed(state.acquireLock("k", 1_000));
    expectCode(before.error, "STATE_DISCONNECTED");
    expect((before.error as StateError).step).toBe("acquire lock");
    await state.connect();
    await state.disconnect();
    const after = await timed(
      state.enqueue(
        "q",
        { value: 1, enqueuedAt: 0, expiresAt: 1 },
        {
          maxSize: 1,
          onFull: "drop-oldest",
        },
      ),
    );
    expectCode(after.error, "STATE_DISCONNECTED");
    expect((after.error as Error).message).toMatch(/^enqueue: /);
  });

  it("opens one connection for concurrent connect() calls and closes it on disconnect()", async () => {
    const state = makeState();
    await Promise.all([state.connect(), state.connect(), state.connect()]);
    await state.connect();
    expect(await connectionIds(state)).toHaveLength(1);
    await state.disconnect();
    await state.disconnect();
    expect(await connectionIds(state)).toHaveLength(0);
  });

  it("borrows a client passed in: connect() needs it open, disconnect() leaves it open", async () => {
    const client = createClient({ url: REDIS_URL });
    client.on("error", () => undefined);
    const state = makeState({ url: undefined, client });
    expectCode((await timed(state.connect())).error, "STATE_UNAVAILABLE");
    await client.connect();
    cleanups.push(async () => client.destroy());
    await state.connect();
    await state.set("k", { shared: true });
    await state.disconnect();
    expect(client.isOpen).toBe(true);
    expect(await client.get(`${state.keyPrefix}:value:{k}`)).toBe('{"shared":true}');
    expectCode((await timed(state.get("k"))).error, "STATE_DISCONNECTED");
  });
});

describe("a borrowed client's own settings", () => {
  it("reads plain values whatever the client's RESP version and type mapping", async () => {
    for (const RESP of [2, 3] as const) {
      const client = createClient({
        url: REDIS_URL,
        RESP,
        commandOptions: {
          typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer, [RESP_TYPES.NUMBER]: String },
        },
      });
      await client.connect();
      cleanups.push(async () => client.destroy());
      const state = makeState({ url: undefined, client });
      await state.connect();
      await state.set("k", { list: [1] });
      expect(await state.get("k")).toEqual({ list: [1] });
      const lock = await state.acquireLock("l", 60_000);
      if (!lock) throw new Error("expected the lock");
      expect(typeof lock.fence).toBe("number");
      expect(await state.extendLock(lock, 60_000)).toBe(true);
      expect(await state.inspectLock("l")).toMatchObject({ fence: lock.fence });
      const options = { maxSize: 1, onFull: "drop-oldest" } as const;
      const first = { value: 1, enqueuedAt: 1, expiresAt: 2 };
      await state.enqueue("q", first, options);
      const second = await state.enqueue("q", { ...first, value: 2 }, options);
      expect(second).toEqual({ depth: 1, evicted: [first] });
      expect(await state.queueDepth("q")).toBe(1);
      expect(await state.pendingQueueKeys()).toEqual(["q"]);
      expect(await state.isSubscribed("t")).toBe(false);
    }
  });
});

describe("when Redis cannot be reached", () => {
  it("fails connect() to a closed port with STATE_UNAVAILABLE, and calls stay disconnected", async () => {
    const state = makeState({ url: "redis://127.0.0.1:1", timeoutMs: 2_000 });
    const attempt = await timed(state.connect());
    expectCode(attempt.error, "STATE_UNAVAILABLE");
    expect((attempt.error as Error).message).toMatch(/127\.0\.0\.1:1/);
    expect(attempt.ms).toBeLessThan(2_000 + 3_000);
    expectCode((await timed(state.get("k"))).error, "STATE_DISCONNECTED");
  });

  it("fails connect() to a server that never answers with STATE_TIMEOUT after timeoutMs, and a retry succeeds", async () => {
    const proxy = await startProxy();
    proxy.stall();
    const state = makeState({ url: proxy.url, timeoutMs: 300 });
    const attempt = await timed(state.connect());
    expectCode(attempt.error, "STATE_TIMEOUT");
    expect(attempt.ms).toBeGreaterThanOrEqual(280);
    expect(attempt.ms).toBeLessThan(300 + 3_000);
    proxy.resume();
    await state.connect();
    await state.set("k", 1);
    expect(await state.get("k")).toBe(1);
  });

  it("retries a failed connect() once the server is back", async () => {
    const proxy = await startProxy();
    await proxy.stop();
    const state = makeState({ url: proxy.url, timeoutMs: 2_000 });
    expectCode((await timed(state.connect())).error, "STATE_UNAVAILABLE");
    await proxy.start();
    await state.connect();
    expect(await state.get("k")).toBeNull();
  });

  it("rejects a call Redis does not answer with STATE_TIMEOUT within timeoutMs, and stays in sync after", async () => {
    const proxy = await startProxy();
    const state = makeState({ url: proxy.url, timeoutMs: 300 });
    await state.connect();
    await state.set("k", "before");
    proxy.stall();
    const stalled = await timed(state.get("k"));
    expectCode(stalled.error, "STATE_TIMEOUT");
    expect((stalled.error as Error).message).toMatch(/^get value: /);
    expect(stalled.ms).toBeGreaterThanOrEqual(280);
    expect(stalled.ms).toBeLessThan(300 + 3_000);
    proxy.resume();
    // The late reply to the timed-out GET must not be taken as the answer to a later command.
    await state.set("other", "fresh");
    expect(await state.get("other")).toBe("fresh");
    expect(await state.get("k")).toBe("before");
  });

  it("fails calls fast with STATE_UNAVAILABLE while the server is gone, and recovers when it is back", async () => {
    const proxy = await startProxy();
    const state = makeState({ url: proxy.url, timeoutMs: 10_000 });
    await state.connect();
    await state.set("k", "kept");
    await proxy.stop();
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the client see the reset
    const down = await timed(state.get("k"));
    expectCode(down.error, "STATE_UNAVAILABLE");
    expect(down.ms).toBeLessThan(5_000); // fails fast: well inside the 10 s budget
    await proxy.start();
    expect(await eventually(() => state.get("k"))).toBe("kept");
  });

  it("recovers after the server kills its connection (CLIENT KILL)", async () => {
    const state = makeState();
    await state.connect();
    await state.set("k", "kept");
    const [id] = await connectionIds(state);
    expect(id).toBeTruthy();
    await raw.sendCommand(["CLIENT", "KILL", "ID", String(id)]);
    expect(await eventually(() => state.get("k"))).toBe("kept");
    const [newId] = await connectionIds(state);
    expect(newId).not.toBe(id);
    const lock = await state.acquireLock("after-kill", 60_000);
    expect(lock).not.toBeNull();
  });

  it("returns from disconnect() within timeoutMs even while a reply is outstanding", async () => {
    const proxy = await startProxy();
    const state = makeState({ url: proxy.url, timeoutMs: 300 });
    await state.connect();
    proxy.stall();
    const pending = timed(state.get("k"));
    const closing = await timed(state.disconnect());
    expect(closing.error).toBeUndefined();
    expect(closing.ms).toBeLessThan(300 + 3_000);
    expectCode((await pending).error, "STATE_TIMEOUT", "STATE_DISCONNECTED", "STATE_UNAVAILABLE");
    proxy.resume();
  });
});
