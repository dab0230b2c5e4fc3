import { createMemoryState } from "@baton/state-memory";
import {
  createFakeClock,
  createMockAdapter,
  type FakeClock,
  type MockAdapter,
} from "@baton/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Adapter } from "../../src/contracts/adapter.js";
import type { UserInfo } from "../../src/contracts/thread-surface-types.js";
import { Chat, ConfigError } from "../../src/index.js";
import {
  DEFAULT_USER_CACHE_TTL_MS,
  USER_LOOKUP_LEASE_MS,
  USER_LOOKUP_POLL_MS,
  userCacheKey,
} from "../../src/runtime/user-lookup.js";

const ALICE: UserInfo = { userId: "U1", userName: "alice", fullName: "Alice", isBot: false };
const TTL_MS = 60_000;

/** A platform user API that answers only when the test says so. */
function gatedUsers(adapter: MockAdapter) {
  const answers: Array<() => void> = [];
  const lookup = adapter.getUser.bind(adapter);
  const spy = vi.fn(
    (userId: string) =>
      new Promise<UserInfo | null>((resolve, reject) => {
        answers.push(() => lookup(userId).then(resolve, reject));
      }),
  );
  adapter.getUser = spy;
  return {
    spy,
    /** Answers every call made so far. */
    answerAll: () => {
      for (const answer of answers.splice(0)) answer();
    },
  };
}

/** Lets pending promise callbacks run (State calls, awaits) without moving the fake clock. */
async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await Promise.resolve();
}

/** Two instances of one bot: separate adapters and Chats, one shared memory State and clock. */
function twoInstances(clock: FakeClock) {
  const state = createMemoryState({ clock });
  const make = () => {
    const adapter = createMockAdapter("slack", { clock });
    adapter.seedUsers([ALICE]);
    const chat = new Chat({
      userName: "bot",
      adapters: { slack: adapter },
      state,
      logger: "silent",
      clock,
      userCacheTtlMs: TTL_MS,
    });
    return { adapter, chat };
  };
  return { state, a: make(), b: make() };
}

