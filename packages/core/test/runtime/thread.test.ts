import {
  batonMatchers,
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  AdapterError,
  isBatonError,
  RateLimitError,
  ValidationError,
} from "../../src/errors/index.js";
import type { Message } from "../../src/model/message.js";
import { ChannelImpl } from "../../src/runtime/channel.js";
import { THREAD_STATE_TTL_MS } from "../../src/runtime/scoped-state.js";
import { ThreadImpl, type ThreadOptions } from "../../src/runtime/thread.js";

expect.extend(batonMatchers);

const THREAD_ID = "mock:C123:T1";
const STATE_KEY = `thread-state:${THREAD_ID}`;

type TestState = Record<string, unknown>;

async function setup(options: Partial<ThreadOptions> = {}, pageSize?: number) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", {
    clock,
    ...(pageSize === undefined ? {} : { defaultPageSize: pageSize }),
  });
  const thread = new ThreadImpl<TestState>({ adapter, state, threadId: THREAD_ID, ...options });
  return { clock, state, adapter, thread };
}

/** Seeds `count` messages `m1` (oldest) … `m<count>` (newest) into the thread's history. */
function seedHistory(adapter: MockAdapter, count: number, threadId = THREAD_ID): Message[] {
  const messages = Array.from({ length: count }, (_, index) =>
    createTestMessage({ id: `m${index + 1}`, threadId, text: `message ${index + 1}` }),
  );
  adapter.seedMessages(threadId, messages);
  return messages;
}

