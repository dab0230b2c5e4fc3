import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Card } from "../../src/content/cards/card-builders.js";
import { getEmoji } from "../../src/content/emoji/emoji-value.js";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import { AdapterError, NotSupportedError } from "../../src/errors/index.js";
import { Message } from "../../src/model/message.js";
import { ThreadImpl } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";

async function setup(capabilities: Partial<AdapterCapabilities> = {}) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID });
  return { clock, state, adapter, thread };
}

describe("ThreadImpl", () => {
  describe("createSentMessageFromMessage", () => {
    it("should wrap a Message as a SentMessage with same fields", async () => {
      const { thread } = await setup();
      const msg = createTestMessage({ id: "msg-1", threadId: THREAD_ID, text: "Hello world" });
      const sent = thread.createSentMessageFromMessage(msg);
      expect(sent.id).toBe("msg-1");
      expect(sent.text).toBe("Hello world");
      expect(sent.threadId).toBe(msg.threadId);
      expect(sent.author).toBe(msg.author);
      expect(sent.metadata).toBe(msg.metadata);
      expect(sent.attachments).toBe(msg.attachments);
      expect(sent.formatted).toBe(msg.formatted);
    });

    it("should provide edit capability", async () => {
      const { thread, adapter } = await setup();
      const sent = thread.createSentMessageFromMessage(
        createTestMessage({ id: "msg-1", threadId: THREAD_ID, text: "Hello world" }),
      );
      const edited = await sent.edit("Updated content");
      expect(adapter.callsOf("editMessage")[0]?.args).toEqual([
        THREAD_ID,
        "msg-1",
        "Updated content",
      ]);
      expect(edited.text).toBe("Updated content");
      expect(edited.id).toBe("msg-1");
    });

    it("should provide delete capability", async () => {
      const { thread, adapter } = await setup();
      const sent = thread.createSentMessageFromMessage(
        createTestMessage({ id: "msg-1", threadId: THREAD_ID }),
      );
      await sent.delete();
      expect(adapter.callsOf("deleteMessage")[0]?.args).toEqual([THREAD_ID, "msg-1"]);
    });

    it("should provide addReaction capability", async () => {
      const { thread, adapter } = await setup();
      const sent = thread.createSentMessageFromMessage(
        createTestMessage({ id: "msg-1", threadId: THREAD_ID }),
      );
      await sent.addReaction("thumbsup");
      expect(adapter.callsOf("addReaction")[0]?.args).toEqual([THREAD_ID, "msg-1", "thumbsup"]);
    });

    it("should provide removeReaction capability", async () => {
      const { thread, adapter } = await setup();
      const sent = thread.createSentMessageFromMessage(
        createTestMessage({ id: "msg-1", threadId: THREAD_ID }),
      );
      await sent.removeReaction("thumbsup");
      expect(adapter.callsOf("removeReaction")[0]?.args).toEqual([THREAD_ID, "msg-1", "thumbsup"]);
    });

    it("should preserve isMention from original message", async () => {
      const { thread } = await setup();
      const msg = createTestMessage({
        id: "msg-1",
        threadId: THREAD_ID,
        text: "Hello @bot",
        isMention: true,
      });
      expect(thread.createSentMessageFromMessage(msg).isMention).toBe(true);
    });

    it("should provide toJSON that delegates to the original message", async () => {
      const { thread } = await setup();
      const msg = createTestMessage({ id: "msg-1", threadId: THREAD_ID, text: "Hello world" });
      const json = thread.createSentMessageFromMessage(msg).toJSON();
      // Baton's JSON tag is "baton:Message" (ADR 0003); the rest is the message's own form.
      expect(json._type).toBe("baton:Message");
      expect(json.id).toBe("msg-1");
      expect(json.text).toBe("Hello world");
      expect(json).toEqual(msg.toJSON());
    });
  });

  describe("SentMessage.toJSON from post", () => {
    it("should serialize a sent message via toJSON", async () => {
      const { thread } = await setup();
      const result = await thread.post("Hello world");
      const json = result.toJSON();
      expect(json._type).toBe("baton:Message");
      expect(json.text).toBe("Hello world");
      expect(json.author.isBot).toBe(true);
      expect(json.author.isMe).toBe(true);
      // The JSON revives into a Message with the same content.
      const revived = Message.fromJSON(JSON.parse(JSON.stringify(json)));
      expect(revived.id).toBe(result.id);
      expect(revived.text).toBe("Hello world");
    });
  });

  describe("subscribe and unsubscribe", () => {
    it("should call adapter.onThreadSubscribe when available", async () => {
      const { thread, adapter, state } = await setup();
      const mockOnSubscribe = vi.fn().mockResolvedValue(undefined);
      Object.assign(adapter, { onThreadSubscribe: mockOnSubscribe });
      await thread.subscribe();
      expect(mockOnSubscribe).toHaveBeenCalledWith(THREAD_ID);
      expect(await state.isSubscribed(THREAD_ID)).toBe(true);
    });

    it("should not error when adapter has no onThreadSubscribe", async () => {
      const { thread, adapter, state } = await setup();
      expect("onThreadSubscribe" in adapter).toBe(false);
      await expect(thread.subscribe()).resolves.toBeUndefined();
      expect(await state.isSubscribed(THREAD_ID)).toBe(true);
    });

    it("rejects subscribe with an AdapterError when the hook fails, after the State recorded it", async () => {
      const { thread, adapter, state } = await setup();
      Object.assign(adapter, {
        onThreadSubscribe: vi.fn().mockRejectedValue(new Error("watch failed")),
      });
      const error = await thread.subscribe().catch((e) => e);
      expect(error).toBeInstanceOf(AdapterError);
      expect((error as AdapterError).step).toBe(`subscribe to ${THREAD_ID}`);
      expect(await state.isSubscribed(THREAD_ID)).toBe(true);
    });
  });

  describe("refresh", () => {
    it("should use default (backward) direction", async () => {
      const { thread, adapter } = await setup();
      await thread.refresh();
      // refresh() names no direction, so the adapter uses its default (backward).
      expect(adapter.callsOf("fetchMessages")[0]?.args).toEqual([THREAD_ID, { limit: 50 }]);
    });
  });

  describe("sent message actions and capabilities", () => {
    it("keeps content fields of what was posted: markdown, ast, raw attachments and cards", async () => {
      const { thread } = await setup();
      const md = await thread.post({ markdown: "# Title\n\n*soft*" });
      expect(md.text).toBe("Titlesoft");
      expect(md.formatted.children.map((node) => node.type)).toEqual(["heading", "paragraph"]);
      const ast = await thread.post({
        ast: {
          type: "root",
          children: [{ type: "paragraph", children: [{ type: "text", value: "tree" }] }],
        },
      });
      expect(ast.text).toBe("tree");
      const attachment = { type: "image" as const, url: "https://example.com/a.png" };
      const raw = await thread.post({ raw: "<b>x</b>", attachments: [attachment] });
      expect(raw.attachments).toEqual([attachment]);
      const card = await thread.post(Card({ title: "Order" }));
      expect(card.text).toBe("**Order**");
      expect(card.raw).toBeNull();
      expect(card.metadata.edited).toBe(false);
    });

    it("refuses edits, deletes and reactions the adapter declares it cannot do, before any call", async () => {
      const { thread, adapter } = await setup({
        editMessage: false,
        deleteMessage: false,
        reactions: false,
      });
      const sent = await thread.post("hi");
      const edit = await sent.edit("x").catch((e) => e);
      expect(edit).toBeInstanceOf(NotSupportedError);
      expect((edit as NotSupportedError).feature).toBe("editMessage");
      expect((await sent.delete().catch((e) => e)).feature).toBe("deleteMessage");
      expect((await sent.addReaction("eyes").catch((e) => e)).feature).toBe("reactions");
      expect((await sent.removeReaction("eyes").catch((e) => e)).feature).toBe("reactions");
      expect((await thread.addReaction("m1", "eyes").catch((e) => e)).feature).toBe("reactions");
      expect(adapter.calls.map((call) => call.method)).toEqual(["postMessage"]);
    });

    it("reacts with an EmojiValue or its placeholder by the emoji's normalized name", async () => {
      const { thread, adapter } = await setup();
      const sent = await thread.post("react to me");
      await sent.addReaction(getEmoji("thumbs_up"));
      await sent.removeReaction("{{emoji:thumbs_up}}");
      await thread.addReaction("m1", getEmoji("eyes"));
      expect(adapter.callsOf("addReaction").map((call) => call.args[2])).toEqual([
        "thumbs_up",
        "eyes",
      ]);
      expect(adapter.callsOf("removeReaction")[0]?.args[2]).toBe("thumbs_up");
      await expect(sent.addReaction({ name: "" } as never)).rejects.toThrow(/emoji must be/);
    });

    it("edits a card as its text where the adapter has no cards", async () => {
      const { thread, adapter } = await setup({ cards: false });
      const sent = await thread.post("placeholder");
      const edited = await sent.edit(Card({ title: "Done" }));
      expect(adapter.callsOf("editMessage")[0]?.args[2]).toEqual({ markdown: "**Done**" });
      expect(edited.text).toBe("Done");
    });

    it("refuses typing where the adapter has none, and files where it cannot upload", async () => {
      const { thread, adapter } = await setup({ typing: false, files: false });
      const typing = await thread.startTyping().catch((e) => e);
      expect((typing as NotSupportedError).feature).toBe("typing");
      const file = { filename: "a.txt", data: new TextEncoder().encode("a") };
      const upload = await thread.post({ markdown: "see file", files: [file] }).catch((e) => e);
      expect(upload).toBeInstanceOf(NotSupportedError);
      expect((upload as NotSupportedError).feature).toBe("files");
      expect(adapter.calls).toEqual([]);
    });
  });
});
