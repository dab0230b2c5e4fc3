import type { ActionEvent, Logger, MemberJoinedChannelEvent } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BuiltChat,
  FORUM_CHAT,
  GROUP_CHAT,
  PRIVATE_CHAT,
  TEST_USER,
} from "../src/testing/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

const ADA = { id: 7001, is_bot: false, first_name: "Ada", username: "ada" };
const GRACE = { id: 7002, is_bot: false, first_name: "Grace", last_name: "Hopper" };
const CHANNEL = { id: -1002233445566, type: "channel", title: "Release Notes" };
const OLD_GROUP: BuiltChat = { id: -4012345678, type: "group", title: "Test Group" };

/**
 * A harness whose every message hook records what reaches it, with the thread subscribed, and
 * whose adapter logger keeps its debug lines.
 */
async function watching(threadId: string) {
  const debug: unknown[][] = [];
  const logger: Logger = {
    debug: (...line) => debug.push(line),
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  };
  const h = await createTelegramHarness({ logger });
  harnesses.push(h);
  const seen: string[] = [];
  h.chat.onSubscribedMessage((_t, m) => {
    seen.push(`subscribed:${m.text}`);
  });
  h.chat.onDirectMessage((_t, m) => {
    seen.push(`dm:${m.text}`);
  });
  h.chat.onNewMention((_t, m) => {
    seen.push(`mention:${m.text}`);
  });
  h.chat.onNewMessage(/.*/, (_t, m) => {
    seen.push(`message:${m.text}`);
  });
  await h.chat.thread(threadId).subscribe();
  return { h, seen, debug };
}

interface ServiceCase {
  readonly field: string;
  readonly value: unknown;
  readonly chat?: BuiltChat;
  readonly topicId?: number;
}

const IN_TOPIC = { chat: FORUM_CHAT, topicId: 42 };

/** One realistic service message of each kind, as the Bot API documents its fields. */
const SERVICE_MESSAGES: ServiceCase[] = [
  {
    field: "pinned_message",
    value: { message_id: 290, date: 1_767_225_000, chat: GROUP_CHAT, from: ADA, text: "Agenda" },
  },
  { field: "migrate_to_chat_id", value: GROUP_CHAT.id, chat: OLD_GROUP },
  { field: "migrate_from_chat_id", value: OLD_GROUP.id },
  { field: "video_chat_started", value: {} },
  { field: "video_chat_ended", value: { duration: 1260 } },
  { field: "video_chat_scheduled", value: { start_date: 1_767_312_000 } },
  { field: "video_chat_participants_invited", value: { users: [ADA, GRACE] } },
  {
    field: "forum_topic_created",
    value: { name: "Release 2.4", icon_color: 7322096 },
    ...IN_TOPIC,
  },
  { field: "forum_topic_edited", value: { name: "Release 2.4 (shipped)" }, ...IN_TOPIC },
  { field: "forum_topic_closed", value: {}, ...IN_TOPIC },
  { field: "forum_topic_reopened", value: {}, ...IN_TOPIC },
  { field: "general_forum_topic_hidden", value: {}, chat: FORUM_CHAT },
  { field: "general_forum_topic_unhidden", value: {}, chat: FORUM_CHAT },
  { field: "new_chat_title", value: "Test Group (archive)" },
  {
    field: "new_chat_photo",
    value: [
      { file_id: "AgACAgQAAxkBAAIB", file_unique_id: "AQADs", width: 160, height: 160 },
      { file_id: "AgACAgQAAxkBAAIC", file_unique_id: "AQADt", width: 640, height: 640 },
    ],
  },
  { field: "delete_chat_photo", value: true },
  { field: "group_chat_created", value: true, chat: OLD_GROUP },
  { field: "supergroup_chat_created", value: true },
  { field: "message_auto_delete_timer_changed", value: { message_auto_delete_time: 86_400 } },
  { field: "boost_added", value: { boost_count: 2 } },
  {
    field: "chat_background_set",
    value: {
      type: { type: "fill", fill: { type: "solid", color: 16777215 }, dark_theme_dimming: 0 },
    },
  },
  { field: "giveaway_created", value: { prize_star_count: 500 } },
  {
    field: "giveaway",
    value: { chats: [CHANNEL], winners_selection_date: 1_767_830_400, winner_count: 3 },
  },
  { field: "giveaway_completed", value: { winner_count: 3, unclaimed_prize_count: 0 } },
  {
    field: "giveaway_winners",
    value: {
      chat: CHANNEL,
      giveaway_message_id: 55,
      winners_selection_date: 1_767_830_400,
      winner_count: 2,
      winners: [ADA, GRACE],
    },
  },
  { field: "story", value: { chat: CHANNEL, id: 17 }, chat: PRIVATE_CHAT },
  { field: "write_access_allowed", value: { from_request: true }, chat: PRIVATE_CHAT },
  { field: "proximity_alert_triggered", value: { traveler: ADA, watcher: GRACE, distance: 120 } },
  { field: "connected_website", value: "shop.example.com", chat: PRIVATE_CHAT },
  {
    field: "passport_data",
    value: {
      data: [{ type: "email", email: "ada@example.com", hash: "bWV0YQ==" }],
      credentials: { data: "ZW5j", hash: "aGFzaA==", secret: "c2VjcmV0" },
    },
    chat: PRIVATE_CHAT,
  },
  { field: "left_chat_member", value: GRACE },
];

