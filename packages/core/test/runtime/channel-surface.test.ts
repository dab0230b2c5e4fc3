import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Actions, Card } from "../../src/content/cards/card-builders.js";
import { Button } from "../../src/content/cards/card-buttons.js";
import type { CardElement } from "../../src/content/cards/card-types.js";
import { Card as JsxCard } from "../../src/content/jsx/components.js";
import { jsx } from "../../src/content/jsx/jsx-element.js";
import type { Adapter } from "../../src/contracts/adapter.js";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import type { ScheduledMessage } from "../../src/contracts/thread-surface-types.js";
import { AdapterError, NotImplementedError } from "../../src/errors/index.js";
import { CALLBACK_KEY_PREFIX, decodeCallbackValue } from "../../src/runtime/callback-urls.js";
import { ChannelImpl } from "../../src/runtime/channel.js";
import { deriveChannelId } from "../../src/runtime/channel-directory.js";

const CHANNEL_ID = "mock:C123";
const postAt = new Date("2030-01-01T00:00:00Z");
const URL = "https://example.com/hooks/approve";

async function setup(capabilities: Partial<AdapterCapabilities> = {}) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
  return { clock, state, adapter, channel };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

function seedThreads(adapter: MockAdapter, replies: Record<string, number>) {
  for (const [thread, count] of Object.entries(replies)) {
    const threadId = `${CHANNEL_ID}:${thread}`;
    adapter.seedMessages(
      threadId,
      Array.from({ length: count + 1 }, (_, index) =>
        createTestMessage({ id: `${thread}-${index}`, threadId, text: `${thread} ${index}` }),
      ),
    );
  }
}

function approvalCard(): CardElement {
  return Card({
    title: "Approve?",
    children: [Actions([Button({ id: "approve", label: "Approve", callbackUrl: URL })])],
  });
}

async function storedCallbackOf(card: unknown, state: Awaited<ReturnType<typeof setup>>["state"]) {
  const row = (card as CardElement).children[0] as { children: { value?: string }[] };
  const token = decodeCallbackValue(row.children[0]?.value);
  return state.get(`${CALLBACK_KEY_PREFIX}${token}`);
}

describe("ChannelImpl", () => {
  describe("threads iterator", () => {
    it("should iterate threads from adapter.listThreads", async () => {
      const { channel, adapter } = await setup();
      seedThreads(adapter, { "1234.5678": 5, "2345.6789": 3 });
      const threads = await collect(channel.threads());
      expect(threads).toHaveLength(2);
      expect(threads[0]?.id).toBe("mock:C123:1234.5678");
      expect(threads[0]?.replyCount).toBe(5);
      expect(threads[0]?.rootMessage.text).toBe("1234.5678 0");
      expect(threads[1]?.id).toBe("mock:C123:2345.6789");
    });

    it("should return empty iterable when adapter has no listThreads", async () => {
      const { state } = await setup();
      const adapter = createMockAdapter();
      Object.assign(adapter, { listThreads: undefined });
      const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
      expect(await collect(channel.threads())).toEqual([]);
      expect(adapter.calls).toEqual([]);
    });

    it("should auto-paginate threads", async () => {
      const { state } = await setup();
      const adapter = createMockAdapter("mock", { defaultPageSize: 1 });
      const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
      seedThreads(adapter, { "1111": 2, "2222": 1 });
      const threads = await collect(channel.threads());
      expect(threads.map((thread) => thread.id)).toEqual(["mock:C123:1111", "mock:C123:2222"]);
      expect(adapter.callsOf("listThreads").map((call) => call.args[1])).toEqual([
        {},
        { cursor: "mock-threads:1" },
      ]);
    });
  });

  describe("fetchMetadata", () => {
    it("should fetch channel info and set name", async () => {
      const { channel, adapter } = await setup();
      adapter.setChannelName(CHANNEL_ID, "#general");
      expect(channel.name).toBeNull();
      const info = await channel.fetchMetadata();
      expect(info.id).toBe(CHANNEL_ID);
      expect(info.name).toBe("#general");
      expect(channel.name).toBe("#general");
      expect(adapter.callsOf("fetchChannelInfo")[0]?.args).toEqual([CHANNEL_ID]);
    });

    it("should return basic info when adapter has no fetchChannelInfo", async () => {
      const { state } = await setup();
      const adapter = createMockAdapter();
      Object.assign(adapter, { fetchChannelInfo: undefined });
      const channel = new ChannelImpl({ adapter, state, channelId: CHANNEL_ID });
      const info = await channel.fetchMetadata();
      expect(info.id).toBe(CHANNEL_ID);
      expect(info.isDM).toBe(false);
      expect(info.metadata).toEqual({});
      expect(channel.name).toBeNull();
    });
  });

  describe("post with different message formats", () => {
    it("should handle AST message format", async () => {
      const { channel, adapter } = await setup();
      const ast = {
        type: "root" as const,
        children: [
          {
            type: "paragraph" as const,
            children: [{ type: "text" as const, value: "from a tree" }],
          },
        ],
      };
      const sent = await channel.post({ ast });
      expect(adapter.callsOf("postMessage")[0]?.args).toEqual([CHANNEL_ID, { ast }]);
      expect(sent.text).toBe("from a tree");
      expect(sent.formatted).toEqual(ast);
    });

    it("should handle raw message with attachments", async () => {
      const { channel, adapter } = await setup();
      const attachments = [{ type: "image" as const, url: "https://example.com/chart.png" }];
      const sent = await channel.post({ raw: "see chart", attachments });
      expect(adapter.callsOf("postMessage")[0]?.args).toEqual([
        CHANNEL_ID,
        { raw: "see chart", attachments },
      ]);
      expect(sent.text).toBe("see chart");
      expect(sent.attachments).toEqual(attachments);
    });
  });
});