async function collect<T>(iterable: AsyncIterable<T>, max = Number.POSITIVE_INFINITY) {
  const items: T[] = [];
  for await (const item of iterable) {
    items.push(item);
    if (items.length >= max) break;
  }
  return items;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("ThreadImpl", () => {
  let ctx: Awaited<ReturnType<typeof setup>>;
  beforeEach(async () => {
    ctx = await setup();
  });

  describe("Per-thread state", () => {
    it("should return null when no state has been set", async () => {
      expect(await ctx.thread.state).toBeNull();
    });

    it("should return stored state", async () => {
      await ctx.state.set(STATE_KEY, { aiMode: true });
      expect(await ctx.thread.state).toEqual({ aiMode: true });
    });

    it("should set state and retrieve it", async () => {
      await ctx.thread.setState({ aiMode: true });
      expect(await ctx.thread.state).toEqual({ aiMode: true });
    });

    it("should merge state by default", async () => {
      await ctx.thread.setState({ aiMode: true });
      await ctx.thread.setState({ counter: 5 });
      expect(await ctx.thread.state).toEqual({ aiMode: true, counter: 5 });
    });

    it("should overwrite existing keys when merging", async () => {
      await ctx.thread.setState({ aiMode: true, counter: 1 });
      await ctx.thread.setState({ counter: 2 });
      expect(await ctx.thread.state).toEqual({ aiMode: true, counter: 2 });
    });

    it("should replace entire state when replace option is true", async () => {
      await ctx.thread.setState({ aiMode: true, counter: 1 });
      await ctx.thread.setState({ counter: 10 }, { replace: true });
      expect(await ctx.thread.state).toEqual({ counter: 10 });
    });

    it("should use correct key prefix for state storage", async () => {
      await ctx.thread.setState({ aiMode: true });
      expect(await ctx.state.get(STATE_KEY)).toEqual({ aiMode: true });
    });

    it("should call get with correct key", async () => {
      const get = vi.spyOn(ctx.state, "get");
      await ctx.thread.state;
      expect(get).toHaveBeenCalledWith(STATE_KEY);
    });

    it("loses no key when 20 setState calls with distinct keys run concurrently", async () => {
      await Promise.all(
        Array.from({ length: 20 }, (_, index) => ctx.thread.setState({ [`key${index}`]: index })),
      );
      const stored = await ctx.thread.state;
      expect(Object.keys(stored ?? {})).toHaveLength(20);
      for (let index = 0; index < 20; index++) expect(stored?.[`key${index}`]).toBe(index);
    });

    it("keeps state 30 days after its last write, each write restarting the period", async () => {
      expect(THREAD_STATE_TTL_MS).toBe(30 * 24 * 60 * 60 * 1000);
      await ctx.thread.setState({ a: 1 });
      await ctx.clock.advance(THREAD_STATE_TTL_MS - 1);
      expect(await ctx.thread.state).toEqual({ a: 1 });

      await ctx.thread.setState({ b: 2 });
      await ctx.clock.advance(THREAD_STATE_TTL_MS - 1);
      expect(await ctx.thread.state).toEqual({ a: 1, b: 2 });

      await ctx.thread.setState({ c: 3 }, { replace: true });
      await ctx.clock.advance(THREAD_STATE_TTL_MS - 1);
      expect(await ctx.thread.state).toEqual({ c: 3 });
      await ctx.clock.advance(1);
      expect(await ctx.thread.state).toBeNull();
    });

    it("leaves out fields set to undefined, as their JSON form would", async () => {
      await ctx.thread.setState({ a: 1, b: 2 });
      await ctx.thread.setState({ a: undefined, c: 3 });
      expect(await ctx.thread.state).toEqual({ a: 1, b: 2, c: 3 });
      expect(Object.keys((await ctx.thread.state) ?? {})).toEqual(["a", "b", "c"]);
    });

    it("rejects state that is not a plain object, writing nothing", async () => {
      for (const bad of [null, [1, 2], new Date(), "text"]) {
        const error = await rejection(ctx.thread.setState(bad as unknown as TestState));
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).step).toBe(`set state of thread ${THREAD_ID}`);
      }
      expect(await ctx.thread.state).toBeNull();
    });
  });

  describe("post with different message formats", () => {
    it("should post a string message", async () => {
      const sent = await ctx.thread.post("Hello world");
      expect(ctx.adapter).toHavePosted("Hello world", THREAD_ID);
      expect(sent.text).toBe("Hello world");
      expect(sent.id).toBe("mock-msg-1");
      expect(sent.threadId).toBe(THREAD_ID);
    });

    it("should post a raw message", async () => {
      const sent = await ctx.thread.post({ raw: "raw text" });
      expect(ctx.adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, { raw: "raw text" }]);
      expect(sent.text).toBe("raw text");
    });

    it("should post a markdown message", async () => {
      const sent = await ctx.thread.post({ markdown: "**bold** text" });
      expect(ctx.adapter.callsOf("postMessage")[0]?.args).toEqual([
        THREAD_ID,
        { markdown: "**bold** text" },
      ]);
      // The plain text of the parsed markdown, as upstream derives it.
      expect(sent.text).toBe("bold text");
    });

    it("should set correct author on sent message", async () => {
      const sent = await ctx.thread.post("Hello");
      expect(sent.author.isBot).toBe(true);
      expect(sent.author.isMe).toBe(true);
      expect(sent.author.userId).toBe("self");
      expect(sent.author.userName).toBe(ctx.adapter.userName);
    });

    it("should use threadId override from postMessage response", async () => {
      vi.spyOn(ctx.adapter, "postMessage").mockResolvedValueOnce({
        id: "m-9",
        threadId: "mock:C123:T9",
      });
      const sent = await ctx.thread.post("hi");
      expect(sent.threadId).toBe("mock:C123:T9");
      await sent.edit("edited");
      expect(ctx.adapter.callsOf("editMessage")[0]?.args).toEqual([
        "mock:C123:T9",
        "m-9",
        "edited",
      ]);
    });

    it("rejects empty or malformed content with a ValidationError naming the step, before any platform call", async () => {
      const bad: unknown[] = [
        "",
        { markdown: "" },
        { raw: "" },
        { markdown: 3 },
        42,
        null,
        { text: "hi" },
      ];
      for (const message of bad) {
        const error = await rejection(ctx.thread.post(message as string));
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).step).toBe(`post message to ${THREAD_ID}`);
        expect((error as Error).message).toMatch(/^post message to mock:C123:T1: /);
      }
      expect(ctx.adapter).toHaveCalled("postMessage", 0);
    });

    it("accepts whitespace, which some bots post on purpose", async () => {
      await ctx.thread.post(" ");
      expect(ctx.adapter).toHavePosted(" ");
    });

    it("wraps a platform failure in an AdapterError that names the step and keeps the cause", async () => {
      const cause = new TypeError("fetch failed");
      ctx.adapter.failNext("postMessage", cause);
      const error = await rejection(ctx.thread.post("hi"));
      expect(error).toBeInstanceOf(AdapterError);
      expect(error).toMatchObject({
        code: "ADAPTER_FAILED",
        adapter: "mock",
        step: `post message to ${THREAD_ID}`,
        message: `post message to ${THREAD_ID}: fetch failed`,
        cause,
      });
    });

    it("wraps a thrown non-Error value, keeping it as the cause", async () => {
      ctx.adapter.failNext("startTyping", "socket hang up");
      const error = await rejection(ctx.thread.startTyping());
      expect(error).toMatchObject({
        step: `start typing in ${THREAD_ID}`,
        message: `start typing in ${THREAD_ID}: socket hang up`,
        cause: "socket hang up",
      });
    });

    it("lets a RateLimitError from the platform pass through unchanged", async () => {
      const limited = new RateLimitError("slow down", 2_000);
      ctx.adapter.failNext("postMessage", limited);
      expect(await rejection(ctx.thread.post("hi"))).toBe(limited);
    });

    it("reports an adapter answer without a message id as an AdapterError", async () => {
      vi.spyOn(ctx.adapter, "postMessage").mockResolvedValueOnce({ id: "", threadId: THREAD_ID });
      const error = await rejection(ctx.thread.post("hi"));
      expect(isBatonError(error, "ADAPTER_FAILED")).toBe(true);
      expect((error as AdapterError).step).toBe(`post message to ${THREAD_ID}`);
    });
  });

  describe("reactions", () => {
    it("adds and removes the bot's reaction on any message of the thread", async () => {
      await ctx.thread.addReaction("m-42", "thumbs_up");
      await ctx.thread.removeReaction("m-42", "thumbs_up");
      expect(ctx.adapter.calls.map((call) => [call.method, ...call.args])).toEqual([
        ["addReaction", THREAD_ID, "m-42", "thumbs_up"],
        ["removeReaction", THREAD_ID, "m-42", "thumbs_up"],
      ]);
    });

    it("rejects an empty message id or emoji before calling the platform", async () => {
      expect(await rejection(ctx.thread.addReaction("", "eyes"))).toBeInstanceOf(ValidationError);
      expect(await rejection(ctx.thread.removeReaction("m-1", ""))).toBeInstanceOf(ValidationError);
      expect(ctx.adapter.calls).toEqual([]);
    });

    it("names the message and thread in the step of a failed reaction", async () => {
      ctx.adapter.failNext("addReaction", new Error("already_reacted"));
      const error = await rejection(ctx.thread.addReaction("m-1", "eyes"));
      expect((error as AdapterError).step).toBe(`add reaction to message m-1 in ${THREAD_ID}`);
    });
  });

  describe("subscribe and unsubscribe", () => {
    it("should subscribe via state adapter", async () => {
      await ctx.thread.subscribe();
      expect(await ctx.state.isSubscribed(THREAD_ID)).toBe(true);
    });

    it("should unsubscribe via state adapter", async () => {
      await ctx.state.subscribe(THREAD_ID);
      await ctx.thread.unsubscribe();
      expect(await ctx.state.isSubscribed(THREAD_ID)).toBe(false);
    });
  });

  describe("isSubscribed", () => {
    it("should return false when not subscribed", async () => {
      expect(await ctx.thread.isSubscribed()).toBe(false);
    });

    it("should return true after subscribing", async () => {
      await ctx.thread.subscribe();
      expect(await ctx.thread.isSubscribed()).toBe(true);
    });

    it("should return false after unsubscribing", async () => {
      await ctx.thread.subscribe();
      await ctx.thread.unsubscribe();
      expect(await ctx.thread.isSubscribed()).toBe(false);
    });

    it("should short-circuit and return true when isSubscribedContext is set", async () => {
      const { thread, state } = await setup({ isSubscribedContext: true });
      const check = vi.spyOn(state, "isSubscribed");
      expect(await thread.isSubscribed()).toBe(true);
      expect(check).not.toHaveBeenCalled();
    });

    it("asks the State again after unsubscribe, even in a subscribed context", async () => {
      const { thread } = await setup({ isSubscribedContext: true });
      await thread.unsubscribe();
      expect(await thread.isSubscribed()).toBe(false);
    });
  });

  describe("recentMessages getter/setter", () => {
    it("should start with empty array by default", () => {
      expect(ctx.thread.recentMessages).toEqual([]);
    });

    it("should initialize with initialMessage when provided", async () => {
      const message = createTestMessage({ threadId: THREAD_ID });
      const { thread } = await setup({ initialMessage: message });
      expect(thread.recentMessages).toEqual([message]);
    });

    it("should allow setting recentMessages", () => {
      const message = createTestMessage({ threadId: THREAD_ID });
      ctx.thread.recentMessages = [message];
      expect(ctx.thread.recentMessages).toEqual([message]);
    });

    it("should allow replacing recentMessages", () => {
      const first = createTestMessage({ threadId: THREAD_ID });
      const second = createTestMessage({ threadId: THREAD_ID });
      ctx.thread.recentMessages = [first];
      ctx.thread.recentMessages = [second];
      expect(ctx.thread.recentMessages).toEqual([second]);
    });
  });

  describe("refresh", () => {
    it("should update recentMessages from API", async () => {
      const seeded = seedHistory(ctx.adapter, 3);
      await ctx.thread.refresh();
      // Oldest first, as upstream keeps them, although our pages come newest first.
      expect(ctx.thread.recentMessages.map((message) => message.id)).toEqual(
        seeded.map((message) => message.id),
      );
    });

    it("should fetch with limit of 50", async () => {
      seedHistory(ctx.adapter, 60);
      await ctx.thread.refresh();
      expect(ctx.adapter.callsOf("fetchMessages")[0]?.args).toEqual([THREAD_ID, { limit: 50 }]);
      expect(ctx.thread.recentMessages).toHaveLength(50);
      expect(ctx.thread.recentMessages.at(-1)?.id).toBe("m60");
    });
  });

  describe("startTyping", () => {
    it("should call adapter.startTyping with thread id", async () => {
      await ctx.thread.startTyping();
      expect(ctx.adapter.callsOf("startTyping")[0]?.args).toEqual([THREAD_ID]);
    });

    it("should pass status to adapter.startTyping", async () => {
      await ctx.thread.startTyping("Searching documents...");
      expect(ctx.adapter.callsOf("startTyping")[0]?.args).toEqual([
        THREAD_ID,
        "Searching documents...",
      ]);
    });
  });

  describe("concurrent iteration safety", () => {
    it("should handle concurrent iterations independently", async () => {
      const { thread, adapter } = await setup({}, 2);
      seedHistory(adapter, 5);
      const [first, second] = await Promise.all([
        collect(thread.messages),
        collect(thread.messages),
      ]);
      expect(first.map((message) => message.id)).toEqual(["m5", "m4", "m3", "m2", "m1"]);
      expect(second.map((message) => message.id)).toEqual(["m5", "m4", "m3", "m2", "m1"]);
    });

    it("should not share cursor state between iterations", async () => {
      const { thread, adapter } = await setup({}, 2);
      seedHistory(adapter, 5);
      const messages = thread.messages;
      expect((await collect(messages, 3)).map((message) => message.id)).toEqual(["m5", "m4", "m3"]);
      expect((await collect(messages, 1)).map((message) => message.id)).toEqual(["m5"]);
    });
  });

  describe("construction", () => {
    it("derives the channel id and isDM from the adapter", async () => {
      expect(ctx.thread.id).toBe(THREAD_ID);
      expect(ctx.thread.adapter).toBe(ctx.adapter);
      expect(ctx.thread.channelId).toBe("mock:C123");
      expect(ctx.thread.isDM).toBe(false);
      const dm = new ThreadImpl({
        adapter: ctx.adapter,
        state: ctx.state,
        threadId: "mock:DU1:dm",
      });
      expect(dm.isDM).toBe(true);
    });

    it("lets the isDM option override the adapter's answer", () => {
      const thread = new ThreadImpl({
        adapter: ctx.adapter,
        state: ctx.state,
        threadId: THREAD_ID,
        isDM: true,
      });
      expect(thread.isDM).toBe(true);
    });

    it("treats a thread as not direct when the adapter cannot tell", () => {
      const adapter = Object.assign(createMockAdapter("mock"), { isDM: undefined });
      const thread = new ThreadImpl({ adapter, state: ctx.state, threadId: "mock:DU1:dm" });
      expect(thread.isDM).toBe(false);
    });

    it("refuses an empty thread id or one of another adapter", () => {
      for (const threadId of ["", "slack:C1:T1"]) {
        expect(() => new ThreadImpl({ adapter: ctx.adapter, state: ctx.state, threadId })).toThrow(
          ValidationError,
        );
      }
    });
  });
});

