/** A Telegram user, as updates carry it. */
export interface TelegramUser {
  readonly id: number;
  readonly is_bot: boolean;
  readonly first_name: string;
  readonly last_name?: string;
  readonly username?: string;
}

/** A Telegram chat. */
export interface TelegramChat {
  readonly id: number;
  readonly type: "private" | "group" | "supergroup" | "channel";
  readonly title?: string;
  readonly username?: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly is_forum?: boolean;
}

/** A formatting or mention entity of a message's text (offsets in UTF-16 code units). */
export interface TelegramMessageEntity {
  readonly type: string;
  readonly offset: number;
  readonly length: number;
  readonly url?: string;
  readonly user?: TelegramUser;
  readonly language?: string;
}

/** A file Telegram stores: its id (for `getFile`) and what Telegram says about it. */
export interface TelegramFileRef {
  readonly file_id: string;
  readonly file_unique_id?: string;
  readonly file_size?: number;
  readonly file_name?: string;
  readonly mime_type?: string;
  readonly width?: number;
  readonly height?: number;
  readonly duration?: number;
}

/** A point on the map; `live_period` (seconds) makes it a live location that edits follow. */
export interface TelegramLocation {
  readonly latitude: number;
  readonly longitude: number;
  readonly horizontal_accuracy?: number;
  readonly live_period?: number;
  readonly heading?: number;
  readonly proximity_alert_radius?: number;
}

/** A place: a location with a name and an address. */
export interface TelegramVenue {
  readonly location: TelegramLocation;
  readonly title: string;
  readonly address: string;
  readonly foursquare_id?: string;
  readonly google_place_id?: string;
}

/** A phone contact shared in a chat. */
export interface TelegramContact {
  readonly phone_number: string;
  readonly first_name: string;
  readonly last_name?: string;
  readonly user_id?: number;
  readonly vcard?: string;
}

/** An animated emoji with a random value (🎲 1–6, 🎯, 🏀, 🎰 …). */
export interface TelegramDice {
  readonly emoji: string;
  readonly value: number;
}

/** A poll or quiz posted in a chat. */
export interface TelegramPoll {
  readonly id: string;
  readonly question: string;
  readonly options: readonly { readonly text: string; readonly voter_count?: number }[];
  readonly type?: "regular" | "quiz";
  readonly total_voter_count?: number;
  readonly is_anonymous?: boolean;
  readonly allows_multiple_answers?: boolean;
}

/** A message (also an edited message or a channel post). */
export interface TelegramMessage {
  readonly message_id: number;
  readonly message_thread_id?: number;
  readonly is_topic_message?: boolean;
  readonly from?: TelegramUser;
  /** The chat a message was sent on behalf of; `from` is then a placeholder user. */
  readonly sender_chat?: TelegramChat;
  /** A channel post Telegram forwarded into the channel's discussion group. */
  readonly is_automatic_forward?: boolean;
  readonly chat: TelegramChat;
  readonly date: number;
  readonly edit_date?: number;
  readonly text?: string;
  readonly caption?: string;
  readonly entities?: readonly TelegramMessageEntity[];
  readonly caption_entities?: readonly TelegramMessageEntity[];
  readonly reply_to_message?: TelegramMessage;
  readonly photo?: readonly TelegramFileRef[];
  readonly document?: TelegramFileRef;
  readonly audio?: TelegramFileRef;
  readonly voice?: TelegramFileRef;
  readonly video?: TelegramFileRef;
  readonly video_note?: TelegramFileRef;
  readonly animation?: TelegramFileRef;
  readonly sticker?: TelegramFileRef;
  readonly media_group_id?: string;
  readonly location?: TelegramLocation;
  /** A venue's message carries its `location` too (the Bot API sets both). */
  readonly venue?: TelegramVenue;
  readonly contact?: TelegramContact;
  readonly dice?: TelegramDice;
  readonly poll?: TelegramPoll;
}

/** A tap on an inline keyboard button. */
export interface TelegramCallbackQuery {
  readonly id: string;
  readonly from: TelegramUser;
  readonly message?: TelegramMessage;
  readonly data?: string;
  readonly chat_instance?: string;
}

/** One reaction: a standard emoji or a custom one. */
export type TelegramReaction =
  | { readonly type: "emoji"; readonly emoji: string }
  | { readonly type: "custom_emoji"; readonly custom_emoji_id: string }
  | { readonly type: "paid" };

/** A user changed their reactions to a message (`message_reaction`). */
export interface TelegramMessageReactionUpdated {
  readonly chat: TelegramChat;
  readonly message_id: number;
  readonly user?: TelegramUser;
  readonly actor_chat?: TelegramChat;
  readonly date: number;
  readonly old_reaction: readonly TelegramReaction[];
  readonly new_reaction: readonly TelegramReaction[];
}

/** The bot's own membership in a chat changed (`my_chat_member`). */
export interface TelegramChatMemberUpdated {
  readonly chat: TelegramChat;
  readonly from: TelegramUser;
  readonly date: number;
  readonly old_chat_member: { readonly status: string; readonly user: TelegramUser };
  readonly new_chat_member: { readonly status: string; readonly user: TelegramUser };
}

/** One update, as a webhook body or a `getUpdates` item. */
export interface TelegramUpdate {
  /** Absent only in hand-made payloads; such an update is not claimed (it cannot be deduped). */
  readonly update_id: number;
  readonly message?: TelegramMessage;
  readonly edited_message?: TelegramMessage;
  readonly channel_post?: TelegramMessage;
  readonly edited_channel_post?: TelegramMessage;
  readonly callback_query?: TelegramCallbackQuery;
  readonly message_reaction?: TelegramMessageReactionUpdated;
  readonly my_chat_member?: TelegramChatMemberUpdated;
}