describe("deriveChannelId", () => {
  it("should use adapter.channelIdFromThreadId when available", () => {
    const adapter = createMockAdapter();
    const spy = vi.spyOn(adapter, "channelIdFromThreadId");
    expect(deriveChannelId(adapter, "mock:C123:1234.5678")).toBe("mock:C123");
    expect(spy).toHaveBeenCalledWith("mock:C123:1234.5678");
  });

  it("should work with different adapters", () => {
    // An adapter ported from upstream may leave channelIdFromThreadId out: the first two parts.
    const upstreamStyle = { name: "gchat" } as Partial<Adapter> as {
      channelIdFromThreadId?: undefined;
    };
    expect(deriveChannelId(upstreamStyle, "gchat:spaces/ABC123:dGhyZWFk")).toBe(
      "gchat:spaces/ABC123",
    );
    expect(deriveChannelId(createMockAdapter("chat"), "chat:C9:1700.01")).toBe("chat:C9");
  });
});

describe("ChannelImpl.postEphemeral", () => {
  it("should use adapter postEphemeral when available", async () => {
    const { channel, adapter } = await setup();
    const result = await channel.postEphemeral("U456", "Secret message", { fallbackToDM: true });
    expect(adapter.callsOf("postEphemeral")[0]?.args).toEqual([
      CHANNEL_ID,
      "U456",
      "Secret message",
    ]);
    expect(result).toEqual({ id: "mock-msg-1", threadId: CHANNEL_ID, usedFallback: false });
  });

  it("should extract userId from Author object", async () => {
    const { channel, adapter } = await setup();
    const author = {
      userId: "U789",
      userName: "testuser",
      fullName: "Test User",
      isBot: false,
      isMe: false,
    };
    await channel.postEphemeral(author, "Secret message", { fallbackToDM: true });
    expect(adapter.callsOf("postEphemeral")[0]?.args[1]).toBe("U789");
  });

  it("should return null when adapter has no postEphemeral and fallbackToDM is false", async () => {
    const { channel, adapter } = await setup({ ephemeral: false });
    expect(await channel.postEphemeral("U456", "Secret", { fallbackToDM: false })).toBeNull();
    expect(adapter.calls).toEqual([]);
  });

  it("should fallback to DM when adapter has no postEphemeral and fallbackToDM is true", async () => {
    const { channel, adapter } = await setup({ ephemeral: false });
    const result = await channel.postEphemeral("U456", "Secret message", { fallbackToDM: true });
    expect(adapter.callsOf("openDM")[0]?.args).toEqual(["U456"]);
    expect(adapter.callsOf("postMessage")[0]?.args).toEqual(["mock:DU456:dm", "Secret message"]);
    expect(result).toMatchObject({
      id: "mock-msg-1",
      threadId: "mock:DU456:dm",
      usedFallback: true,
    });
  });

  it("should return null when no postEphemeral, no openDM, and fallbackToDM is true", async () => {
    const { channel, adapter } = await setup({ ephemeral: false, openDM: false });
    expect(await channel.postEphemeral("U456", "Secret", { fallbackToDM: true })).toBeNull();
    expect(adapter.calls).toEqual([]);
  });
});

describe("ChannelImpl.mentionUser", () => {
  it("should return formatted mention string", async () => {
    const { channel } = await setup();
    expect(channel.mentionUser("U456")).toBe("<@U456>");
  });

  it("should handle different user ID formats", async () => {
    const { channel } = await setup();
    expect(channel.mentionUser("UABC123")).toBe("<@UABC123>");
    expect(channel.mentionUser("bot-user-id")).toBe("<@bot-user-id>");
  });
});

