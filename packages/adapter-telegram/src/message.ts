import {
  type Attachment,
  type AttachmentType,
  type Author,
  Message,
  paragraph,
  parseMarkdown,
  root,
  text as textNode,
} from "@baton/core";
import { applyTelegramEntities, entityText } from "./entities.js";
import type { TelegramChat, TelegramFileRef, TelegramMessage, TelegramUser } from "./parse.js";
import { sharedContentText, sharedLocationAttachment } from "./shared-content.js";
import { encodeTelegramMessageId, encodeTelegramThreadId } from "./thread-id.js";

/** What the adapter knows about itself when it reads a message. */
export interface TelegramBotIdentity {
  /** The bot's username without `@`, when known. */
  readonly userName: string | undefined;
  /** The bot's numeric user id, when known (from `getMe` or the token). */
  readonly userId: string | undefined;
}

/** The thread of a message: its chat, or the forum topic it was written in. */
export function threadIdOfMessage(message: TelegramMessage): string {
  const topic = message.message_thread_id;
  const inTopic =
    topic !== undefined && (message.is_topic_message === true || message.chat.is_forum === true);
  return encodeTelegramThreadId({
    chatId: String(message.chat.id),
    ...(inTopic ? { messageThreadId: topic } : {}),
  });
}

/** A Telegram user as a Baton author. */
export function authorOfUser(user: TelegramUser, bot: TelegramBotIdentity): Author {
  const fullName = [user.first_name, user.last_name].filter(Boolean).join(" ");
  const userId = String(user.id);
  return {
    userId,
    userName: user.username ?? fullName ?? userId,
    fullName: fullName || user.username || userId,
    isBot: user.is_bot,
    isMe: bot.userId !== undefined ? bot.userId === userId : sameName(user.username, bot.userName),
  };
}

/** The author of a post signed by a chat (a channel post, an anonymous group admin). */
export function authorOfChat(chat: TelegramChat): Author {
  const name = chat.title ?? chat.username ?? String(chat.id);
  return {
    userId: String(chat.id),
    userName: chat.username ?? name,
    fullName: name,
    isBot: false,
    isMe: false,
  };
}

/**
 * Who wrote a message: the chat it was sent on behalf of (`sender_chat`: a channel post, an
 * anonymous group admin, a channel post forwarded into its discussion group, a user writing as
 * their channel) — there `from` is a placeholder user such as GroupAnonymousBot — else the user.
 */
export function authorOfMessage(message: TelegramMessage, bot: TelegramBotIdentity): Author {
  if (message.sender_chat !== undefined) return authorOfChat(message.sender_chat);
  return message.from ? authorOfUser(message.from, bot) : authorOfChat(message.chat);
}