/** Why a body is not a Telegram update; answered 400. */
export class TelegramWebhookParseError extends Error {
  override readonly name = "TelegramWebhookParseError";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkMessage(value: unknown, field: string): void {
  if (value === undefined) return;
  if (!isObject(value)) throw new TelegramWebhookParseError(`${field} must be an object`);
  if (!Number.isSafeInteger(value.message_id)) {
    throw new TelegramWebhookParseError(`${field}.message_id must be an integer`);
  }
  const chat = value.chat;
  if (!isObject(chat) || !Number.isSafeInteger(chat.id) || typeof chat.type !== "string") {
    throw new TelegramWebhookParseError(`${field}.chat must have an integer id and a type`);
  }
  for (const name of ["text", "caption"]) {
    if (value[name] !== undefined && typeof value[name] !== "string") {
      throw new TelegramWebhookParseError(`${field}.${name} must be a string`);
    }
  }
  for (const name of ["entities", "caption_entities"]) {
    const entities = value[name];
    if (entities === undefined) continue;
    if (
      !Array.isArray(entities) ||
      !entities.every(
        (entity) =>
          isObject(entity) &&
          typeof entity.type === "string" &&
          Number.isSafeInteger(entity.offset) &&
          Number.isSafeInteger(entity.length),
      )
    ) {
      throw new TelegramWebhookParseError(`${field}.${name} must be a list of entities`);
    }
  }
  if (value.from !== undefined && (!isObject(value.from) || !Number.isSafeInteger(value.from.id))) {
    throw new TelegramWebhookParseError(`${field}.from must have an integer id`);
  }
  checkSharedContent(value, field);
  // The replied-to message is read as a message too (`message.replyTo`).
  checkMessage(value.reply_to_message, `${field}.reply_to_message`);
}

function isLocation(value: unknown): boolean {
  return isObject(value) && Number.isFinite(value.latitude) && Number.isFinite(value.longitude);
}

/** Locations, venues, contacts, dice and polls: the fields their text and attachment are made of. */
function checkSharedContent(value: Record<string, unknown>, field: string): void {
  const { location, venue, contact, dice, poll } = value;
  if (location !== undefined && !isLocation(location)) {
    throw new TelegramWebhookParseError(`${field}.location must have a latitude and a longitude`);
  }
  if (
    venue !== undefined &&
    (!isObject(venue) ||
      !isLocation(venue.location) ||
      typeof venue.title !== "string" ||
      typeof venue.address !== "string")
  ) {
    throw new TelegramWebhookParseError(
      `${field}.venue must have a location, a title and an address`,
    );
  }
  if (
    contact !== undefined &&
    (!isObject(contact) ||
      typeof contact.phone_number !== "string" ||
      typeof contact.first_name !== "string")
  ) {
    throw new TelegramWebhookParseError(`${field}.contact must have a phone number and a name`);
  }
  if (
    dice !== undefined &&
    (!isObject(dice) || typeof dice.emoji !== "string" || !Number.isSafeInteger(dice.value))
  ) {
    throw new TelegramWebhookParseError(`${field}.dice must have an emoji and an integer value`);
  }
  if (
    poll !== undefined &&
    (!isObject(poll) ||
      typeof poll.question !== "string" ||
      !Array.isArray(poll.options) ||
      !poll.options.every((option) => isObject(option) && typeof option.text === "string"))
  ) {
    throw new TelegramWebhookParseError(`${field}.poll must have a question and options`);
  }
}

/**
 * Checks that a parsed JSON value is an update with the fields the adapter reads, typed as
 * Telegram documents them; throws {@link TelegramWebhookParseError} otherwise. Update kinds the
 * adapter does not handle pass through unchecked (they are acknowledged and ignored).
 */
export function toTelegramUpdate(value: unknown): TelegramUpdate {
  if (!isObject(value)) throw new TelegramWebhookParseError("an update must be a JSON object");
  if (value.update_id !== undefined && !Number.isSafeInteger(value.update_id)) {
    throw new TelegramWebhookParseError("update_id must be an integer");
  }
  for (const field of ["message", "edited_message", "channel_post", "edited_channel_post"]) {
    checkMessage(value[field], field);
  }
  const query = value.callback_query;
  if (query !== undefined) {
    if (!isObject(query) || typeof query.id !== "string" || !isObject(query.from)) {
      throw new TelegramWebhookParseError("callback_query must have an id and a from");
    }
    checkMessage(query.message, "callback_query.message");
  }
  const reaction = value.message_reaction;
  if (reaction !== undefined) {
    if (
      !isObject(reaction) ||
      !isObject(reaction.chat) ||
      !Number.isSafeInteger(reaction.message_id) ||
      !Array.isArray(reaction.new_reaction) ||
      !Array.isArray(reaction.old_reaction)
    ) {
      throw new TelegramWebhookParseError("message_reaction is malformed");
    }
  }
  const member = value.my_chat_member;
  if (member !== undefined && (!isObject(member) || !isObject(member.chat))) {
    throw new TelegramWebhookParseError("my_chat_member is malformed");
  }
  return value as unknown as TelegramUpdate;
}

/** Parses a webhook body (JSON text) into an update. */
export function parseTelegramUpdate(body: string): TelegramUpdate {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new TelegramWebhookParseError("the body is not JSON");
  }
  return toTelegramUpdate(value);
}
