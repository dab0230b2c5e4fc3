import { readFileSync } from "node:fs";
import { type StateAdapter, StateError } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { afterEach, describe, expect, it } from "vitest";
import { FORUM_CHAT, GROUP_CHAT, startFakeTelegram } from "../src/testing/index.js";
import { createTelegramHarness, SECRET, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness(...args: Parameters<typeof createTelegramHarness>) {
  const h = await createTelegramHarness(...args);
  harnesses.push(h);
  return h;
}

/** A harness whose handlers record every dispatch as `kind:text`. */
async function recording(...args: Parameters<typeof createTelegramHarness>) {
  const h = await harness(...args);
  const seen: string[] = [];
  h.chat.onDirectMessage((_t, m) => {
    seen.push(`dm:${m.text}`);
  });
  h.chat.onNewMention((t, m) => {
    seen.push(`mention:${t.id}:${m.text}`);
  });
  h.chat.onNewMessage(/.*/, (t, m) => {
    seen.push(`message:${t.id}:${m.text}`);
  });
  h.chat.onSlashCommand((event) => {
    seen.push(`command:${event.command}:${event.text}`);
  });
  return { h, seen };
}

/** A State whose `setIfNotExists` fails, as an unreachable backend's would. */
function failingClaims(state: StateAdapter): StateAdapter {
  return new Proxy(state, {
    get(target, property, receiver) {
      if (property === "setIfNotExists") {
        return async () => {
          throw new StateError("unavailable", "the state is unreachable");
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("TelegramAdapter", () => {
  it("handles webhook message updates and marks mentions", async () => {
    const h = await harness();
    const mentions: boolean[] = [];
    h.chat.onNewMention((_t, m) => {
      mentions.push(m.isMention === true);
    });
    const response = await h.deliver(h.updates.mention("hello", { chat: GROUP_CHAT }));
    expect(response.status).toBe(200);
    expect(mentions).toEqual([true]);
  });

  it("deduplicates sequential and concurrent webhook updates", async () => {
    const { h, seen } = await recording();
    const update = h.updates.message("once");
    await h.deliver(update);
    await h.deliver(update);
    const again = h.updates.message("twice at once");
    await Promise.all([h.deliver(again), h.deliver(again), h.deliver(again)]);
    expect(seen).toEqual(["dm:once", "dm:twice at once"]);
  });

  it("dispatches distinct and missing webhook update IDs", async () => {
    const { h, seen } = await recording();
    await h.deliver(h.updates.message("first"));
    await h.deliver(h.updates.message("second"));
    const { update_id: _dropped, ...withoutId } = h.updates.message("no id");
    await h.deliver(withoutId);
    expect(seen).toEqual(["dm:first", "dm:second", "dm:no id"]);
  });

  it("does not let unverified updates claim IDs", async () => {
    const { h, seen } = await recording();
    const update = h.updates.message("real");
    expect((await h.deliver(update, "forged")).status).toBe(401);
    expect((await h.deliver(update)).status).toBe(200);
    expect(seen).toEqual(["dm:real"]);
  });

  it("scopes webhook update claims by bot identity", async () => {
    const state = createMemoryState();
    const first = await recording({}, {}, { state });
    const otherFake = await startFakeTelegram();
    const second = await recording({}, {}, { state, fake: otherFake });
    harnesses.push({ close: () => otherFake.close() } as never);
    // Two bots receive updates with the same update_id (each bot counts its own).
    const update = first.h.updates.message("same id");
    const other = second.h.updates.message("same id", { messageId: 999 });
    await first.h.deliver(update);
    await second.h.deliver({ ...other, update_id: update.update_id });
    expect(first.seen).toEqual(["dm:same id"]);
    expect(second.seen).toEqual(["dm:same id"]);
  });

  it("returns 503 without dispatch when the deduplication state fails", async () => {
    const { h, seen } = await recording({}, {}, { state: failingClaims(createMemoryState()) });
    const response = await h.deliver(h.updates.message("lost?"));
    expect(response.status).toBe(503);
    expect(seen).toEqual([]);
  });

  it("rejects disallowed and identityless updates before dispatch", async () => {
    const { h, seen } = await recording({ allowedUserIds: [7527593] });
    const stranger = { id: 42, is_bot: false, first_name: "Stranger" };
    await h.deliver(
      h.updates.message("not allowed", { from: stranger, chat: { id: 42, type: "private" } }),
    );
    await h.deliver(h.updates.channelPost("no user at all"));
    await h.deliver(h.updates.message("allowed"));
    expect(seen).toEqual(["dm:allowed"]);
    // Nothing was claimed for the refused updates, so no State key names them.
    expect(h.fake.calls("sendChatAction")).toHaveLength(1);
  });

  it("starts typing before processing private message updates", async () => {
    const h = await harness();
    h.chat.onDirectMessage(async (thread) => {
      await thread.post("reply");
    });
    await h.deliver(h.updates.message("hi"));
    expect(h.fake.requests.map((r) => r.method)).toEqual(["sendChatAction", "sendMessage"]);
    expect(h.fake.calls("sendChatAction")[0]?.params).toMatchObject({
      chat_id: "7527593",
      action: "typing",
    });
  });

  it("does not mark a mention when a hyphen-suffixed name is mentioned", async () => {
    const { h, seen } = await recording();
    const text = `@${h.fake.botUserName}-other hello`;
    const handle = `@${h.fake.botUserName}-other`.length;
    await h.deliver(
      h.updates.message(text, {
        chat: GROUP_CHAT,
        entities: [{ type: "mention", offset: 0, length: handle }],
      }),
    );
    expect(seen).toEqual([`message:telegram:${GROUP_CHAT.id}:${text}`]);
  });

  it("routes bot command messages to slash command handlers", async () => {
    const { h, seen } = await recording();
    await h.deliver(
      h.updates.command("/start", "now", { chat: GROUP_CHAT, addressedTo: h.fake.botUserName }),
    );
    await h.settle();
    expect(seen).toEqual(["command:/start:now"]);
  });

  it("starts typing before processing private slash command updates", async () => {
    const h = await harness();
    h.chat.onSlashCommand(async (event) => {
      await event.channel.post("ok");
    });
    await h.deliver(h.updates.command("/help"));
    await h.settle();
    expect(h.fake.requests.map((r) => r.method)).toEqual(["sendChatAction", "sendMessage"]);
  });

  it("routes bot command captions to slash command handlers", async () => {
    const { h, seen } = await recording();
    const update = h.updates.message("", {
      extra: {
        text: undefined,
        caption: "/resize 50%",
        caption_entities: [{ type: "bot_command", offset: 0, length: 7 }],
        photo: [{ file_id: "p1", file_unique_id: "u1", width: 10, height: 10 }],
      },
    });
    await h.deliver(update);
    await h.settle();
    expect(seen).toEqual(["command:/resize:50%"]);
  });

  it("ignores bot commands addressed to another bot", async () => {
    const { h, seen } = await recording();
    await h.deliver(
      h.updates.command("/start", "", { chat: GROUP_CHAT, addressedTo: "other_bot" }),
    );
    await h.settle();
    expect(seen).toEqual([`message:telegram:${GROUP_CHAT.id}:/start@other_bot`]);
  });

  it("only treats leading bot command entities as slash commands", async () => {
    const { h, seen } = await recording();
    await h.deliver(
      h.updates.message("please run /start", {
        chat: GROUP_CHAT,
        entities: [{ type: "bot_command", offset: 11, length: 6 }],
      }),
    );
    await h.settle();
    expect(seen).toEqual([`message:telegram:${GROUP_CHAT.id}:please run /start`]);
  });

  it("rejects webhook requests with invalid secret token", async () => {
    const { h, seen } = await recording();
    expect((await h.deliver(h.updates.message("x"), "wrong")).status).toBe(401);
    expect((await h.deliver(h.updates.message("y"), null)).status).toBe(401);
    expect((await h.deliver(h.updates.message("z"), SECRET.toUpperCase())).status).toBe(401);
    expect(seen).toEqual([]);
    expect(h.fake.requests).toEqual([]);
  });

  it("returns 400 for invalid webhook JSON", async () => {
    const h = await harness();
    const response = await h.webhook(
      new Request("https://bot.example.com/api/telegram", {
        method: "POST",
        headers: { "x-telegram-bot-api-secret-token": SECRET },
        body: "{not json",
      }),
    );
    expect(response.status).toBe(400);
  });

  it("processes edited_message webhook updates", async () => {
    const h = await harness();
    const edits: string[] = [];
    h.chat.onMessageUpdated?.((_t, m) => {
      edits.push(`${m.text}:${m.metadata.edited}`);
    });
    const original = h.updates.messageObject("before");
    await h.deliver(h.updates.edited(original, "after"));
    await h.settle();
    expect(edits).toEqual(["after:true"]);
  });

  it("processes channel_post webhook updates", async () => {
    const { h, seen } = await recording();
    await h.deliver(h.updates.channelPost("news of the day"));
    expect(seen).toEqual(["message:telegram:-1005555555555:news of the day"]);
  });

  it("parses replied-to message context", async () => {
    const h = await harness();
    const replies: (string | undefined)[] = [];
    h.chat.onNewMention((_t, m) => {
      replies.push(m.replyTo?.text);
    });
    const botMessage = h.updates.messageObject("I am the bot", {
      chat: GROUP_CHAT,
      from: { id: h.fake.botId, is_bot: true, first_name: "Bot", username: h.fake.botUserName },
    });
    await h.deliver(h.updates.message("answering you", { chat: GROUP_CHAT, replyTo: botMessage }));
    expect(replies).toEqual(["I am the bot"]);
  });

  it("decodes structured callback payloads into action id and value", async () => {
    const h = await harness();
    const actions: string[] = [];
    h.chat.onAction((event) => {
      actions.push(`${event.actionId}=${event.value}@${event.threadId}`);
    });
    const message = h.updates.messageObject("pick", { chat: GROUP_CHAT });
    await h.deliver(h.updates.callbackQuery('chat:{"a":"approve","v":"req-1"}', message));
    await h.settle();
    expect(actions).toEqual([`approve=req-1@telegram:${GROUP_CHAT.id}`]);
    expect(h.fake.calls("answerCallbackQuery")).toHaveLength(1);
  });

  it("falls back to raw callback data for non-encoded callback payloads", async () => {
    const h = await harness();
    const actions: string[] = [];
    h.chat.onAction((event) => {
      actions.push(`${event.actionId}=${event.value}`);
    });
    await h.deliver(h.updates.callbackQuery("legacy", h.updates.messageObject("pick")));
    await h.settle();
    expect(actions).toEqual(["legacy=legacy"]);
  });

  it("processes Telegram reaction updates for added and removed emoji", async () => {
    const h = await harness();
    const reactions: string[] = [];
    h.chat.onReaction((event) => {
      reactions.push(`${event.added ? "+" : "-"}${event.emoji.name}:${event.messageId}`);
    });
    await h.deliver(h.updates.reaction(5, ["👍"], ["🔥"]));
    await h.settle();
    expect(reactions.sort()).toEqual(["+fire:7527593:5", "-thumbs_up:7527593:5"]);
  });

  it("isDM returns false for forum topic thread IDs", async () => {
    const h = await harness();
    expect(h.adapter.isDM("telegram:7527593")).toBe(true);
    expect(h.adapter.isDM(`telegram:${GROUP_CHAT.id}`)).toBe(false);
    expect(h.adapter.isDM(`telegram:${FORUM_CHAT.id}:42`)).toBe(false);
  });
});

describe("forum topics, membership and replays", () => {
  it("gives each forum topic its own thread", async () => {
    const { h, seen } = await recording();
    await h.deliver(h.updates.mention("in topic", { chat: FORUM_CHAT, topicId: 7 }));
    await h.deliver(h.updates.mention("in general", { chat: FORUM_CHAT }));
    expect(seen).toEqual([
      `mention:telegram:${FORUM_CHAT.id}:7:@${h.fake.botUserName} in topic`,
      `mention:telegram:${FORUM_CHAT.id}:@${h.fake.botUserName} in general`,
    ]);
  });

  it("treats a text_mention of the bot and a reply to the bot as mentions", async () => {
    const { h, seen } = await recording();
    const bot = { id: h.fake.botId, is_bot: true, first_name: "Bot" };
    await h.deliver(
      h.updates.message("Bot look", {
        chat: GROUP_CHAT,
        entities: [{ type: "text_mention", offset: 0, length: 3, user: bot }],
      }),
    );
    expect(seen).toEqual([`mention:telegram:${GROUP_CHAT.id}:Bot look`]);
  });

  it("tells my_chat_member changes to the adapter's handlers", async () => {
    const h = await harness();
    const changes: string[] = [];
    h.adapter.onChatMemberUpdate((event) => {
      changes.push(`${event.threadId}:${event.oldStatus}->${event.newStatus}`);
    });
    await h.deliver(h.updates.myChatMember(GROUP_CHAT, "left", "member", h.fake.botId));
    await h.settle();
    expect(changes).toEqual([`telegram:${GROUP_CHAT.id}:left->member`]);
  });

  it("replays the recorded private-chat mention and follow-up", async () => {
    const recorded = JSON.parse(
      readFileSync(
        new URL("../../../../shared/fixtures/replay/telegram.json", import.meta.url),
        "utf8",
      ),
    );
    const fake = await startFakeTelegram({
      token: `${recorded.botUserId}:recorded`,
      botUserName: recorded.botName,
    });
    const h = await harness({ userName: recorded.botName }, {}, { fake });
    harnesses.push({ close: () => fake.close() } as never);
    const seen: string[] = [];
    h.chat.onDirectMessage(async (thread, message) => {
      seen.push(
        `${thread.id}|${message.id}|${message.text}|${message.isMention}|${message.author.userName}`,
      );
      await thread.post(`got ${message.text}`);
    });
    await h.deliver(recorded.mention);
    await h.deliver(recorded.followUp);
    await h.deliver(recorded.followUp);
    expect(seen).toEqual([
      "telegram:7527593|7527593:133|@vercelchatsdkbot hi|true|telegram_test_user",
      "telegram:7527593|7527593:134|how are you|true|telegram_test_user",
    ]);
    expect(fake.sentTo(7527593).map((m) => m.text)).toEqual([
      "got @vercelchatsdkbot hi",
      "got how are you",
    ]);
  });
});
