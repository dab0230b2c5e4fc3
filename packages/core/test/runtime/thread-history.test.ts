import {
  createFakeClock,
  createTestMessage,
  createTestState,
  type FakeClock,
} from "@baton/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { StateAdapter } from "../../src/contracts/state.js";
import { MessageHistoryCache } from "../../src/runtime/message-history.js";
import { ThreadHistoryCache } from "../../src/runtime/thread-history.js";

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

const message = (id: string, text: string, threadId = "mock:C1:T1") =>
  createTestMessage({ id, text, threadId });

let clock: FakeClock;
let state: StateAdapter;
let cache: ThreadHistoryCache;

beforeEach(async () => {
  clock = createFakeClock();
  state = await createTestState({ clock });
  cache = new ThreadHistoryCache(state);
});

describe("ThreadHistoryCache", () => {
  it("should append and retrieve messages", async () => {
    await cache.append("thread-1", message("m1", "Hello"));
    await cache.append("thread-1", message("m2", "World"));
    const messages = await cache.getMessages("thread-1");
    expect(messages).toHaveLength(2);
    expect(messages[0]?.id).toBe("m1");
    expect(messages[0]?.text).toBe("Hello");
    expect(messages[1]?.id).toBe("m2");
    expect(messages[1]?.text).toBe("World");
    expect(messages[0]?.metadata.dateSent).toBeInstanceOf(Date);
  });

  it("should use appendToList for atomic appends", async () => {
    const append = vi.spyOn(state, "appendToList");
    await cache.append("thread-1", message("m1", "Hello"));
    expect(append).toHaveBeenCalledTimes(1);
    expect(append).toHaveBeenCalledWith(
      "msg-history:thread-1",
      expect.objectContaining({ id: "m1" }),
      { maxLength: 100, ttlMs: SEVEN_DAYS_MS },
    );
  });

  it("should trim to maxMessages, keeping newest", async () => {
    const small = new ThreadHistoryCache(state, { maxMessages: 3 });
    for (let i = 1; i <= 5; i += 1) await small.append("thread-1", message(`m${i}`, `Msg ${i}`));
    const messages = await small.getMessages("thread-1");
    expect(messages.map((m) => m.id)).toEqual(["m3", "m4", "m5"]);
    // Bounded in the State itself, not only in what is read back.
    expect(await state.getList("msg-history:thread-1")).toHaveLength(3);
  });

  it("should strip raw fields on storage", async () => {
    const append = vi.spyOn(state, "appendToList");
    const withRaw = createTestMessage({
      id: "m1",
      threadId: "mock:C1:T1",
      raw: { secret: "data", nested: { deep: true } },
    });
    await cache.append("thread-1", withRaw);
    const stored = append.mock.calls[0]?.[1] as { raw: unknown };
    expect(stored.raw).toBeNull();
    const [read] = await cache.getMessages("thread-1");
    expect(read?.raw).toBeNull();
  });

  it("should return empty array for unknown thread", async () => {
    expect(await cache.getMessages("nonexistent")).toEqual([]);
  });

  it("should support limit parameter in getMessages", async () => {
    for (let i = 1; i <= 10; i += 1) await cache.append("thread-1", message(`m${i}`, `Msg ${i}`));
    const messages = await cache.getMessages("thread-1", 3);
    expect(messages.map((m) => m.id)).toEqual(["m8", "m9", "m10"]);
  });

  it("should keep threads isolated", async () => {
    await cache.append("thread-1", message("m1", "Thread 1"));
    await cache.append("thread-2", message("m2", "Thread 2"));
    const first = await cache.getMessages("thread-1");
    const second = await cache.getMessages("thread-2");
    expect(first.map((m) => m.text)).toEqual(["Thread 1"]);
    expect(second.map((m) => m.text)).toEqual(["Thread 2"]);
  });

  it("expires a thread's history ttlMs after its latest message, each append restarting it", async () => {
    const short = new ThreadHistoryCache(state, { ttlMs: 1_000 });
    await short.append("thread-1", message("m1", "first"));
    await clock.advance(900);
    await short.append("thread-1", message("m2", "second"));
    await clock.advance(900);
    expect((await short.getMessages("thread-1")).map((m) => m.id)).toEqual(["m1", "m2"]);
    await clock.advance(100);
    expect(await short.getMessages("thread-1")).toEqual([]);
  });
});

describe("MessageHistoryCache (deprecated alias)", () => {
  it("re-exports ThreadHistoryCache under the old name", async () => {
    expect(MessageHistoryCache).toBe(ThreadHistoryCache);
    const old = new MessageHistoryCache(state);
    await old.append("t-1", message("m1", "hello"));
    const messages = await old.getMessages("t-1");
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toBe("hello");
  });
});
