import {
  batonMatchers,
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import type { RawMessage as SentMessage } from "../../src/contracts/adapter.js";
import type { AdapterPostableMessage as PostableMessage } from "../../src/contracts/postable-message.js";
import { AdapterError, RateLimitError, ValidationError } from "../../src/errors/index.js";
import { ChannelImpl, type ChannelOptions } from "../../src/runtime/channel.js";
import { THREAD_STATE_TTL_MS } from "../../src/runtime/scoped-state.js";

expect.extend(batonMatchers);

const CHANNEL_ID = "mock:C123";
const THREAD_ID = "mock:C123:T1";

/**
 * The mock adapter with upstream's optional `postChannelMessage`, posting at the channel's top
 * level by opening a thread `{channel}:top-<n>` (as a platform that threads every post would).
 */
function withChannelPosting(adapter: MockAdapter) {
  let opened = 0;
  const postChannelMessage = vi.fn(
    async (channelId: string, message: PostableMessage): Promise<SentMessage> => {
      opened += 1;
      return adapter.postMessage(`${channelId}:top-${opened}`, message);
    },
  );
  return Object.assign(adapter, { postChannelMessage });
}

async function setup(options: Partial<ChannelOptions> = {}, pageSize?: number) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", {
    clock,
    ...(pageSize === undefined ? {} : { defaultPageSize: pageSize }),
  });
  const channel = new ChannelImpl<Record<string, unknown>>({
    adapter,
    state,
    channelId: CHANNEL_ID,
    ...options,
  });
  return { clock, state, adapter, channel };
}

/**
 * The mock adapter serves history by thread id; a channel id is not one, so channel history is
 * served from the mock's seeded thread history through a spy, as a platform adapter would serve
 * it from its channel-history API.
 */
