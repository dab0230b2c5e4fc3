import { createTestAuthor, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { getEmoji } from "../../src/content/index.js";
import type {
  ActionEvent,
  ActionHandlerEvent,
  Author,
  Channel,
  MessageDeletedHandlerEvent,
  ReactionEvent,
  ReactionHandlerEvent,
  SlashCommandEvent,
  SlashCommandHandlerEvent,
  Thread,
} from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";

const THREAD = "mock:C123:1234.5678";
const CHANNEL = "mock:C456";

const BOT_AUTHOR: Partial<Author> = {
  userId: "U_BOT",
  userName: "bot",
  fullName: "Test Bot",
  isBot: true,
  isMe: true,
};

function reaction(overrides: Partial<ReactionEvent> = {}): ReactionEvent {
  return {
    emoji: "thumbs_up",
    rawEmoji: "+1",
    added: true,
    user: createTestAuthor({ userId: "U123" }),
    messageId: "msg-1",
    threadId: THREAD,
    raw: {},
    ...overrides,
  };
}

function action(overrides: Partial<ActionEvent> = {}): ActionEvent {
  return {
    actionId: "approve",
    value: "order-123",
    user: createTestAuthor({ userId: "U123" }),
    messageId: "msg-1",
    threadId: THREAD,
    raw: {},
    ...overrides,
  };
}

function slashCommand(overrides: Partial<SlashCommandEvent> = {}): SlashCommandEvent {
  return {
    command: "/help",
    text: "",
    user: createTestAuthor({ userId: "U123" }),
    channelId: CHANNEL,
    raw: { channel_id: "C456" },
    ...overrides,
  };
}

describe("Chat", () => {
  it("should dispatch message updates without normal message routing", async () => {
    const h = await createChatHarness();
    const routed: string[] = [];
    h.chat.onNewMention(() => {
      routed.push("mention");
    });
    h.chat.onSubscribedMessage(() => {
      routed.push("subscribed");
    });
    h.chat.onNewMessage(/.*/, () => {
      routed.push("pattern");
    });
    const updates: Array<{ thread: Thread; text: string; edited: boolean; context: unknown }> = [];
    h.chat.onMessageUpdated((thread, message, context) => {
      updates.push({ thread, text: message.text, edited: message.metadata.edited, context });
    });
    await h.state.subscribe(THREAD);
    const edited = createTestMessage({
      id: "msg-edit",
      threadId: THREAD,
      text: "@bot edited text",
      editedAt: Date.UTC(2026, 0, 1, 0, 5),
    });

    await h.chat.processMessageUpdated(h.adapter, edited);

    expect(routed).toEqual([]);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      text: "@bot edited text",
      edited: true,
      context: { skipped: [], totalSinceLastHandler: 1 },
    });
    expect(updates[0]?.thread.id).toBe(THREAD);
    // An update takes no dedupe mark: the message id itself is still new to the message pipeline.
    await h.state.unsubscribe(THREAD);
    expect(await h.chat.processMessage(h.adapter, THREAD, edited)).toEqual({ outcome: "handled" });
    expect(routed).toEqual(["mention"]);
  });

  it("hands an update's handlers the message before the edit, when the adapter has it (Baton)", async () => {
    const h = await createChatHarness();
    const seen: Array<string | undefined> = [];
    h.chat.onMessageUpdated((_thread, message, context) => {
      seen.push(`${context.previousMessage?.text ?? "(none)"} -> ${message.text}`);
    });
    const before = createTestMessage({ id: "msg-diff", threadId: THREAD, text: "before" });
    const after = createTestMessage({
      id: "msg-diff",
      threadId: THREAD,
      text: "after",
      editedAt: Date.UTC(2026, 0, 1, 0, 5),
    });

    await h.chat.processMessageUpdated(h.adapter, after, undefined, before);
    await h.chat.processMessageUpdated(h.adapter, after);

    expect(seen).toEqual(["before -> after", "(none) -> after"]);
  });

  it("skips message updates from the bot itself", async () => {
    const h = await createChatHarness();
    const updates: string[] = [];
    h.chat.onMessageUpdated((_thread, message) => {
      updates.push(message.id);
    });

    await h.chat.processMessageUpdated(
      h.adapter,
      createTestMessage({ threadId: THREAD, text: "my own edit", author: BOT_AUTHOR }),
    );

    expect(updates).toEqual([]);
  });

  it("should dispatch message deletes with normalized event data", async () => {
    const h = await createChatHarness();
    const routed: string[] = [];
    h.chat.onNewMention(() => {
      routed.push("mention");
    });
    const deletes: MessageDeletedHandlerEvent<Thread>[] = [];
    h.chat.onMessageDeleted((event) => {
      deletes.push(event);
    });

    await h.chat.processMessageDeleted(h.adapter, {
      messageId: "msg-gone",
      threadId: THREAD,
      raw: { type: "message_deleted" },
    });

    expect(routed).toEqual([]);
    expect(deletes).toHaveLength(1);
    const [event] = deletes;
    expect(event).toMatchObject({
      messageId: "msg-gone",
      threadId: THREAD,
      raw: { type: "message_deleted" },
    });
    expect(event?.adapter).toBe(h.adapter);
    expect(event?.thread.id).toBe(THREAD);
    expect(event?.thread.channelId).toBe("mock:C123");
  });

  describe("Reactions", () => {
    it("should call onReaction handler for all reactions", async () => {
      const h = await createChatHarness();
      const received: ReactionHandlerEvent<Thread>[] = [];
      h.chat.onReaction((event) => {
        received.push(event);
      });

      await h.chat.processReaction(h.adapter, reaction());
      await h.chat.processReaction(h.adapter, reaction({ emoji: "fire", rawEmoji: "fire" }));

      expect(received.map((event) => [event.emoji.name, event.rawEmoji])).toEqual([
        ["thumbs_up", "+1"],
        ["fire", "fire"],
      ]);
      expect(received[0]?.thread).toBeDefined();
    });

    it("should call onReaction handler for specific emoji", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onReaction(["thumbs_up", "heart"], (event) => {
        received.push(event.emoji.name);
      });

      await h.chat.processReaction(h.adapter, reaction());
      await h.chat.processReaction(h.adapter, reaction({ emoji: "fire", rawEmoji: "fire" }));

      expect(received).toEqual(["thumbs_up"]);
    });

    it("should skip reactions from self", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onReaction((event) => {
        received.push(event.emoji.name);
      });

      await h.chat.processReaction(h.adapter, reaction({ user: createTestAuthor(BOT_AUTHOR) }));

      expect(received).toEqual([]);
    });

    it("should match by rawEmoji when specified in filter", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onReaction(["+1"], (event) => {
        received.push(event.rawEmoji);
      });

      await h.chat.processReaction(h.adapter, reaction());
      await h.chat.processReaction(h.adapter, reaction({ emoji: "heart", rawEmoji: "heart" }));

      expect(received).toEqual(["+1"]);
    });

    it("should handle removed reactions", async () => {
      const h = await createChatHarness();
      const received: boolean[] = [];
      h.chat.onReaction("thumbs_up", (event) => {
        received.push(event.added);
      });

      await h.chat.processReaction(h.adapter, reaction({ added: false }));

      expect(received).toEqual([false]);
    });

    it("should match Teams-style reactions (EmojiValue with string filter)", async () => {
      const h = await createChatHarness();
      const received: ReactionHandlerEvent<Thread>[] = [];
      const byRaw: string[] = [];
      h.chat.onReaction(["thumbs_up", "heart", "fire", "rocket"], (event) => {
        received.push(event);
      });
      h.chat.onReaction("like", (event) => {
        byRaw.push(event.emoji.name);
      });
      // Teams sends "like"; its adapter normalizes it to the thumbs_up EmojiValue.
      const teamsEmoji = getEmoji("thumbs_up");

      await h.chat.processReaction(h.adapter, reaction({ emoji: teamsEmoji, rawEmoji: "like" }));

      expect(received).toHaveLength(1);
      expect(received[0]?.emoji).toBe(teamsEmoji);
      expect(byRaw).toEqual(["thumbs_up"]);
    });

    it("should match EmojiValue by object identity", async () => {
      const h = await createChatHarness();
      const thumbsUp = getEmoji("thumbs_up");
      const received: ReactionHandlerEvent<Thread>[] = [];
      h.chat.onReaction([thumbsUp], (event) => {
        received.push(event);
      });

      await h.chat.processReaction(h.adapter, reaction({ emoji: thumbsUp, rawEmoji: "like" }));
      await h.chat.processReaction(
        h.adapter,
        reaction({ emoji: getEmoji("heart"), rawEmoji: "heart" }),
      );

      expect(received).toHaveLength(1);
      expect(received[0]?.emoji).toBe(thumbsUp);
    });

    it("hands handlers the emoji's EmojiValue singleton when the adapter gave its name", async () => {
      const h = await createChatHarness();
      const received: ReactionHandlerEvent<Thread>[] = [];
      h.chat.onReaction(getEmoji("thumbs_up"), (event) => {
        received.push(event);
      });

      await h.chat.processReaction(h.adapter, reaction({ emoji: "thumbs_up", rawEmoji: "+1" }));

      expect(received[0]?.emoji).toBe(getEmoji("thumbs_up"));
      expect(`${received[0]?.emoji}`).toBe("{{emoji:thumbs_up}}");
    });

    it("should include thread property in ReactionEvent", async () => {
      const h = await createChatHarness();
      const received: ReactionHandlerEvent<Thread>[] = [];
      h.chat.onReaction((event) => {
        received.push(event);
      });

      await h.chat.processReaction(h.adapter, reaction());

      const thread = received[0]?.thread;
      expect(thread?.id).toBe(THREAD);
      expect(typeof thread?.post).toBe("function");
      expect(typeof thread?.isSubscribed).toBe("function");
      expect(received[0]?.adapter).toBe(h.adapter);
    });

    it("should allow posting from reaction thread", async () => {
      const h = await createChatHarness();
      h.chat.onReaction(async (event) => {
        await event.thread.post("Thanks for the reaction!");
      });

      await h.chat.processReaction(h.adapter, reaction());

      expect(h.adapter.postedTo(THREAD)).toEqual(["Thanks for the reaction!"]);
    });

    it("runs the other reaction handlers when one throws", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onReaction(() => {
        order.push("first");
        throw new Error("handler bug");
      });
      h.chat.onReaction("thumbs_up", () => {
        order.push("second");
      });

      await expect(h.chat.processReaction(h.adapter, reaction())).resolves.toBeUndefined();

      expect(order).toEqual(["first", "second"]);
    });
  });

  describe("Actions", () => {
    it("should call onAction handler for all actions", async () => {
      const h = await createChatHarness();
      const received: ActionHandlerEvent<Thread>[] = [];
      h.chat.onAction((event) => {
        received.push(event);
      });

      await h.chat.processAction(h.adapter, action());

      expect(received).toHaveLength(1);
      expect(received[0]?.actionId).toBe("approve");
      expect(received[0]?.value).toBe("order-123");
      expect(received[0]?.thread).toBeDefined();
    });

    it("should call onAction handler for specific action IDs", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onAction(["approve", "reject"], (event) => {
        received.push(event.actionId);
      });

      await h.chat.processAction(h.adapter, action());
      await h.chat.processAction(h.adapter, action({ actionId: "skip" }));

      expect(received).toEqual(["approve"]);
    });

    it("should call onAction handler for single action ID", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onAction("approve", (event) => {
        received.push(event.actionId);
      });

      await h.chat.processAction(h.adapter, action());
      await h.chat.processAction(h.adapter, action({ actionId: "approve-all" }));

      expect(received).toEqual(["approve"]);
    });

    it("should skip actions from self", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onAction((event) => {
        received.push(event.actionId);
      });

      await h.chat.processAction(h.adapter, action({ user: createTestAuthor(BOT_AUTHOR) }));

      expect(received).toEqual([]);
    });

    it("should include thread property in ActionEvent", async () => {
      const h = await createChatHarness();
      const received: ActionHandlerEvent<Thread>[] = [];
      h.chat.onAction((event) => {
        received.push(event);
      });

      await h.chat.processAction(h.adapter, action({ triggerId: "trigger-123" }));

      expect(received[0]?.thread?.id).toBe(THREAD);
      expect(typeof received[0]?.thread?.post).toBe("function");
      expect(received[0]?.triggerId).toBe("trigger-123");
      expect(received[0]?.adapter).toBe(h.adapter);
    });

    it("should allow posting from action thread", async () => {
      const h = await createChatHarness();
      h.chat.onAction(async (event) => {
        await event.thread?.post("Action received!");
      });

      await h.chat.processAction(h.adapter, action());

      expect(h.adapter.postedTo(THREAD)).toEqual(["Action received!"]);
    });

    it("runs specific and catch-all action handlers in registration order", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onAction(() => {
        order.push("catch-all");
      });
      h.chat.onAction("approve", () => {
        order.push("approve");
      });
      h.chat.onAction([], () => {
        order.push("empty filter");
      });

      await h.chat.processAction(h.adapter, action());

      expect(order).toEqual(["catch-all", "approve", "empty filter"]);
    });
  });

  describe("Slash Commands", () => {
    it("should call onSlashCommand handler for all commands", async () => {
      const h = await createChatHarness();
      const received: SlashCommandHandlerEvent<Channel>[] = [];
      h.chat.onSlashCommand((event) => {
        received.push(event);
      });

      await h.chat.processSlashCommand(
        h.adapter,
        slashCommand({ text: "topic", triggerId: "trigger-123" }),
      );

      expect(received).toHaveLength(1);
      expect(received[0]?.command).toBe("/help");
      expect(received[0]?.text).toBe("topic");
      expect(received[0]?.triggerId).toBe("trigger-123");
      expect(received[0]?.channel).toBeDefined();
    });

    it("should call onSlashCommand handler for specific command", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onSlashCommand("/help", () => {
        order.push("help");
      });
      h.chat.onSlashCommand("/status", () => {
        order.push("status");
      });

      await h.chat.processSlashCommand(h.adapter, slashCommand());

      expect(order).toEqual(["help"]);
    });

    it("should call onSlashCommand handler for multiple commands", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onSlashCommand(["/status", "/health"], (event) => {
        received.push(event.command);
      });

      await h.chat.processSlashCommand(h.adapter, slashCommand({ command: "/status" }));
      await h.chat.processSlashCommand(h.adapter, slashCommand({ command: "/health" }));
      await h.chat.processSlashCommand(h.adapter, slashCommand({ command: "/help" }));

      expect(received).toEqual(["/status", "/health"]);
    });

    it("should skip slash commands from self", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onSlashCommand((event) => {
        received.push(event.command);
      });

      await h.chat.processSlashCommand(
        h.adapter,
        slashCommand({ user: createTestAuthor(BOT_AUTHOR) }),
      );

      expect(received).toEqual([]);
    });

    it("should normalize command names without leading slash", async () => {
      const h = await createChatHarness();
      const received: string[] = [];
      h.chat.onSlashCommand("help", (event) => {
        received.push(event.command);
      });

      await h.chat.processSlashCommand(h.adapter, slashCommand());

      expect(received).toEqual(["/help"]);
    });

    it("should provide channel.post method", async () => {
      const h = await createChatHarness();
      const failures: unknown[] = [];
      const channels: string[] = [];
      h.chat.onSlashCommand(async (event) => {
        channels.push(event.channel.id);
        try {
          await event.channel.post("Hello from slash command!");
        } catch (error) {
          failures.push(error);
        }
      });

      await h.chat.processSlashCommand(h.adapter, slashCommand());

      expect(channels).toEqual([CHANNEL]);
      expect(failures).toEqual([]);
      expect(h.adapter.posts).toEqual([
        { threadId: CHANNEL, text: "Hello from slash command!", via: "postMessage" },
      ]);
    });

    it("should run both specific and catch-all handlers", async () => {
      const h = await createChatHarness();
      const order: string[] = [];
      h.chat.onSlashCommand("/help", () => {
        order.push("specific");
      });
      h.chat.onSlashCommand(() => {
        order.push("catch-all");
      });

      await h.chat.processSlashCommand(h.adapter, slashCommand());

      expect(order).toEqual(["specific", "catch-all"]);
    });
  });
});
