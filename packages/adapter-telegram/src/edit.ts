import type { TelegramApi } from "./api.js";
import { TelegramApiError } from "./errors.js";
import {
  chatParams,
  sendTelegramPost,
  sendWithFallback,
  type TelegramRendered,
  type TelegramSentMessage,
} from "./post.js";
import { type TelegramThreadData, telegramMessageIdOf } from "./thread-id.js";
import { TELEGRAM_MESSAGE_LIMIT, truncateForTelegram } from "./truncate.js";

/**
 * Sends a rendered post as a reply to `messageId` (Telegram quotes it): the first part carries
 * `reply_parameters`, later parts and files follow as ordinary messages. Resolves with the
 * first message.
 */
export async function replyTelegramMessage(
  api: TelegramApi,
  thread: TelegramThreadData,
  messageId: string,
  rendered: TelegramRendered,
): Promise<TelegramSentMessage> {
  const [first, ...rest] = rendered.parts;
  if (first === undefined || rendered.files.length + rendered.attachments.length > 0) {
    const sent = await sendTelegramPost(api, thread, rendered);
    return sent[0] as TelegramSentMessage;
  }
  const sent = await sendWithFallback(first, (text, parseMode) =>
    api.call<TelegramSentMessage>("sendMessage", {
      ...chatParams(thread),
      text,
      ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
      reply_parameters: { message_id: telegramMessageIdOf(messageId) },
      ...(rest.length === 0 && rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
    }),
  );
  if (rest.length > 0) await sendTelegramPost(api, thread, { ...rendered, parts: rest });
  return sent;
}

/**
 * Edits a message to a rendered post (rendered whole, not split: an edit cannot add messages),
 * cut to 4 096 characters so it still parses. Resolves `undefined` when Telegram answers `true`
 * or "message is not modified" — the message already shows what was asked, as when a stream's
 * last edit repeats the one before.
 */
export async function editTelegramMessage(
  api: TelegramApi,
  thread: TelegramThreadData,
  messageId: string,
  rendered: TelegramRendered,
): Promise<TelegramSentMessage | undefined> {
  const part = rendered.parts[0];
  if (part === undefined) {
    throw new TelegramApiError("editMessageText", {
      errorCode: 400,
      description: "message text is empty",
    });
  }
  const mode = part.parseMode === undefined ? "plain" : "MarkdownV2";
  const text = truncateForTelegram(part.text, TELEGRAM_MESSAGE_LIMIT, mode);
  try {
    const edited = await sendWithFallback({ ...part, text }, (body, parseMode) =>
      api.call<TelegramSentMessage | true>("editMessageText", {
        chat_id: thread.chatId,
        message_id: telegramMessageIdOf(messageId),
        text: body,
        ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
        ...(rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
      }),
    );
    return edited === true ? undefined : edited;
  } catch (error) {
    if (error instanceof TelegramApiError && /message is not modified/i.test(error.description)) {
      return undefined;
    }
    throw error;
  }
}

/** Deletes one message of the thread's chat. */
export async function deleteTelegramMessage(
  api: TelegramApi,
  thread: TelegramThreadData,
  messageId: string,
): Promise<void> {
  await api.call("deleteMessage", {
    chat_id: thread.chatId,
    message_id: telegramMessageIdOf(messageId),
  });
}

/**
 * Sets the bot's reaction on a message to `emoji` (a Telegram emoji character), or clears it
 * with `null`: Telegram keeps one reaction per bot and message, so setting replaces.
 */
export async function setTelegramReaction(
  api: TelegramApi,
  thread: TelegramThreadData,
  messageId: string,
  emoji: string | null,
): Promise<void> {
  await api.call("setMessageReaction", {
    chat_id: thread.chatId,
    message_id: telegramMessageIdOf(messageId),
    reaction: emoji === null ? [] : [{ type: "emoji", emoji }],
  });
}
