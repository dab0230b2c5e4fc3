import { decodeTelegramThreadId, isTelegramPrivateChat } from "./thread-id.js";

/**
 * The least time between two writes of a streamed message in a private chat: Telegram's bot FAQ
 * asks for no more than about one message a second per chat, and 100 ms more leaves a margin
 * (upstream `@chat-adapter/telegram`'s value).
 */
export const TELEGRAM_PRIVATE_STREAM_FLOOR_MS = 1_100;

/**
 * The same in a group, supergroup (forum topics included) or channel: Telegram allows a bot about
 * 20 messages a minute there, one every 3 s, plus the same margin (upstream's value).
 */
export const TELEGRAM_GROUP_STREAM_FLOOR_MS = 3_100;

/**
 * The floor of a thread's streamed edits: the configured `streamingEditIntervalMs` when there is
 * one (for every chat; 0 opts out), else by the chat's type, read from its id — positive for a
 * private chat, negative (or an `@username`) for groups, supergroups and channels. Throws the
 * thread-id `ValidationError` for an id that is not Telegram's.
 */
export function telegramStreamFloorMs(threadId: string, configuredMs: number | undefined): number {
  const { chatId } = decodeTelegramThreadId(threadId);
  if (configuredMs !== undefined) return configuredMs;
  return isTelegramPrivateChat(chatId)
    ? TELEGRAM_PRIVATE_STREAM_FLOOR_MS
    : TELEGRAM_GROUP_STREAM_FLOOR_MS;
}