describe("chat.getUser cache", () => {
  let clock: FakeClock;

  beforeEach(() => {
    clock = createFakeClock();
  });

  it("shares one platform call between concurrent lookups of one user on one instance", async () => {
    const { a } = twoInstances(clock);
    const gate = gatedUsers(a.adapter);
    const lookups = [a.chat.getUser("U1"), a.chat.getUser("U1"), a.chat.getUser({ userId: "U1" })];
    await settle();
    gate.answerAll();
    expect(await Promise.all(lookups)).toEqual([ALICE, ALICE, ALICE]);
    expect(gate.spy).toHaveBeenCalledTimes(1);
  });

  it("makes at most one platform call per user per TTL across two instances sharing one State", async () => {
    const { a, b } = twoInstances(clock);
    const gateA = gatedUsers(a.adapter);
    const gateB = gatedUsers(b.adapter);
    // Both instances race for the same user while the first platform call is still out.
    const first = a.chat.getUser("U1");
    const second = b.chat.getUser("U1");
    await settle();
    expect(gateA.spy.mock.calls.length + gateB.spy.mock.calls.length).toBe(1);
    gateA.answerAll();
    gateB.answerAll();
    // The waiting instance re-reads the State on its poll interval.
    await clock.advance(USER_LOOKUP_POLL_MS);
    expect(await Promise.all([first, second])).toEqual([ALICE, ALICE]);

    // Within the TTL neither instance asks the platform again.
    await clock.advance(TTL_MS - USER_LOOKUP_POLL_MS - 1);
    expect(await b.chat.getUser("U1")).toEqual(ALICE);
    expect(await a.chat.getUser("U1")).toEqual(ALICE);
    expect(gateA.spy.mock.calls.length + gateB.spy.mock.calls.length).toBe(1);

    // Once the TTL has passed, one call again, whichever instance asks first.
    await clock.advance(1);
    const third = b.chat.getUser("U1");
    const fourth = a.chat.getUser("U1");
    await settle();
    gateA.answerAll();
    gateB.answerAll();
    await clock.advance(USER_LOOKUP_POLL_MS);
    expect(await Promise.all([third, fourth])).toEqual([ALICE, ALICE]);
    expect(gateA.spy.mock.calls.length + gateB.spy.mock.calls.length).toBe(2);
  });

  it("stores the answer under the user's key with the TTL, where every instance reads it", async () => {
    const { state, a } = twoInstances(clock);
    await a.chat.getUser("U1");
    const key = userCacheKey("slack", "U1");
    expect(key).toBe("user:slack:U1");
    expect(await state.get(key)).toEqual({ status: "found", user: ALICE });
    await clock.advance(TTL_MS);
    expect(await state.get(key)).toBeNull();
  });

  it("keeps one cache per installation when the adapter names a userCacheScope", async () => {
    const { state, a } = twoInstances(clock);
    let installation: string | undefined = "T_A";
    const scoped: Adapter = a.adapter;
    scoped.userCacheScope = () => installation;
    await a.chat.getUser("U1");
    installation = "T_B";
    await a.chat.getUser("U1");
    installation = undefined;
    await a.chat.getUser("U1");

    // One platform call per installation: T_A's answer never served T_B's lookup.
    expect(a.adapter.callsOf("getUser")).toHaveLength(3);
    expect(userCacheKey("slack", "U1", "T_A")).toBe("user:slack:T_A:U1");
    for (const key of ["user:slack:T_A:U1", "user:slack:T_B:U1", "user:slack:U1"]) {
      expect(await state.get(key)).toEqual({ status: "found", user: ALICE });
    }
    await a.chat.getUser("U1");
    expect(a.adapter.callsOf("getUser")).toHaveLength(3);
  });

  it("encodes the scope, so a scoped key never reads as an unscoped one", () => {
    expect(userCacheKey("slack", "T:1", undefined)).toBe("user:slack:T%3A1");
    expect(userCacheKey("slack", "1", "T")).toBe("user:slack:T:1");
    expect(userCacheKey("slack", "U1", "E:1")).toBe("user:slack:E%3A1:U1");
  });

  it("caches that a user does not exist, for the TTL", async () => {
    const { a, b } = twoInstances(clock);
    expect(await a.chat.getUser("U404")).toBeNull();
    expect(await b.chat.getUser("U404")).toBeNull();
    expect(a.adapter.callsOf("getUser").length + b.adapter.callsOf("getUser").length).toBe(1);
  });

  it("lets a waiting instance retry when the first call failed, without caching the failure", async () => {
    const { a, b } = twoInstances(clock);
    a.adapter.failNext("getUser", new Error("platform down"));
    await expect(a.chat.getUser("U1")).rejects.toThrow("platform down");
    expect(await b.chat.getUser("U1")).toEqual(ALICE);
    expect(a.adapter.callsOf("getUser")).toHaveLength(1);
    expect(b.adapter.callsOf("getUser")).toHaveLength(1);
  });

  it("takes over from an instance that died mid-lookup once its lease has lapsed", async () => {
    const { a, b } = twoInstances(clock);
    gatedUsers(a.adapter); // never answered: instance A is gone
    void a.chat.getUser("U1");
    await settle();
    const waiting = b.chat.getUser("U1");
    await settle();
    expect(b.adapter.callsOf("getUser")).toHaveLength(0);
    await clock.advance(USER_LOOKUP_LEASE_MS);
    expect(await waiting).toEqual(ALICE);
    expect(b.adapter.callsOf("getUser")).toHaveLength(1);
  });

  it("keeps users of different ids apart", async () => {
    const { a } = twoInstances(clock);
    const bob: UserInfo = { userId: "U2", userName: "bob", fullName: "Bob", isBot: false };
    a.adapter.seedUsers([bob]);
    expect(await a.chat.getUser("U1")).toEqual(ALICE);
    expect(await a.chat.getUser("U2")).toEqual(bob);
    expect(a.adapter.callsOf("getUser")).toHaveLength(2);
  });

  it("defaults the TTL to one hour and refuses a TTL that is not a positive duration", () => {
    expect(DEFAULT_USER_CACHE_TTL_MS).toBe(3_600_000);
    const config = {
      userName: "bot",
      adapters: { slack: createMockAdapter("slack") },
      state: createMemoryState(),
      userCacheTtlMs: 0,
    };
    expect(() => new Chat(config)).toThrow(ConfigError);
    expect(() => new Chat(config)).toThrow("userCacheTtlMs");
  });
});