function serveChannelHistory(adapter: MockAdapter, count: number) {
  adapter.seedMessages(
    THREAD_ID,
    Array.from({ length: count }, (_, index) =>
      createTestMessage({ id: `m${index + 1}`, threadId: THREAD_ID }),
    ),
  );
  const original = adapter.fetchMessages.bind(adapter);
  return vi
    .spyOn(adapter, "fetchMessages")
    .mockImplementation((_channelId, options) => original(THREAD_ID, options));
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

describe("ChannelImpl", () => {
  describe("basic properties", () => {
    it("should have correct id and adapter", async () => {
      const { channel, adapter } = await setup();
      expect(channel.id).toBe(CHANNEL_ID);
      expect(channel.adapter).toBe(adapter);
      expect(channel.isDM).toBe(false);
    });

    it("should set isDM when configured", async () => {
      const { channel } = await setup({ isDM: true });
      expect(channel.isDM).toBe(true);
    });

    it("refuses an empty channel id", async () => {
      const { adapter, state } = await setup();
      expect(() => new ChannelImpl({ adapter, state, channelId: "" })).toThrow(ValidationError);
    });
  });

  describe("state management", () => {
    it("should return null when no state has been set", async () => {
      const { channel } = await setup();
      expect(await channel.state).toBeNull();
    });

    it("should set and retrieve state", async () => {
      const { channel } = await setup();
      await channel.setState({ topic: "support" });
      expect(await channel.state).toEqual({ topic: "support" });
    });

    it("should merge state by default", async () => {
      const { channel } = await setup();
      await channel.setState({ topic: "support" });
      await channel.setState({ owner: "U1" });
      expect(await channel.state).toEqual({ topic: "support", owner: "U1" });
    });

    it("should replace state when option is set", async () => {
      const { channel } = await setup();
      await channel.setState({ topic: "support", owner: "U1" });
      await channel.setState({ owner: "U2" }, { replace: true });
      expect(await channel.state).toEqual({ owner: "U2" });
    });

    it("should use channel-state: key prefix", async () => {
      const { channel, state } = await setup();
      await channel.setState({ topic: "support" });
      expect(await state.get(`channel-state:${CHANNEL_ID}`)).toEqual({ topic: "support" });
      expect(await state.get(`thread-state:${CHANNEL_ID}`)).toBeNull();
    });

    it("loses no key when 20 setState calls with distinct keys run concurrently", async () => {
      const { channel } = await setup();
      await Promise.all(
        Array.from({ length: 20 }, (_, index) => channel.setState({ [`key${index}`]: index })),
      );
      expect(Object.keys((await channel.state) ?? {})).toHaveLength(20);
    });

    it("keeps channel state 30 days after its last write", async () => {
      const { channel, clock } = await setup();
      await channel.setState({ topic: "support" });
      await clock.advance(THREAD_STATE_TTL_MS - 1);
      await channel.setState({ owner: "U1" });
      await clock.advance(THREAD_STATE_TTL_MS - 1);
      expect(await channel.state).toEqual({ topic: "support", owner: "U1" });
      await clock.advance(1);
      expect(await channel.state).toBeNull();
    });

    it("names the channel in the step of a rejected write", async () => {
      const { channel } = await setup();
      const error = await rejection(channel.setState([] as unknown as Record<string, unknown>));
      expect((error as ValidationError).step).toBe(`set state of channel ${CHANNEL_ID}`);
    });
  });

  describe("messages iterator (newest first)", () => {
    it("should auto-paginate through multiple pages", async () => {
      const { channel, adapter } = await setup({}, 2);
      const fetch = serveChannelHistory(adapter, 5);
      const messages = await collect(channel.messages);
      expect(messages.map((message) => message.id)).toEqual(["m5", "m4", "m3", "m2", "m1"]);
      expect(fetch).toHaveBeenCalledTimes(3);
      expect(fetch.mock.calls.every(([id]) => id === CHANNEL_ID)).toBe(true);
    });

    it("should allow breaking out early", async () => {
      const { channel, adapter } = await setup({}, 2);
      const fetch = serveChannelHistory(adapter, 5);
      const messages = await collect(channel.messages, 2);
      expect(messages.map((message) => message.id)).toEqual(["m5", "m4"]);
      expect(fetch).toHaveBeenCalledTimes(1);
    });

    it("should handle empty channel", async () => {
      const { channel, adapter } = await setup();
      serveChannelHistory(adapter, 0);
      expect(await collect(channel.messages)).toEqual([]);
    });
  });

  describe("post", () => {
    it("should use postChannelMessage when available", async () => {
      const { state, adapter: mock } = await setup();
      const adapter = withChannelPosting(mock);
      const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
      const sent = await channel.post("Hello channel");
      expect(adapter.postChannelMessage).toHaveBeenCalledWith(CHANNEL_ID, "Hello channel");
      expect(adapter).toHavePosted("Hello channel", "mock:C123:top-1");
      expect(sent.threadId).toBe("mock:C123:top-1");
    });

    it("should fall back to postMessage when postChannelMessage is not available", async () => {
      const { channel, adapter } = await setup();
      const post = vi.spyOn(adapter, "postMessage").mockResolvedValue({ id: "c-1", threadId: "" });
      const sent = await channel.post("Hello channel");
      expect(post).toHaveBeenCalledWith(CHANNEL_ID, "Hello channel");
      // No thread reported: the handle targets the channel itself.
      expect(sent).toMatchObject({ id: "c-1", threadId: CHANNEL_ID });
    });

    it("rejects empty content with a ValidationError naming the step", async () => {
      const { channel, adapter } = await setup();
      const error = await rejection(channel.post({ markdown: "" }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).step).toBe(`post message to ${CHANNEL_ID}`);
      expect(adapter.calls).toEqual([]);
    });

    it("wraps a platform failure in an AdapterError naming the channel", async () => {
      const { state, adapter: mock } = await setup();
      const adapter = withChannelPosting(mock);
      adapter.postChannelMessage.mockRejectedValueOnce(new Error("channel_not_found"));
      const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
      const error = await rejection(channel.post("hi"));
      expect(error).toBeInstanceOf(AdapterError);
      expect((error as Error).message).toBe(`post message to ${CHANNEL_ID}: channel_not_found`);
    });
  });

  describe("post with different message formats", () => {
    it("should handle raw message format", async () => {
      const { state, adapter: mock } = await setup();
      const adapter = withChannelPosting(mock);
      await new ChannelImpl({ adapter, state, channelId: CHANNEL_ID }).post({ raw: "<raw>" });
      expect(adapter.postChannelMessage).toHaveBeenCalledWith(CHANNEL_ID, { raw: "<raw>" });
    });

    it("should handle markdown message format", async () => {
      const { state, adapter: mock } = await setup();
      const adapter = withChannelPosting(mock);
      await new ChannelImpl({ adapter, state, channelId: CHANNEL_ID }).post({ markdown: "_hi_" });
      expect(adapter.postChannelMessage).toHaveBeenCalledWith(CHANNEL_ID, { markdown: "_hi_" });
    });
  });
});

describe("ChannelImpl.startTyping", () => {
  it("should call adapter.startTyping with channel id", async () => {
    const { channel, adapter } = await setup();
    const typing = vi.spyOn(adapter, "startTyping").mockResolvedValue();
    await channel.startTyping();
    expect(typing).toHaveBeenCalledWith(CHANNEL_ID, undefined);
  });

  it("should pass status string to adapter.startTyping", async () => {
    const { channel, adapter } = await setup();
    const typing = vi.spyOn(adapter, "startTyping").mockResolvedValue();
    await channel.startTyping("Thinking...");
    expect(typing).toHaveBeenCalledWith(CHANNEL_ID, "Thinking...");
  });
});

describe("ChannelImpl.post error cases", () => {
  async function posted() {
    const { state, adapter: mock } = await setup();
    const adapter = withChannelPosting(mock);
    const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
    const sent = await channel.post("original");
    return { adapter, sent };
  }

  it("should return a SentMessage with edit/delete capabilities", async () => {
    const { sent } = await posted();
    expect(sent.id).toBe("mock-msg-1");
    expect(typeof sent.edit).toBe("function");
    expect(typeof sent.delete).toBe("function");
    expect(typeof sent.addReaction).toBe("function");
    expect(typeof sent.removeReaction).toBe("function");
  });

  it("should allow editing a sent message", async () => {
    const { adapter, sent } = await posted();
    const edited = await sent.edit("edited");
    expect(adapter.callsOf("editMessage")[0]?.args).toEqual([sent.threadId, sent.id, "edited"]);
    expect(edited).toMatchObject({ id: sent.id, threadId: sent.threadId });
  });

  it("should allow deleting a sent message", async () => {
    const { adapter, sent } = await posted();
    await sent.delete();
    expect(adapter.callsOf("deleteMessage")[0]?.args).toEqual([sent.threadId, sent.id]);
  });

  it("should allow adding a reaction to a sent message", async () => {
    const { adapter, sent } = await posted();
    await sent.addReaction("thumbs_up");
    expect(adapter.callsOf("addReaction")[0]?.args).toEqual([sent.threadId, sent.id, "thumbs_up"]);
  });

  it("should allow removing a reaction from a sent message", async () => {
    const { adapter, sent } = await posted();
    await sent.removeReaction("thumbs_up");
    expect(adapter.callsOf("removeReaction")[0]?.args).toEqual([
      sent.threadId,
      sent.id,
      "thumbs_up",
    ]);
  });

  it("validates an edit and an emoji before calling the platform", async () => {
    const { adapter, sent } = await posted();
    const edit = await rejection(sent.edit(""));
    expect(edit).toBeInstanceOf(ValidationError);
    expect((edit as ValidationError).step).toBe(`edit message ${sent.id} in ${sent.threadId}`);
    expect(await rejection(sent.addReaction(""))).toBeInstanceOf(ValidationError);
    expect(adapter).toHaveCalled("editMessage", 0);
    expect(adapter).toHaveCalled("addReaction", 0);
  });

  it("names the message in the step of a failed action and passes Baton errors through", async () => {
    const { adapter, sent } = await posted();
    adapter.failNext("deleteMessage", new Error("message_not_found"));
    const failed = await rejection(sent.delete());
    expect(failed).toBeInstanceOf(AdapterError);
    expect((failed as AdapterError).step).toBe(`delete message ${sent.id} in ${sent.threadId}`);

    const limited = new RateLimitError("slow down");
    adapter.failNext("editMessage", limited);
    expect(await rejection(sent.edit("again"))).toBe(limited);
  });

  it("keeps the platform's raw answer on the handle and refreshes it on edit", async () => {
    const { state, adapter } = await setup();
    vi.spyOn(adapter, "postMessage").mockResolvedValueOnce({
      id: "p-1",
      threadId: THREAD_ID,
      raw: { ts: "1" },
    });
    vi.spyOn(adapter, "editMessage").mockResolvedValueOnce({
      id: "p-1",
      threadId: THREAD_ID,
      raw: { ts: "1", edited: true },
    });
    const sent = await new ChannelImpl({ adapter, state, channelId: CHANNEL_ID }).post("hi");
    expect(sent.raw).toEqual({ ts: "1" });
    expect((await sent.edit("hello")).raw).toEqual({ ts: "1", edited: true });
    expect(Object.isFrozen(sent)).toBe(true);
  });
});
