import type { TelegramMessage, TelegramUser } from "./parse.js";

/**
 * Fields that make a message a service message: Telegram telling the chat that something
 * happened (a pin, a title change, a topic opened, a migration to a supergroup, a video chat, a
 * giveaway, a boost…), or content a bot cannot read (a forwarded story is only its chat and id;
 * Passport data is encrypted for the bot's own key). They carry no text and are not something a
 * person said, so no message handler runs for them.
 */
export const TELEGRAM_IGNORED_SERVICE_FIELDS = [
  "pinned_message",
  "migrate_to_chat_id",
  "migrate_from_chat_id",
  "video_chat_started",
  "video_chat_ended",
  "video_chat_scheduled",
  "video_chat_participants_invited",
  "voice_chat_started",
  "voice_chat_ended",
  "voice_chat_scheduled",
  "voice_chat_participants_invited",
  "forum_topic_created",
  "forum_topic_edited",
  "forum_topic_closed",
  "forum_topic_reopened",
  "general_forum_topic_hidden",
  "general_forum_topic_unhidden",
  "new_chat_title",
  "new_chat_photo",
  "delete_chat_photo",
  "group_chat_created",
  "supergroup_chat_created",
  "channel_chat_created",
  "message_auto_delete_timer_changed",
  "left_chat_member",
  "boost_added",
  "chat_background_set",
  "giveaway",
  "giveaway_created",
  "giveaway_completed",
  "giveaway_winners",
  "story",
  "write_access_allowed",
  "proximity_alert_triggered",
  "connected_website",
  "passport_data",
  "successful_payment",
  "refunded_payment",
  "gift",
  "unique_gift",
] as const;

/**
 * Answers to a reply-keyboard button the bot showed: the data a Web App sent back
 * (`web_app_data`), the users or chat a person picked (`users_shared`, `chat_shared`). They are
 * input, but not text: each becomes an action whose `actionId` is the field's name.
 */
export const TELEGRAM_ACTION_FIELDS = ["web_app_data", "users_shared", "chat_shared"] as const;

/** What a message is, which decides where it goes. */
export type TelegramMessageRoute =
  /** Something a person sent: a message handler's. */
  | { readonly kind: "content" }
  /** New members (`new_chat_members`): the Chat's member-joined handlers, one event each. */
  | { readonly kind: "members-joined"; readonly members: readonly TelegramUser[] }
  /** An answer to a reply-keyboard button: an action. */
  | { readonly kind: "action"; readonly actionId: string; readonly value: string }
  /** A service message, or one with nothing a handler could read: acknowledged, not dispatched. */
  | { readonly kind: "ignored"; readonly reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value of a reply-keyboard answer: the Web App's data, the picked ids (comma-separated). */
function actionValue(field: string, payload: unknown): string | undefined {
  if (!isObject(payload)) return undefined;
  if (field === "web_app_data") {
    return typeof payload.data === "string" ? payload.data : undefined;
  }
  if (field === "chat_shared") {
    return Number.isSafeInteger(payload.chat_id) ? String(payload.chat_id) : undefined;
  }
  // users_shared: `users` since Bot API 7.2, `user_ids` before.
  const users = Array.isArray(payload.users)
    ? payload.users.map((user: unknown) => (isObject(user) ? user.user_id : undefined))
    : payload.user_ids;
  if (!Array.isArray(users) || !users.every((id) => Number.isSafeInteger(id))) return undefined;
  return users.join(",");
}

/**
 * Where a message goes. `hasContent` says whether it has text, a caption, an attachment or
 * shared content (location, contact…): a message with none of these and no known service field
 * (a kind of service message newer than this adapter) has nothing to read and is ignored too.
 */
export function routeOfTelegramMessage(
  message: TelegramMessage,
  hasContent: boolean,
): TelegramMessageRoute {
  const fields = message as unknown as Record<string, unknown>;
  const members = fields.new_chat_members;
  if (Array.isArray(members)) {
    const users = members.filter(
      (member): member is TelegramUser => isObject(member) && Number.isSafeInteger(member.id),
    );
    return { kind: "members-joined", members: users };
  }
  for (const field of TELEGRAM_IGNORED_SERVICE_FIELDS) {
    if (fields[field] !== undefined) return { kind: "ignored", reason: field };
  }
  for (const field of TELEGRAM_ACTION_FIELDS) {
    if (fields[field] === undefined) continue;
    const value = actionValue(field, fields[field]);
    return value === undefined
      ? { kind: "ignored", reason: `malformed ${field}` }
      : { kind: "action", actionId: field, value };
  }
  return hasContent ? { kind: "content" } : { kind: "ignored", reason: "no content" };
}