describe("thread.messages (newest first)", () => {
  it("should iterate messages newest first", async () => {
    const { thread, adapter } = await setup();
    seedHistory(adapter, 3);
    const messages = await collect(thread.messages);
    expect(messages.map((message) => message.text)).toEqual([
      "message 3",
      "message 2",
      "message 1",
    ]);
  });

  it("should handle pagination", async () => {
    const { thread, adapter } = await setup({}, 2);
    seedHistory(adapter, 5);
    const messages = await collect(thread.messages);
    expect(messages.map((message) => message.id)).toEqual(["m5", "m4", "m3", "m2", "m1"]);
    const calls = adapter.callsOf("fetchMessages").map((call) => call.args[1] ?? {});
    expect(calls).toEqual([
      { direction: "backward" },
      { direction: "backward", cursor: "mock-cursor:2" },
      { direction: "backward", cursor: "mock-cursor:4" },
    ]);
  });

  it("should allow getting N most recent messages with break", async () => {
    const { thread, adapter } = await setup({}, 2);
    seedHistory(adapter, 10);
    const recent = await collect(thread.messages, 3);
    expect(recent.map((message) => message.id)).toEqual(["m10", "m9", "m8"]);
  });

  it("fetches the next page only when iteration reaches it", async () => {
    const { thread, adapter } = await setup();
    seedHistory(adapter, 120);
    const recent = await collect(thread.messages, 3);
    expect(recent).toHaveLength(3);
    expect(adapter).toHaveCalled("fetchMessages", 1);
  });

  it("makes no platform call until iteration starts", async () => {
    const { thread, adapter } = await setup();
    void thread.messages;
    expect(adapter).toHaveCalled("fetchMessages", 0);
  });

  it("yields nothing for a thread without history", async () => {
    const { thread } = await setup();
    expect(await collect(thread.messages)).toEqual([]);
  });

  it("stops at an empty page even when the adapter offers another cursor", async () => {
    const { thread, adapter } = await setup();
    vi.spyOn(adapter, "fetchMessages").mockResolvedValue({ messages: [], nextCursor: "more" });
    expect(await collect(thread.messages)).toEqual([]);
    expect(adapter.fetchMessages).toHaveBeenCalledTimes(1);
  });

  it("fails with an AdapterError when the adapter hands back the cursor it was given", async () => {
    const { thread, adapter } = await setup();
    const message = createTestMessage({ threadId: THREAD_ID });
    vi.spyOn(adapter, "fetchMessages").mockResolvedValue({ messages: [message], nextCursor: "c1" });
    const error = await rejection(collect(thread.messages));
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).step).toBe(`fetch messages of ${THREAD_ID}`);
    expect(adapter.fetchMessages).toHaveBeenCalledTimes(2);
  });
});

describe("thread.channel", () => {
  it("should return a Channel for the thread's parent channel", async () => {
    const { thread, adapter } = await setup();
    expect(thread.channel).toBeInstanceOf(ChannelImpl);
    expect(thread.channel.id).toBe("mock:C123");
    expect(thread.channel.adapter).toBe(adapter);
  });

  it("should cache the channel instance", async () => {
    const { thread } = await setup();
    expect(thread.channel).toBe(thread.channel);
  });

  it("should inherit isDM from thread", async () => {
    const { adapter, state } = await setup();
    const thread = new ThreadImpl({ adapter, state, threadId: "mock:DU1:dm" });
    expect(thread.channel.isDM).toBe(true);
  });
});
