import type { ChannelInfo, ChannelVisibility, Logger, ThreadInfo, UserInfo } from "@baton/core";
import type { TelegramApi } from "./api.js";
import type { TelegramChat } from "./parse.js";
import {
  decodeTelegramThreadId,
  encodeTelegramThreadId,
  isTelegramPrivateChat,
  telegramThreadDataOf,
} from "./thread-id.js";

function nameOf(chat: TelegramChat): string | undefined {
  const person = [chat.first_name, chat.last_name].filter(Boolean).join(" ");
  return chat.title ?? (person || chat.username);
}

function visibilityOf(chat: TelegramChat): ChannelVisibility {
  if (chat.type === "private") return "private";
  // A chat with a public @username can be found by anyone; the rest need an invite.
  return chat.username ? "public" : "private";
}

/** A user, by `getChat` on their private chat; `null` for groups, channels and unknown ids. */
export async function getTelegramUser(
  api: TelegramApi,
  userId: string,
  logger: Logger,
): Promise<UserInfo | null> {
  if (!/^\d+$/.test(userId)) return null;
  try {
    const chat = await api.call<TelegramChat>("getChat", { chat_id: userId });
    if (chat.type !== "private") return null;
    const fullName = [chat.first_name, chat.last_name].filter(Boolean).join(" ");
    return {
      userId: String(chat.id),
      userName: chat.username ?? (fullName || String(chat.id)),
      ...(fullName === "" ? {} : { fullName }),
      isBot: false,
    };
  } catch (error) {
    logger.debug("telegram: getUser failed", { userId, error });
    return null;
  }
}

/**
 * A chat's name and member count (`getChat`, `getChatMemberCount`). The count is left out when
 * Telegram refuses it (private chats, channels where the bot is not an admin).
 */
export async function fetchTelegramChannelInfo(
  api: TelegramApi,
  channelId: string,
): Promise<ChannelInfo> {
  const { chatId } = telegramThreadDataOf(channelId);
  const chat = await api.call<TelegramChat>("getChat", { chat_id: chatId });
  const memberCount = await api
    .call<number>("getChatMemberCount", { chat_id: chatId })
    .catch(() => undefined);
  const name = nameOf(chat);
  return {
    id: encodeTelegramThreadId({ chatId }),
    ...(name === undefined ? {} : { name }),
    isDM: isTelegramPrivateChat(chatId),
    ...(typeof memberCount === "number" ? { memberCount } : {}),
    channelVisibility: visibilityOf(chat),
    metadata: {
      type: chat.type,
      ...(chat.is_forum === undefined ? {} : { isForum: chat.is_forum }),
      chat,
    },
  };
}

/** A thread's metadata: its chat's name, and the topic it is in. */
export async function fetchTelegramThread(api: TelegramApi, threadId: string): Promise<ThreadInfo> {
  const data = decodeTelegramThreadId(threadId);
  const chat = await api.call<TelegramChat>("getChat", { chat_id: data.chatId });
  const channelName = nameOf(chat);
  return {
    id: threadId,
    channelId: encodeTelegramThreadId({ chatId: data.chatId }),
    ...(channelName === undefined ? {} : { channelName }),
    isDM: data.messageThreadId === undefined && isTelegramPrivateChat(data.chatId),
    channelVisibility: visibilityOf(chat),
    metadata: {
      type: chat.type,
      ...(data.messageThreadId === undefined ? {} : { messageThreadId: data.messageThreadId }),
    },
  };
}
