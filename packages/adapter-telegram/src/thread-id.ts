import { ValidationError } from "@baton/core";

/** The adapter's name: the prefix of its thread ids and its key in `new Chat({ adapters })`. */
export const TELEGRAM_ADAPTER_NAME = "telegram";

/** What a Telegram thread id encodes: a chat, and in a forum supergroup one of its topics. */
export interface TelegramThreadData {
  /** The chat id (negative for groups and channels, `-100…` for supergroups). */
  readonly chatId: string;
  /** The forum topic (`message_thread_id`); absent for the chat itself. */
  readonly messageThreadId?: number;
}

const CHAT_ID = /^-?\d+$|^@[A-Za-z0-9_]{4,}$/;

function invalid(threadId: string, why: string): ValidationError {
  return new ValidationError(`not a Telegram thread id (${why}): ${JSON.stringify(threadId)}`, {
    step: "decode telegram thread id",
  });
}

/**
 * `telegram:{chatId}` for a chat, `telegram:{chatId}:{topicId}` for a forum topic — upstream's
 * format, so recorded payloads and stored ids carry over.
 */
export function encodeTelegramThreadId(data: TelegramThreadData): string {
  const chatId = String(data.chatId);
  if (!CHAT_ID.test(chatId)) throw invalid(chatId, "bad chat id");
  const topic = data.messageThreadId;
  if (topic === undefined) return `${TELEGRAM_ADAPTER_NAME}:${chatId}`;
  if (!Number.isSafeInteger(topic) || topic <= 0) throw invalid(chatId, "bad topic id");
  return `${TELEGRAM_ADAPTER_NAME}:${chatId}:${topic}`;
}

/** The inverse of {@link encodeTelegramThreadId}; throws a `ValidationError` for anything else. */
export function decodeTelegramThreadId(threadId: string): TelegramThreadData {
  const parts = threadId.split(":");
  if (parts[0] !== TELEGRAM_ADAPTER_NAME) throw invalid(threadId, "wrong prefix");
  const [, chatId, topic, ...rest] = parts;
  if (chatId === undefined || !CHAT_ID.test(chatId) || rest.length > 0) {
    throw invalid(threadId, "bad chat id");
  }
  if (topic === undefined) return { chatId };
  if (!/^[1-9]\d*$/.test(topic)) throw invalid(threadId, "bad topic id");
  return { chatId, messageThreadId: Number(topic) };
}

/** The chat of a thread: `telegram:{chatId}` (a topic's forum, or the chat itself). */
export function telegramChannelIdFromThreadId(threadId: string): string {
  return `${TELEGRAM_ADAPTER_NAME}:${decodeTelegramThreadId(threadId).chatId}`;
}

/**
 * A channel id as given by a caller (`telegram:{chatId}`, `telegram:{chatId}:{topic}`, or a bare
 * chat id) as thread data, so `postChannelMessage` never double-prefixes.
 */
export function telegramThreadDataOf(id: string): TelegramThreadData {
  return id.startsWith(`${TELEGRAM_ADAPTER_NAME}:`)
    ? decodeTelegramThreadId(id)
    : decodeTelegramThreadId(`${TELEGRAM_ADAPTER_NAME}:${id}`);
}

/** True for a private chat: positive chat ids are users; groups and channels are negative. */
export function isTelegramPrivateChat(chatId: string): boolean {
  return /^\d+$/.test(chatId);
}

/**
 * A Baton message id: `{chatId}:{message_id}`. Telegram's message ids are unique only within a
 * chat, and Baton dedupes by adapter + message id, so the chat is part of the id.
 */
export function encodeTelegramMessageId(chatId: string | number, messageId: number): string {
  return `${chatId}:${messageId}`;
}

/** The Telegram `message_id` of a Baton message id (bare numbers are accepted too). */
export function telegramMessageIdOf(messageId: string): number {
  const last = messageId.slice(messageId.lastIndexOf(":") + 1);
  const value = Number(last);
  if (!/^\d+$/.test(last) || !Number.isSafeInteger(value)) {
    throw new ValidationError(`not a Telegram message id: ${JSON.stringify(messageId)}`, {
      step: "decode telegram message id",
    });
  }
  return value;
}
