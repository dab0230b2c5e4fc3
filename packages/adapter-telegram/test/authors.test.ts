import type { Author, ReactionEvent, SlashCommandEvent } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { GROUP_CHAT } from "../src/testing/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness() {
  const h = await createTelegramHarness();
  harnesses.push(h);
  return h;
}

/** The placeholder user Telegram puts in `from` when a group admin writes anonymously. */
const GROUP_ANONYMOUS_BOT = {
  id: 1087968824,
  is_bot: true,
  first_name: "Group",
  username: "GroupAnonymousBot",
};
/** The placeholder user of a channel post Telegram forwards into the discussion group. */
const TELEGRAM_SERVICE_USER = { id: 777000, is_bot: false, first_name: "Telegram" };
const CHANNEL = { id: -1002233445566, type: "channel", title: "Release Notes", username: "notes" };

const GROUP_AS_AUTHOR: Author = {
  userId: String(GROUP_CHAT.id),
  userName: "Test Group",
  fullName: "Test Group",
  isBot: false,
  isMe: false,
};

describe("authors that are chats", () => {
  it("delivers a reaction by an anonymous admin with the chat as its author", async () => {
    const h = await harness();
    const reactions: ReactionEvent[] = [];
    h.chat.onReaction((event) => {
      reactions.push(event);
    });
    const response = await h.deliver({
      update_id: h.updates.nextUpdateId(),
      message_reaction: {
        chat: GROUP_CHAT,
        message_id: 310,
        actor_chat: GROUP_CHAT,
        date: 1_767_225_900,
        old_reaction: [],
        new_reaction: [{ type: "emoji", emoji: "👍" }],
      },
    });
    await h.settle();
    expect(response.status).toBe(200);
    expect(reactions).toHaveLength(1);
    expect(reactions[0]).toMatchObject({
      added: true,
      rawEmoji: "👍",
      messageId: `${GROUP_CHAT.id}:310`,
      threadId: `telegram:${GROUP_CHAT.id}`,
      user: GROUP_AS_AUTHOR,
    });
  });

  it("gives an anonymous admin's group message the group as its author, not GroupAnonymousBot", async () => {
    const h = await harness();
    const authors: Author[] = [];
    h.chat.onNewMessage(/deploy/, (_thread, message) => {
      authors.push(message.author);
    });
    await h.deliver(
      h.updates.message("deploy freeze starts at 18:00", {
        chat: GROUP_CHAT,
        from: GROUP_ANONYMOUS_BOT,
        extra: { sender_chat: GROUP_CHAT, author_signature: "Ops" },
      }),
    );
    expect(authors).toEqual([GROUP_AS_AUTHOR]);
  });

  it("runs an anonymous admin's command as the group", async () => {
    const h = await harness();
    const commands: SlashCommandEvent[] = [];
    h.chat.onSlashCommand((event) => {
      commands.push(event);
    });
    await h.deliver(
      h.updates.command("/status", "", {
        chat: GROUP_CHAT,
        from: GROUP_ANONYMOUS_BOT,
        addressedTo: h.fake.botUserName,
        extra: { sender_chat: GROUP_CHAT },
      }),
    );
    await h.settle();
    expect(commands.map((event) => [event.command, event.user])).toEqual([
      ["/status", GROUP_AS_AUTHOR],
    ]);
  });

  it("gives a channel post forwarded into its discussion group the channel as its author", async () => {
    const h = await harness();
    const authors: Author[] = [];
    h.chat.onNewMessage(/released/, (_thread, message) => {
      authors.push(message.author);
    });
    await h.deliver(
      h.updates.message("v2.4 released", {
        chat: GROUP_CHAT,
        from: TELEGRAM_SERVICE_USER,
        extra: {
          sender_chat: CHANNEL,
          is_automatic_forward: true,
          forward_origin: { type: "channel", chat: CHANNEL, message_id: 88, date: 1_767_225_000 },
        },
      }),
    );
    expect(authors).toEqual([
      {
        userId: String(CHANNEL.id),
        userName: "notes",
        fullName: "Release Notes",
        isBot: false,
        isMe: false,
      },
    ]);
  });
});