function sameName(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

/**
 * True when the message addresses the bot: a `mention` entity of `@botname` (exactly, so
 * `@botname-other` is not one), a `text_mention` of the bot's user, a `/command@botname`, or a
 * reply to one of the bot's messages.
 */
export function mentionsBot(message: TelegramMessage, bot: TelegramBotIdentity): boolean {
  const text = message.text ?? message.caption ?? "";
  const entities = message.entities ?? message.caption_entities ?? [];
  for (const entity of entities) {
    if (entity.type === "mention" && sameName(entityText(text, entity).slice(1), bot.userName)) {
      return true;
    }
    if (entity.type === "text_mention" && entity.user !== undefined) {
      if (bot.userId !== undefined && String(entity.user.id) === bot.userId) return true;
    }
    if (entity.type === "bot_command") {
      const at = entityText(text, entity).split("@")[1];
      if (sameName(at, bot.userName)) return true;
    }
  }
  const replied = message.reply_to_message?.from;
  if (replied !== undefined) {
    if (bot.userId !== undefined && String(replied.id) === bot.userId) return true;
    if (replied.is_bot && sameName(replied.username, bot.userName)) return true;
  }
  return false;
}

/** A slash command: the leading `bot_command` entity, addressed to no bot or to this one. */
export interface TelegramCommand {
  /** With the leading slash, without `@botname`: `/start`. */
  readonly command: string;
  /** Everything after the command, trimmed. */
  readonly text: string;
}

/** The command a message starts with, or `undefined` (also when it names another bot). */
export function commandOf(
  message: TelegramMessage,
  bot: TelegramBotIdentity,
): TelegramCommand | undefined {
  const text = message.text ?? message.caption ?? "";
  const entities = message.entities ?? message.caption_entities ?? [];
  const entity = entities.find((candidate) => candidate.type === "bot_command");
  if (entity === undefined || entity.offset !== 0) return undefined;
  const [command = "", target] = entityText(text, entity).split("@");
  if (target !== undefined && !sameName(target, bot.userName)) return undefined;
  return { command, text: text.slice(entity.length).trim() };
}

interface MediaKind {
  readonly field: keyof TelegramMessage;
  readonly type: AttachmentType;
  readonly mimeType?: string;
}

const MEDIA: readonly MediaKind[] = [
  { field: "document", type: "file" },
  { field: "audio", type: "audio" },
  { field: "voice", type: "audio", mimeType: "audio/ogg" },
  { field: "video", type: "video" },
  { field: "video_note", type: "video", mimeType: "video/mp4" },
  { field: "animation", type: "video" },
  { field: "sticker", type: "image", mimeType: "image/webp" },
];

function attachmentOf(file: TelegramFileRef, type: AttachmentType, mimeType?: string): Attachment {
  const mime = file.mime_type ?? mimeType;
  return {
    type,
    ...(file.file_name === undefined ? {} : { name: file.file_name }),
    ...(mime === undefined ? {} : { mimeType: mime }),
    ...(file.file_size === undefined ? {} : { size: file.file_size }),
    ...(file.width === undefined ? {} : { width: file.width }),
    ...(file.height === undefined ? {} : { height: file.height }),
    fetchMetadata: {
      telegramFileId: file.file_id,
      ...(file.file_unique_id === undefined ? {} : { telegramFileUniqueId: file.file_unique_id }),
    },
  };
}

/**
 * The attachments of a message, without their content: each keeps its `file_id` in
 * `fetchMetadata`, and the adapter gives it a fetcher that calls `getFile` only when a handler
 * reads it. Of a photo's sizes only the largest is kept. A shared location or venue is a `geo:`
 * attachment (no content to fetch).
 */
export function attachmentsOfMessage(message: TelegramMessage): Attachment[] {
  const attachments: Attachment[] = [];
  const photo = message.photo?.at(-1);
  if (photo !== undefined) attachments.push(attachmentOf(photo, "image", "image/jpeg"));
  for (const kind of MEDIA) {
    const file = message[kind.field] as TelegramFileRef | undefined;
    if (file?.file_id) attachments.push(attachmentOf(file, kind.type, kind.mimeType));
  }
  const location = sharedLocationAttachment(message);
  if (location !== undefined) attachments.push(location);
  return attachments;
}

/** True when a message has something a handler can read: text, a caption, a file, a location… */
export function hasReadableContent(message: TelegramMessage): boolean {
  return (
    (message.text ?? message.caption ?? "") !== "" ||
    attachmentsOfMessage(message).length > 0 ||
    sharedContentText(message) !== undefined
  );
}

/** What {@link messageFromTelegram} needs besides the message. */
export interface TelegramMessageContext {
  readonly bot: TelegramBotIdentity;
  /** Gives an attachment its lazy fetcher. */
  readonly withFetcher: (attachment: Attachment) => Attachment;
  /** The update the message came in, kept as `raw`. */
  readonly raw?: unknown;
}

/**
 * The text and formatted text of a message: as typed (entities resolved to markdown in
 * `formatted`), or for a location, venue, contact, dice roll or poll a line saying what it is.
 */
function textOf(message: TelegramMessage) {
  const typed = message.text ?? message.caption ?? "";
  const shared = typed === "" ? sharedContentText(message) : undefined;
  if (shared !== undefined) {
    return { text: shared, formatted: root([paragraph([textNode(shared)])]) };
  }
  const entities = message.entities ?? message.caption_entities;
  return { text: typed, formatted: parseMarkdown(applyTelegramEntities(typed, entities)) };
}

/**
 * A Telegram message as a Baton message: id `{chatId}:{message_id}`, the thread of its chat or
 * topic, text as typed (entities resolved to markdown in `formatted`; a line describing a shared
 * location, venue, contact, dice roll or poll), author (the chat for a post on behalf of one),
 * attachments, mention flag, and the message it replies to.
 */
export function messageFromTelegram(
  message: TelegramMessage,
  context: TelegramMessageContext,
): Message {
  const { text, formatted } = textOf(message);
  const author = authorOfMessage(message, context.bot);
  const replied = message.reply_to_message;
  return new Message({
    id: encodeTelegramMessageId(message.chat.id, message.message_id),
    threadId: threadIdOfMessage(message),
    text,
    formatted,
    author,
    metadata: {
      dateSent: new Date(message.date * 1_000),
      edited: message.edit_date !== undefined,
      ...(message.edit_date === undefined ? {} : { editedAt: new Date(message.edit_date * 1_000) }),
    },
    attachments: attachmentsOfMessage(message).map(context.withFetcher),
    isMention: message.chat.type === "private" || mentionsBot(message, context.bot),
    raw: (context.raw ?? message) as never,
    ...(replied === undefined
      ? {}
      : { replyTo: messageFromTelegram(replied, { ...context, raw: replied }) }),
  });
}
