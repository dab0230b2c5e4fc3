import {
  createMockAdapter,
  createTestMessage,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateAdapter } from "../../src/contracts/state.js";
import type { ChannelVisibility } from "../../src/contracts/thread-surface-types.js";
import { ValidationError } from "../../src/errors/index.js";
import { Message, type SerializedMessage } from "../../src/model/message.js";
import { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "../../src/model/workflow-serde.js";
import { ChannelImpl } from "../../src/runtime/channel.js";
import { Chat } from "../../src/runtime/chat.js";
import { clearChatSingleton } from "../../src/runtime/chat-singleton.js";
import { reviver } from "../../src/runtime/reviver.js";
import type { SerializedChannel, SerializedThread } from "../../src/runtime/serialization.js";
import { ThreadImpl } from "../../src/runtime/thread.js";

// Upstream's inputs, in Baton's shapes: JSON tags are `baton:*` (ADR 0003), thread ids are the
// mock adapter's `{adapter}:{channel}:{thread}`, and a thread's channel id is `{adapter}:{channel}`.
const THREAD_ID = "slack:C123:1234.5678";
const CHANNEL_ID = "slack:C123";

const threadJson = (overrides: Partial<SerializedThread> = {}): SerializedThread => ({
  _type: "baton:Thread",
  id: THREAD_ID,
  channelId: CHANNEL_ID,
  isDM: false,
  adapterName: "slack",
  ...overrides,
});

const messageJson = (overrides: Partial<SerializedMessage> = {}): SerializedMessage => ({
  _type: "baton:Message",
  id: "msg-1",
  threadId: THREAD_ID,
  text: "Hello",
  raw: {},
  author: {
    userId: "U123",
    userName: "testuser",
    fullName: "Test User",
    isBot: false,
    isMe: false,
  },
  metadata: { dateSent: "2024-01-15T10:30:00.000Z", edited: false },
  attachments: [],
  ...overrides,
});

/** Upstream's `createTestMessage(id, text, overrides)`, on the testing kit's factory. */
function testMessage(
  id: string,
  text: string,
  init: Partial<ConstructorParameters<typeof Message>[0]> = {},
) {
  const base = createTestMessage({ id, text, threadId: THREAD_ID, author: upstreamAuthor });
  return new Message({
    id: base.id,
    threadId: base.threadId,
    text: base.text,
    author: base.author,
    metadata: base.metadata,
    ...init,
  });
}

const upstreamAuthor = {
  userId: "U123",
  userName: "testuser",
  fullName: "Test User",
  isBot: false,
  isMe: false,
} as const;

let state: StateAdapter;
let slack: MockAdapter;
let teams: MockAdapter;
let chat: Chat;

beforeEach(async () => {
  state = await createTestState();
  slack = createMockAdapter("slack");
  teams = createMockAdapter("teams");
  chat = new Chat({ userName: "test-bot", adapters: { slack, teams }, state, logger: "silent" });
});

afterEach(() => {
  clearChatSingleton();
});

function slackThread(
  options: {
    threadId?: string;
    isDM?: boolean;
    channelVisibility?: ChannelVisibility;
    initialMessage?: Message;
  } = {},
) {
  const { threadId = THREAD_ID, ...rest } = options;
  return new ThreadImpl({ adapter: slack, state, threadId, ...rest });
}

describe("Serialization", () => {
  describe("ThreadImpl.toJSON()", () => {
    it("should serialize thread with correct type tag", () => {
      expect(slackThread({ isDM: false }).toJSON()).toEqual({
        _type: "baton:Thread",
        id: THREAD_ID,
        channelId: CHANNEL_ID,
        channelVisibility: "unknown",
        currentMessage: undefined,
        isDM: false,
        adapterName: "slack",
      });
    });

    it("should serialize DM thread correctly", () => {
      const json = slackThread({ threadId: "slack:DU123:dm", isDM: true }).toJSON();
      expect(json._type).toBe("baton:Thread");
      expect(json.isDM).toBe(true);
    });

    it("should serialize external channel thread correctly", () => {
      const json = slackThread({ channelVisibility: "external" }).toJSON();
      expect(json._type).toBe("baton:Thread");
      expect(json.channelVisibility).toBe("external");
    });

    it("should serialize private channel thread correctly", () => {
      const json = slackThread({ channelVisibility: "private" }).toJSON();
      expect(json._type).toBe("baton:Thread");
      expect(json.channelVisibility).toBe("private");
    });

    it("should serialize workspace channel thread correctly", () => {
      const visibility = "workspace" as ChannelVisibility;
      expect(slackThread({ channelVisibility: visibility }).toJSON().channelVisibility).toBe(
        "workspace",
      );
    });

    it("should produce JSON-serializable output", () => {
      const thread = new ThreadImpl({
        adapter: teams,
        state,
        threadId: "teams:channel123:thread456",
      });
      const json = thread.toJSON();
      expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    });
  });

  describe("ThreadImpl.fromJSON()", () => {
    beforeEach(() => {
      chat.registerSingleton();
    });

    it("should reconstruct thread from JSON", () => {
      const thread = ThreadImpl.fromJSON(threadJson());
      expect(thread.id).toBe(THREAD_ID);
      expect(thread.channelId).toBe(CHANNEL_ID);
      expect(thread.isDM).toBe(false);
      expect(thread.adapter.name).toBe("slack");
      expect(thread.adapter).toBe(slack);
    });

    it("should reconstruct DM thread", () => {
      const thread = ThreadImpl.fromJSON(
        threadJson({ id: "slack:DU456:dm", channelId: "slack:DU456", isDM: true }),
      );
      expect(thread.isDM).toBe(true);
    });

    it("should throw error for unknown adapter on access", () => {
      const thread = ThreadImpl.fromJSON(
        threadJson({ id: "discord:channel:thread", channelId: "channel", adapterName: "discord" }),
      );
      // Reviving succeeds; the missing adapter is reported when the handle is used.
      expect(() => thread.adapter).toThrow('Adapter "discord" not found in Chat singleton');
    });

    it("should round-trip correctly", () => {
      const original = slackThread({ isDM: true });
      const restored = ThreadImpl.fromJSON(original.toJSON());
      expect(restored.id).toBe(original.id);
      expect(restored.channelId).toBe(original.channelId);
      expect(restored.isDM).toBe(original.isDM);
      expect(restored.adapter.name).toBe(original.adapter.name);
    });

    it("should round-trip channelVisibility correctly", () => {
      const restored = ThreadImpl.fromJSON(slackThread({ channelVisibility: "external" }).toJSON());
      expect(restored.channelVisibility).toBe("external");
    });

    it("should default channelVisibility to unknown when missing from JSON", () => {
      expect(ThreadImpl.fromJSON(threadJson()).channelVisibility).toBe("unknown");
    });

    it("should serialize currentMessage", () => {
      const currentMessage = testMessage("msg-1", "Hello", {
        raw: { team_id: "T123" },
        author: { ...upstreamAuthor, userId: "U456", userName: "user" },
      });
      const json = slackThread({ initialMessage: currentMessage }).toJSON();
      expect(json.currentMessage).toBeDefined();
      expect(json.currentMessage?._type).toBe("baton:Message");
      expect(json.currentMessage?.author.userId).toBe("U456");
      expect(json.currentMessage?.raw).toEqual({ team_id: "T123" });
    });

    it("should round-trip with currentMessage for streaming", () => {
      const currentMessage = testMessage("msg-1", "Hello", {
        raw: { team_id: "T123" },
        author: { ...upstreamAuthor, userId: "U456", userName: "user" },
      });
      const original = slackThread({ initialMessage: currentMessage });
      const json = original.toJSON();
      const restored = ThreadImpl.fromJSON(json);

      expect(json.currentMessage?.author.userId).toBe("U456");
      expect(json.currentMessage?.raw).toEqual({ team_id: "T123" });
      expect(restored.id).toBe(original.id);
      expect(restored.channelId).toBe(original.channelId);
      expect(restored.recentMessages[0]?.author.userId).toBe("U456");
      expect(restored.toJSON()).toEqual(json);
    });

    it("rejects JSON whose id is not of its adapter, naming the field", () => {
      expect(() => ThreadImpl.fromJSON(threadJson({ adapterName: "teams" }))).toThrow(
        ValidationError,
      );
      expect(() =>
        ThreadImpl.fromJSON({ ...threadJson(), channelId: 7 } as unknown as SerializedThread),
      ).toThrow("channelId must be a non-empty string");
    });
  });

  describe("Message.toJSON()", () => {
    it("should serialize message with correct type tag", () => {
      const json = testMessage("msg-1", "Hello world").toJSON();
      expect(json._type).toBe("baton:Message");
      expect(json.id).toBe("msg-1");
      expect(json.text).toBe("Hello world");
    });

    it("should convert Date to ISO string", () => {
      const json = testMessage("msg-1", "Test", {
        metadata: {
          dateSent: new Date("2024-01-15T10:30:00.000Z"),
          edited: true,
          editedAt: new Date("2024-01-15T11:00:00.000Z"),
        },
      }).toJSON();
      expect(json.metadata.dateSent).toBe("2024-01-15T10:30:00.000Z");
      expect(json.metadata.editedAt).toBe("2024-01-15T11:00:00.000Z");
    });

    it("should handle undefined editedAt", () => {
      const json = testMessage("msg-1", "Test", {
        metadata: { dateSent: new Date("2024-01-15T10:30:00.000Z"), edited: false },
      }).toJSON();
      expect(json.metadata.editedAt).toBeUndefined();
      expect("editedAt" in json.metadata).toBe(false);
    });

    it("should serialize author correctly", () => {
      expect(testMessage("msg-1", "Test").toJSON().author).toEqual({
        userId: "U123",
        userName: "testuser",
        fullName: "Test User",
        isBot: false,
        isMe: false,
      });
    });

    it("should serialize attachments without data/fetchData", () => {
      const json = testMessage("msg-1", "Test", {
        attachments: [
          {
            type: "image",
            url: "https://example.com/image.png",
            name: "image.png",
            mimeType: "image/png",
            size: 1024,
            width: 800,
            height: 600,
            data: new TextEncoder().encode("test"),
            fetchData: () => Promise.resolve(new TextEncoder().encode("test")),
          },
        ],
      }).toJSON();
      expect(json.attachments).toHaveLength(1);
      expect(json.attachments[0]).toEqual({
        type: "image",
        url: "https://example.com/image.png",
        name: "image.png",
        mimeType: "image/png",
        size: 1024,
        width: 800,
        height: 600,
      });
      expect("data" in (json.attachments[0] ?? {})).toBe(false);
      expect("fetchData" in (json.attachments[0] ?? {})).toBe(false);
    });

    it("should serialize isMention flag", () => {
      expect(testMessage("msg-1", "Test", { isMention: true }).toJSON().isMention).toBe(true);
    });

    it("should serialize links without fetchMessage", () => {
      const json = testMessage("msg-1", "Check this out", {
        links: [
          {
            url: "https://example.com",
            title: "Example",
            fetchMessage: async () => testMessage("linked", "linked"),
          },
          { url: "https://vercel.com", siteName: "Vercel" },
        ],
      }).toJSON();
      expect(json.links).toHaveLength(2);
      expect(json.links?.[0]).toEqual({ url: "https://example.com", title: "Example" });
      expect(json.links?.[1]).toEqual({ url: "https://vercel.com", siteName: "Vercel" });
      expect("fetchMessage" in (json.links?.[0] ?? {})).toBe(false);
    });

    it("should omit links when empty", () => {
      expect(testMessage("msg-1", "No links").toJSON().links).toBeUndefined();
    });

    it("should produce JSON-serializable output", () => {
      const parsed = JSON.parse(JSON.stringify(testMessage("msg-1", "Hello **world**").toJSON()));
      expect(parsed._type).toBe("baton:Message");
      expect(parsed.text).toBe("Hello **world**");
    });
  });

  describe("Message.fromJSON()", () => {
    it("should restore message from JSON", () => {
      const message = Message.fromJSON(messageJson({ text: "Hello world", raw: { some: "data" } }));
      expect(message.id).toBe("msg-1");
      expect(message.text).toBe("Hello world");
      expect(message.author.userName).toBe("testuser");
      expect(message.raw).toEqual({ some: "data" });
    });

    it("should convert ISO strings back to Date objects", () => {
      const message = Message.fromJSON(
        messageJson({
          metadata: {
            dateSent: "2024-01-15T10:30:00.000Z",
            edited: true,
            editedAt: "2024-01-15T11:00:00.000Z",
          },
        }),
      );
      expect(message.metadata.dateSent).toBeInstanceOf(Date);
      expect(message.metadata.dateSent.toISOString()).toBe("2024-01-15T10:30:00.000Z");
      expect(message.metadata.editedAt).toBeInstanceOf(Date);
      expect(message.metadata.editedAt?.toISOString()).toBe("2024-01-15T11:00:00.000Z");
    });

    it("should handle undefined editedAt", () => {
      expect(Message.fromJSON(messageJson()).metadata.editedAt).toBeUndefined();
    });

    it("should round-trip correctly", () => {
      const original = testMessage("msg-1", "Hello **world**", {
        isMention: true,
        metadata: {
          dateSent: new Date("2024-01-15T10:30:00.000Z"),
          edited: true,
          editedAt: new Date("2024-01-15T11:00:00.000Z"),
        },
        attachments: [{ type: "file", url: "https://example.com/file.pdf", name: "file.pdf" }],
      });
      const restored = Message.fromJSON(original.toJSON());
      expect(restored.id).toBe(original.id);
      expect(restored.text).toBe(original.text);
      expect(restored.isMention).toBe(original.isMention);
      expect(restored.metadata.dateSent.getTime()).toBe(original.metadata.dateSent.getTime());
      expect(restored.metadata.editedAt?.getTime()).toBe(original.metadata.editedAt?.getTime());
      expect(restored.attachments).toEqual([
        { type: "file", url: "https://example.com/file.pdf", name: "file.pdf" },
      ]);
    });

    it("should round-trip links correctly", () => {
      const original = testMessage("msg-1", "Links test", {
        links: [
          { url: "https://example.com", title: "Example" },
          { url: "https://vercel.com", siteName: "Vercel" },
        ],
      });
      const restored = Message.fromJSON(original.toJSON());
      expect(restored.links).toHaveLength(2);
      expect(restored.links[0]?.url).toBe("https://example.com");
      expect(restored.links[0]?.title).toBe("Example");
      expect(restored.links[1]?.url).toBe("https://vercel.com");
      expect(restored.links[1]?.siteName).toBe("Vercel");
      expect(restored.links[0]?.fetchMessage).toBeUndefined();
    });

    it("should round-trip replied-to message context", () => {
      const replyTo = testMessage("msg-original", "Original message", {
        raw: { platformId: "original-1" },
        author: {
          userId: "U456",
          userName: "original-author",
          fullName: "Original Author",
          isBot: false,
          isMe: false,
        },
        metadata: { dateSent: new Date("2024-01-14T10:30:00.000Z"), edited: false },
        attachments: [{ type: "file", name: "original.pdf", fetchMetadata: { fileId: "file-1" } }],
      });
      const restored = Message.fromJSON(testMessage("msg-reply", "Reply", { replyTo }).toJSON());

      expect(restored.replyTo).toBeInstanceOf(Message);
      expect(restored.replyTo?.id).toBe("msg-original");
      expect(restored.replyTo?.text).toBe("Original message");
      expect(restored.replyTo?.author.userName).toBe("original-author");
      expect(restored.replyTo?.raw).toEqual({ platformId: "original-1" });
      expect(restored.replyTo?.metadata.dateSent).toEqual(new Date("2024-01-14T10:30:00.000Z"));
      expect(restored.replyTo?.attachments).toEqual([
        { type: "file", name: "original.pdf", fetchMetadata: { fileId: "file-1" } },
      ]);
    });
  });

  describe("chat.reviver()", () => {
    it("should revive chat:Thread objects", () => {
      const parsed = JSON.parse(JSON.stringify({ thread: threadJson() }), chat.reviver());
      expect(parsed.thread).toBeInstanceOf(ThreadImpl);
      expect(parsed.thread.id).toBe(THREAD_ID);
      // Bound to this Chat without a singleton.
      expect(parsed.thread.adapter).toBe(slack);
    });

    it("should revive chat:Message objects", () => {
      const parsed = JSON.parse(JSON.stringify({ message: messageJson() }), chat.reviver());
      expect(parsed.message).toBeInstanceOf(Message);
      expect(parsed.message.id).toBe("msg-1");
      expect(parsed.message.metadata.dateSent).toBeInstanceOf(Date);
    });

    it("should revive both Thread and Message in same payload", () => {
      const payload = JSON.stringify({ thread: threadJson(), message: messageJson() });
      const parsed = JSON.parse(payload, chat.reviver());
      expect(parsed.thread).toBeInstanceOf(ThreadImpl);
      expect(parsed.message.metadata.dateSent).toBeInstanceOf(Date);
    });

    it("should leave non-chat objects unchanged", () => {
      const payload = JSON.stringify({
        name: "test",
        count: 42,
        nested: { _type: "other:Type", value: "unchanged" },
      });
      const parsed = JSON.parse(payload, chat.reviver());
      expect(parsed).toEqual({
        name: "test",
        count: 42,
        nested: { _type: "other:Type", value: "unchanged" },
      });
    });

    it("should work with nested structures", () => {
      const payload = JSON.stringify({ data: { messages: [messageJson()] } });
      const parsed = JSON.parse(payload, chat.reviver());
      expect(parsed.data.messages[0].metadata.dateSent).toBeInstanceOf(Date);
    });

    it("revives a thread that writes to this Chat's State and posts through its adapter", async () => {
      const payload = JSON.stringify({
        thread: chat.thread(THREAD_ID),
        channel: chat.channel(CHANNEL_ID),
      });
      const other = new Chat({
        userName: "other",
        adapters: { slack: createMockAdapter("slack") },
        state: await createTestState(),
        logger: "silent",
      });
      other.registerSingleton();
      const restored = JSON.parse(payload, chat.reviver()) as {
        thread: ThreadImpl;
        channel: ChannelImpl;
      };

      await restored.thread.setState({ owner: "first" });
      await restored.channel.setState({ owner: "first" });
      await restored.thread.post("Reply");

      expect(await chat.thread(THREAD_ID).state).toEqual({ owner: "first" });
      expect(await chat.channel(CHANNEL_ID).state).toEqual({ owner: "first" });
      expect(await other.thread(THREAD_ID).state).toBeNull();
      expect(slack.postedTo(THREAD_ID)).toEqual(["Reply"]);
      expect(JSON.stringify(restored)).toBe(payload);
    });

    it("revives a thread's current message too, so a queued handler sees what it was answering", () => {
      const thread = slackThread({
        initialMessage: Message.fromJSON(messageJson({ text: "Queued" })),
      });
      const parsed = JSON.parse(JSON.stringify({ thread }), chat.reviver());
      expect(parsed.thread.recentMessages[0]).toBeInstanceOf(Message);
      expect(parsed.thread.recentMessages[0].text).toBe("Queued");
    });
  });

  describe("standalone reviver()", () => {
    beforeEach(() => {
      chat.registerSingleton();
    });

    it("should revive chat:Thread objects", () => {
      const parsed = JSON.parse(JSON.stringify({ thread: threadJson() }), reviver);
      expect(parsed.thread).toBeInstanceOf(ThreadImpl);
      expect(parsed.thread.id).toBe(THREAD_ID);
      expect(parsed.thread.adapter).toBe(slack);
    });

    it("should revive chat:Message objects", () => {
      const parsed = JSON.parse(JSON.stringify({ message: messageJson() }), reviver);
      expect(parsed.message.id).toBe("msg-1");
      expect(parsed.message.metadata.dateSent).toBeInstanceOf(Date);
    });

    it("should revive both Thread and Message in same payload", () => {
      const parsed = JSON.parse(
        JSON.stringify({ thread: threadJson(), message: messageJson() }),
        reviver,
      );
      expect(parsed.thread).toBeInstanceOf(ThreadImpl);
      expect(parsed.message.metadata.dateSent).toBeInstanceOf(Date);
    });

    it("should leave non-chat objects unchanged", () => {
      const payload = JSON.stringify({
        name: "test",
        count: 42,
        nested: { _type: "other:Type", value: "unchanged" },
      });
      const parsed = JSON.parse(payload, reviver);
      expect(parsed.name).toBe("test");
      expect(parsed.count).toBe(42);
      expect(parsed.nested._type).toBe("other:Type");
    });

    it("should be usable directly as JSON.parse second argument", () => {
      const parsed = JSON.parse(
        JSON.stringify(messageJson({ id: "msg-direct", text: "Direct usage" })),
        reviver,
      );
      expect(parsed).toBeInstanceOf(Message);
      expect(parsed.id).toBe("msg-direct");
      expect(parsed.text).toBe("Direct usage");
      expect(parsed.metadata.dateSent).toBeInstanceOf(Date);
    });

    it("should allow re-serialization of a revived Thread without singleton", () => {
      clearChatSingleton();
      const reserialized = ThreadImpl.fromJSON(threadJson()).toJSON();
      expect(reserialized._type).toBe("baton:Thread");
      expect(reserialized.adapterName).toBe("slack");
      expect(reserialized.id).toBe(THREAD_ID);
    });

    it("should allow re-serialization of a revived Channel without singleton", () => {
      clearChatSingleton();
      const json: SerializedChannel = {
        _type: "baton:Channel",
        id: "C123",
        isDM: false,
        adapterName: "slack",
      };
      const reserialized = ChannelImpl.fromJSON(json).toJSON();
      expect(reserialized._type).toBe("baton:Channel");
      expect(reserialized.adapterName).toBe("slack");
      expect(reserialized.id).toBe("C123");
    });

    it("keeps the runtime a handle first resolved, when the singleton changes later", async () => {
      const thread = JSON.parse(JSON.stringify(threadJson()), reviver) as ThreadImpl;
      await thread.setState({ owner: "first" });
      const otherState = await createTestState();
      new Chat({
        userName: "second",
        adapters: { slack: createMockAdapter("slack") },
        state: otherState,
        logger: "silent",
      }).registerSingleton();
      await thread.setState({ more: true });
      expect(thread.adapter).toBe(slack);
      expect(await chat.thread(THREAD_ID).state).toEqual({ owner: "first", more: true });
      expect(await otherState.get(`thread-state:${THREAD_ID}`)).toBeNull();
    });

    it("reports a missing singleton when a revived handle is first used, not when parsed", () => {
      clearChatSingleton();
      const thread = JSON.parse(JSON.stringify(threadJson()), reviver) as ThreadImpl;
      expect(() => thread.adapter).toThrow("No Chat singleton registered");
    });
  });

  describe("@workflow/serde integration", () => {
    describe("ThreadImpl", () => {
      it("should have WORKFLOW_SERIALIZE static method", () => {
        expect(typeof ThreadImpl[WORKFLOW_SERIALIZE]).toBe("function");
      });

      it("should have WORKFLOW_DESERIALIZE static method", () => {
        expect(typeof ThreadImpl[WORKFLOW_DESERIALIZE]).toBe("function");
      });

      it("should serialize via WORKFLOW_SERIALIZE", () => {
        expect(ThreadImpl[WORKFLOW_SERIALIZE](slackThread({ isDM: false }))).toEqual({
          _type: "baton:Thread",
          id: THREAD_ID,
          channelId: CHANNEL_ID,
          channelVisibility: "unknown",
          currentMessage: undefined,
          isDM: false,
          adapterName: "slack",
        });
      });

      it("should deserialize via WORKFLOW_DESERIALIZE with lazy resolution", () => {
        chat.registerSingleton();
        const result = ThreadImpl[WORKFLOW_DESERIALIZE](threadJson());
        expect(result).toBeInstanceOf(ThreadImpl);
        expect(result.id).toBe(THREAD_ID);
        expect(result.channelId).toBe(CHANNEL_ID);
        expect(result.isDM).toBe(false);
        expect(result.adapter.name).toBe("slack");
        expect(result.adapter).toBe(slack);
      });
    });

    describe("Message", () => {
      it("should have WORKFLOW_SERIALIZE static method", () => {
        expect(typeof Message[WORKFLOW_SERIALIZE]).toBe("function");
      });

      it("should have WORKFLOW_DESERIALIZE static method", () => {
        expect(typeof Message[WORKFLOW_DESERIALIZE]).toBe("function");
      });

      it("should serialize via WORKFLOW_SERIALIZE", () => {
        const serialized = Message[WORKFLOW_SERIALIZE](testMessage("msg-1", "Hello world"));
        expect(serialized._type).toBe("baton:Message");
        expect(serialized.id).toBe("msg-1");
        expect(serialized.text).toBe("Hello world");
        expect(typeof serialized.metadata.dateSent).toBe("string");
      });

      it("should deserialize via WORKFLOW_DESERIALIZE", () => {
        const message = Message[WORKFLOW_DESERIALIZE](messageJson());
        expect(message.id).toBe("msg-1");
        expect(message.text).toBe("Hello");
        expect(message.metadata.dateSent).toBeInstanceOf(Date);
      });

      it("should round-trip via WORKFLOW_SERIALIZE and WORKFLOW_DESERIALIZE", () => {
        const original = testMessage("msg-1", "Test message", { isMention: true });
        const restored = Message[WORKFLOW_DESERIALIZE](Message[WORKFLOW_SERIALIZE](original));
        expect(restored.id).toBe(original.id);
        expect(restored.text).toBe(original.text);
        expect(restored.isMention).toBe(original.isMention);
        expect(restored.metadata.dateSent.getTime()).toBe(original.metadata.dateSent.getTime());
      });
    });
  });
});
