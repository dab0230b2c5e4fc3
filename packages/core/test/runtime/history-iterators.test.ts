import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import type { FetchMessagesOptions, FetchMessagesResult } from "../../src/contracts/adapter.js";
import type { ChannelVisibility } from "../../src/contracts/thread-surface-types.js";
import type { Message } from "../../src/model/message.js";
import { ChannelImpl } from "../../src/runtime/channel.js";
import { ThreadImpl } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";
const CHANNEL_ID = "mock:C123";

async function setup(pageSize?: number) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", {
    clock,
    ...(pageSize === undefined ? {} : { defaultPageSize: pageSize }),
  });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID });
  return { state, adapter, thread };
}

/** Seeds `m1` (oldest) … `m<count>` (newest) into `threadId`'s history. */
function seed(adapter: MockAdapter, count: number, threadId = THREAD_ID): Message[] {
  const messages = Array.from({ length: count }, (_, index) =>
    createTestMessage({ id: `m${index + 1}`, threadId, text: `message ${index + 1}` }),
  );
  adapter.seedMessages(threadId, messages);
  return messages;
}

async function ids(iterable: AsyncIterable<Message>, max = Number.POSITIVE_INFINITY) {
  const found: string[] = [];
  for await (const message of iterable) {
    found.push(message.id);
    if (found.length >= max) break;
  }
  return found;
}

const optionsOf = (adapter: MockAdapter) =>
  adapter.callsOf("fetchMessages").map((call) => call.args[1] as FetchMessagesOptions);