describe("thread.messages (newest first)", () => {
  function scheduleResult(overrides: Partial<ScheduledMessage> = {}): ScheduledMessage {
    return {
      scheduledMessageId: "Q123",
      channelId: "C123",
      postAt,
      raw: { ok: true },
      cancel: vi.fn().mockResolvedValue(undefined),
      ...overrides,
    };
  }

  describe("schedule()", () => {
    it("should throw NotImplementedError when adapter has no scheduleMessage", async () => {
      const { channel } = await setup({ scheduling: false });
      await expect(channel.schedule("Hello", { postAt })).rejects.toThrow(NotImplementedError);
    });

    it("should include 'scheduling' as the feature in NotImplementedError", async () => {
      const { channel } = await setup({ scheduling: false });
      const error = await channel.schedule("Hello", { postAt }).catch((e) => e);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect((error as NotImplementedError).feature).toBe("scheduling");
    });

    it("should delegate to adapter.scheduleMessage with channel id", async () => {
      const { channel, adapter } = await setup();
      await channel.schedule("Hello", { postAt });
      expect(adapter.callsOf("scheduleMessage")[0]?.args).toEqual([
        CHANNEL_ID,
        "Hello",
        { postAt },
      ]);
    });

    it("should return the ScheduledMessage from adapter", async () => {
      const { channel, adapter } = await setup();
      const expected = scheduleResult();
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(expected);
      expect(await channel.schedule("Hello", { postAt })).toBe(expected);
    });

    it("should convert JSX Card elements to CardElement", async () => {
      const { channel, adapter } = await setup();
      await channel.schedule(jsx(JsxCard, { title: "Reminder" }), { postAt });
      expect(adapter.scheduled[0]?.message).toEqual({
        type: "card",
        title: "Reminder",
        children: [],
      });
    });

    it("should propagate errors from adapter.scheduleMessage", async () => {
      const { channel, adapter } = await setup();
      vi.spyOn(adapter, "scheduleMessage").mockRejectedValue(new Error("Slack API error"));
      const error = await channel.schedule("Hello", { postAt }).catch((e) => e);
      expect(error).toBeInstanceOf(AdapterError);
      expect((error as Error).message).toContain("Slack API error");
    });

    it("should not call postMessage or postChannelMessage when scheduling", async () => {
      const { channel, adapter } = await setup();
      const postChannelMessage = vi.fn();
      Object.assign(adapter, { postChannelMessage });
      await channel.schedule("Hello", { postAt });
      expect(adapter.callsOf("postMessage")).toEqual([]);
      expect(postChannelMessage).not.toHaveBeenCalled();
    });
  });

  describe("callbackUrl processing", () => {
    it("should encode callbackUrl tokens when posting a card", async () => {
      const { channel, adapter, state } = await setup();
      await channel.post(approvalCard());
      const posted = adapter.callsOf("postMessage")[0]?.args[1];
      expect(JSON.stringify(posted)).not.toContain(URL);
      expect(await storedCallbackOf(posted, state)).toEqual({
        actionId: "approve",
        url: URL,
        scope: { type: "channel", id: CHANNEL_ID },
      });
    });

    it("should encode callbackUrl when posting via postEphemeral", async () => {
      const { channel, adapter, state } = await setup();
      await channel.postEphemeral("U1", approvalCard(), { fallbackToDM: false });
      const posted = adapter.callsOf("postEphemeral")[0]?.args[2];
      expect(await storedCallbackOf(posted, state)).toMatchObject({
        scope: { type: "channel", id: CHANNEL_ID },
      });
    });

    it("should encode callbackUrl when scheduling", async () => {
      const { channel, adapter, state } = await setup();
      await channel.schedule(approvalCard(), { postAt });
      expect(await storedCallbackOf(adapter.scheduled[0]?.message, state)).toMatchObject({
        url: URL,
        scope: { type: "channel", id: CHANNEL_ID },
      });
    });

    it("should encode callbackUrl when editing a sent card", async () => {
      const { channel, adapter, state } = await setup();
      const sent = await channel.post("placeholder");
      await sent.edit(approvalCard());
      const edited = adapter.callsOf("editMessage")[0]?.args[2];
      // An edit is scoped to the message's thread (here: the channel it was posted to).
      expect(await storedCallbackOf(edited, state)).toMatchObject({
        scope: { type: "thread", id: CHANNEL_ID },
      });
    });

    it("should pass plain string posts through unchanged", async () => {
      const { channel, adapter, state } = await setup();
      const writes = vi.spyOn(state, "set");
      await channel.post("plain");
      expect(adapter.callsOf("postMessage")[0]?.args[1]).toBe("plain");
      expect(writes).not.toHaveBeenCalled();
    });

    it("should leave cards without callback buttons untouched", async () => {
      const { channel, adapter } = await setup();
      const card = Card({
        title: "Plain",
        children: [Actions([Button({ id: "ok", label: "OK" })])],
      });
      await channel.post(card);
      expect(adapter.callsOf("postMessage")[0]?.args[1]).toEqual(card);
    });
  });
});

describe("ChannelImpl.post error cases", () => {
  it("should handle postChannelMessage returning a threadId override", async () => {
    const { channel, adapter } = await setup();
    const postChannelMessage = vi
      .fn()
      .mockResolvedValue({ id: "top-1", threadId: "mock:C123:T77" });
    Object.assign(adapter, { postChannelMessage });
    const sent = await channel.post("Hello channel");
    expect(postChannelMessage).toHaveBeenCalledWith(CHANNEL_ID, "Hello channel");
    expect(sent.threadId).toBe("mock:C123:T77");
    // Later actions go to the thread the platform reported.
    await sent.edit("Edited");
    expect(adapter.callsOf("editMessage")[0]?.args).toEqual(["mock:C123:T77", "top-1", "Edited"]);
  });
});