function threadOf(service: ServiceCase): string {
  const chat = service.chat ?? GROUP_CHAT;
  return service.topicId === undefined
    ? `telegram:${chat.id}`
    : `telegram:${chat.id}:${service.topicId}`;
}

describe("service messages", () => {
  it.each(SERVICE_MESSAGES)(
    "acknowledges a $field service message and runs no message handler",
    async (service) => {
      const { h, seen, debug } = await watching(threadOf(service));
      const update = h.updates.serviceMessage(
        { [service.field]: service.value },
        { chat: service.chat ?? GROUP_CHAT, topicId: service.topicId, from: ADA },
      );
      const response = await h.deliver(update);
      await h.settle();
      expect(response.status).toBe(200);
      expect(seen).toEqual([]);
      expect(debug).toContainEqual([
        "telegram: service message ignored",
        { updateId: update.update_id, reason: service.field },
      ]);
      const history: unknown[] = [];
      for await (const message of h.chat.thread(threadOf(service)).allMessages)
        history.push(message);
      expect(history).toEqual([]);
    },
  );

  it("ignores a service message newer than the adapter, which has nothing to read", async () => {
    const { h, seen, debug } = await watching(`telegram:${GROUP_CHAT.id}`);
    const update = h.updates.serviceMessage(
      { checklist_tasks_done: { checklist_message_id: 280, marked_as_done_task_ids: [1, 3] } },
      { chat: GROUP_CHAT },
    );
    expect((await h.deliver(update)).status).toBe(200);
    expect(seen).toEqual([]);
    expect(debug).toContainEqual([
      "telegram: service message ignored",
      { updateId: update.update_id, reason: "no content" },
    ]);
  });

  it("tells new members to onMemberJoinedChannel, one event each, and runs no message handler", async () => {
    const { h, seen } = await watching(`telegram:${GROUP_CHAT.id}`);
    const joined: MemberJoinedChannelEvent[] = [];
    h.chat.onMemberJoinedChannel((event) => {
      joined.push(event);
    });
    // Ada adds Grace and a bot; then someone joins by an invite link (`from` is the newcomer).
    const bot = { id: 5550001, is_bot: true, first_name: "Helper", username: "helper_bot" };
    await h.deliver(
      h.updates.serviceMessage(
        { new_chat_members: [GRACE, bot], new_chat_member: GRACE, new_chat_participant: GRACE },
        { chat: GROUP_CHAT, from: ADA },
      ),
    );
    await h.deliver(
      h.updates.serviceMessage(
        { new_chat_members: [TEST_USER], new_chat_member: TEST_USER },
        { chat: GROUP_CHAT, from: TEST_USER },
      ),
    );
    await h.settle();
    expect(seen).toEqual([]);
    const channelId = `telegram:${GROUP_CHAT.id}`;
    expect(
      joined.map(({ channelId, userId, inviterId }) => ({ channelId, userId, inviterId })),
    ).toEqual([
      { channelId, userId: "7002", inviterId: "7001" },
      { channelId, userId: "5550001", inviterId: "7001" },
      { channelId, userId: String(TEST_USER.id), inviterId: undefined },
    ]);
  });
});

describe("answers to reply-keyboard buttons", () => {
  it("runs a Web App's data as a web_app_data action, not a message", async () => {
    const { h, seen } = await watching("telegram:7527593");
    const actions: ActionEvent[] = [];
    h.chat.onAction("web_app_data", (event) => {
      actions.push(event);
    });
    const update = h.updates.serviceMessage({
      web_app_data: { data: '{"size":"L","color":"teal"}', button_text: "Choose a size" },
    });
    await h.deliver(update);
    await h.settle();
    expect(seen).toEqual([]);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      actionId: "web_app_data",
      value: '{"size":"L","color":"teal"}',
      user: { userId: String(TEST_USER.id), userName: "test_user" },
      messageId: `7527593:${update.message.message_id}`,
      threadId: "telegram:7527593",
    });
  });

  it("runs picked users and a picked chat as users_shared and chat_shared actions", async () => {
    const { h, seen } = await watching("telegram:7527593");
    const actions: string[] = [];
    h.chat.onAction((event) => {
      actions.push(`${event.actionId}=${event.value}`);
    });
    await h.deliver(
      h.updates.serviceMessage({
        users_shared: { request_id: 1, users: [{ user_id: 7001 }, { user_id: 7002 }] },
      }),
    );
    await h.deliver(
      h.updates.serviceMessage({
        chat_shared: { request_id: 2, chat_id: GROUP_CHAT.id, title: "Test Group" },
      }),
    );
    await h.settle();
    expect(seen).toEqual([]);
    expect(actions).toEqual(["users_shared=7001,7002", `chat_shared=${GROUP_CHAT.id}`]);
  });
});