describe("ThreadImpl", () => {
  describe("allMessages iterator", () => {
    it("should iterate through all messages in chronological order", async () => {
      const { adapter, thread } = await setup();
      seed(adapter, 3);
      expect(await ids(thread.allMessages)).toEqual(["m1", "m2", "m3"]);
    });

    it("should use forward direction for pagination", async () => {
      const { adapter, thread } = await setup(2);
      seed(adapter, 3);
      await ids(thread.allMessages);
      const options = optionsOf(adapter);
      expect(options).toHaveLength(2);
      expect(options.every((option) => option.direction === "forward")).toBe(true);
    });

    it("should handle pagination across multiple pages", async () => {
      const { adapter, thread } = await setup(2);
      seed(adapter, 5);
      expect(await ids(thread.allMessages)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
      const options = optionsOf(adapter);
      expect(options.map((option) => option.cursor)).toEqual([
        undefined,
        options[1]?.cursor,
        options[2]?.cursor,
      ]);
      expect(new Set(options.map((option) => option.cursor)).size).toBe(3);
    });

    it("should handle empty thread", async () => {
      const { adapter, thread } = await setup();
      expect(await ids(thread.allMessages)).toEqual([]);
      expect(adapter.callsOf("fetchMessages")).toHaveLength(1);
    });

    it("should stop when nextCursor is undefined", async () => {
      const { adapter, thread } = await setup(10);
      seed(adapter, 4);
      expect(await ids(thread.allMessages)).toEqual(["m1", "m2", "m3", "m4"]);
      expect(adapter.callsOf("fetchMessages")).toHaveLength(1);
    });

    it("should stop when empty page is returned with cursor", async () => {
      const { adapter, thread } = await setup();
      const pages: FetchMessagesResult[] = [
        { messages: [createTestMessage({ id: "m1", threadId: THREAD_ID })], nextCursor: "c1" },
        { messages: [], nextCursor: "c2" },
      ];
      const fetch = vi.fn(async () => pages.shift() ?? { messages: [] });
      adapter.fetchMessages = fetch;
      expect(await ids(thread.allMessages)).toEqual(["m1"]);
      expect(fetch).toHaveBeenCalledTimes(2);
    });

    it("should allow breaking out of iteration early", async () => {
      const { adapter, thread } = await setup(2);
      seed(adapter, 10);
      expect(await ids(thread.allMessages, 3)).toEqual(["m1", "m2", "m3"]);
      expect(adapter.callsOf("fetchMessages")).toHaveLength(2);
    });

    it("should be reusable (can iterate multiple times)", async () => {
      const { adapter, thread } = await setup(2);
      seed(adapter, 3);
      const iterable = thread.allMessages;
      expect(await ids(iterable)).toEqual(["m1", "m2", "m3"]);
      expect(await ids(iterable)).toEqual(["m1", "m2", "m3"]);
      expect(adapter.callsOf("fetchMessages")).toHaveLength(4);
    });
  });

  describe("fetchMessages direction behavior", () => {
    it("should pass direction option to adapter", async () => {
      const { adapter, thread } = await setup();
      seed(adapter, 2);
      await ids(thread.allMessages);
      await ids(thread.messages);
      expect(optionsOf(adapter).map((option) => option.direction)).toEqual(["forward", "backward"]);
    });
  });

  describe("serialization", () => {
    it("should serialize to JSON", async () => {
      const { adapter, state } = await setup();
      const thread = new ThreadImpl({ adapter, state, threadId: "mock:C123:T1", isDM: true });
      expect(thread.toJSON()).toEqual({
        _type: "baton:Thread",
        id: "mock:C123:T1",
        channelId: "mock:C123",
        channelVisibility: "unknown",
        currentMessage: undefined,
        isDM: true,
        adapterName: "mock",
      });
    });

    it("should serialize with currentMessage", async () => {
      const { adapter, state } = await setup();
      const current = createTestMessage({ id: "msg-1", text: "Current", threadId: THREAD_ID });
      const json = new ThreadImpl({
        adapter,
        state,
        threadId: THREAD_ID,
        initialMessage: current,
      }).toJSON();
      expect(json.currentMessage).toBeDefined();
      expect(json.currentMessage?._type).toBe("baton:Message");
      expect(json.currentMessage?.text).toBe("Current");
    });

    it("should deserialize from JSON with explicit adapter", async () => {
      const { adapter } = await setup();
      const thread = ThreadImpl.fromJSON(
        {
          _type: "baton:Thread",
          id: "mock:C123:T1",
          channelId: "mock:C123",
          isDM: false,
          adapterName: "mock",
        },
        adapter,
      );
      expect(thread.id).toBe("mock:C123:T1");
      expect(thread.channelId).toBe("mock:C123");
      expect(thread.isDM).toBe(false);
      expect(thread.adapter).toBe(adapter);
    });

    it("should deserialize with currentMessage", async () => {
      const { adapter } = await setup();
      const serialized = createTestMessage({
        id: "msg-1",
        text: "Serialized",
        threadId: THREAD_ID,
      }).toJSON();
      const thread = ThreadImpl.fromJSON(
        {
          _type: "baton:Thread",
          id: THREAD_ID,
          channelId: CHANNEL_ID,
          currentMessage: serialized,
          isDM: false,
          adapterName: "mock",
        },
        adapter,
      );
      expect(thread.recentMessages).toHaveLength(1);
      expect(thread.recentMessages[0]?.text).toBe("Serialized");
      expect(thread.recentMessages[0]?.metadata.dateSent).toBeInstanceOf(Date);
      expect(thread.toJSON().currentMessage).toEqual(serialized);
    });

    it("binds the State of a thread revived with its adapter alone on first use, naming the fix", async () => {
      const { adapter } = await setup();
      const thread = ThreadImpl.fromJSON(
        {
          _type: "baton:Thread",
          id: THREAD_ID,
          channelId: CHANNEL_ID,
          isDM: false,
          adapterName: "mock",
        },
        adapter,
      );
      expect(thread.adapter).toBe(adapter);
      expect(() => thread.state).toThrow("No Chat singleton registered");
    });
  });
});

describe("thread.messages (newest first)", () => {
  it("should use backward direction", async () => {
    const { adapter, thread } = await setup();
    seed(adapter, 2);
    expect(await ids(thread.messages)).toEqual(["m2", "m1"]);
    expect(optionsOf(adapter)).toEqual([{ direction: "backward" }]);
  });
});

describe("thread.channel", () => {
  async function threadWith(channelVisibility?: ChannelVisibility) {
    const { adapter, state } = await setup();
    return new ThreadImpl({
      adapter,
      state,
      threadId: THREAD_ID,
      ...(channelVisibility ? { channelVisibility } : {}),
    });
  }

  it("should inherit channelVisibility from thread", async () => {
    const thread = await threadWith("external");
    expect(thread.channel.channelVisibility).toBe("external");
  });

  it("should default channelVisibility to unknown", async () => {
    const thread = await threadWith();
    expect(thread.channelVisibility).toBe("unknown");
    expect(thread.channel.channelVisibility).toBe("unknown");
  });

  it("should support private channel visibility", async () => {
    const thread = await threadWith("private");
    expect(thread.channelVisibility).toBe("private");
    expect(thread.channel.channelVisibility).toBe("private");
  });
});

describe("ChannelImpl", () => {
  describe("messages iterator (newest first)", () => {
    function channelPages(adapter: MockAdapter) {
      seed(adapter, 3);
      return vi.fn((channelId: string, options?: FetchMessagesOptions) =>
        adapter.fetchMessages(THREAD_ID, { ...options, limit: 2 }).then((page) => {
          expect(channelId).toBe(CHANNEL_ID);
          return page;
        }),
      );
    }

    it("should use fetchChannelMessages when available", async () => {
      const { adapter, state } = await setup();
      const fetchChannelMessages = channelPages(adapter);
      const withChannels = Object.assign(adapter, { fetchChannelMessages });
      const channel = new ChannelImpl({ adapter: withChannels, state, channelId: CHANNEL_ID });
      expect(await ids(channel.messages)).toEqual(["m3", "m2", "m1"]);
      expect(fetchChannelMessages).toHaveBeenCalledTimes(2);
      expect(fetchChannelMessages.mock.calls[0]?.[1]).toEqual({ direction: "backward" });
      // The mock's own fetchMessages ran only inside the spy, for the thread it serves.
      expect(adapter.callsOf("fetchMessages").every((call) => call.threadId === THREAD_ID)).toBe(
        true,
      );
    });

    it("should fall back to fetchMessages when fetchChannelMessages is not available", async () => {
      const { adapter, state } = await setup();
      const fetch = vi.fn(async (_id: string, _options?: FetchMessagesOptions) => ({
        messages: [createTestMessage({ id: "c1", threadId: THREAD_ID })],
      }));
      adapter.fetchMessages = fetch;
      const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
      expect(await ids(channel.messages)).toEqual(["c1"]);
      expect(fetch).toHaveBeenCalledWith(CHANNEL_ID, { direction: "backward" });
    });
  });

  describe("serialization", () => {
    it("should serialize to JSON", async () => {
      const { adapter, state } = await setup();
      const channel = new ChannelImpl({
        adapter,
        state,
        channelId: CHANNEL_ID,
        isDM: false,
        channelVisibility: "private",
      });
      expect(channel.toJSON()).toEqual({
        _type: "baton:Channel",
        id: CHANNEL_ID,
        adapterName: "mock",
        channelVisibility: "private",
        isDM: false,
      });
    });

    it("should deserialize from JSON", async () => {
      const { adapter } = await setup();
      const channel = ChannelImpl.fromJSON(
        {
          _type: "baton:Channel",
          id: CHANNEL_ID,
          adapterName: "mock",
          channelVisibility: "external",
          isDM: true,
        },
        adapter,
      );
      expect(channel).toBeInstanceOf(ChannelImpl);
      expect(channel.id).toBe(CHANNEL_ID);
      expect(channel.isDM).toBe(true);
      expect(channel.channelVisibility).toBe("external");
      expect(channel.adapter).toBe(adapter);
    });
  });
});
