import type { Author } from "@baton/core";
import type { TelegramChat, TelegramChatMemberUpdated } from "./parse.js";

/**
 * The bot's membership in a chat changed (`my_chat_member`): added to a group, made admin,
 * removed, or a user blocked or unblocked it in a private chat.
 */
export interface TelegramChatMemberEvent {
  /** The chat's thread (`telegram:{chatId}`). */
  readonly threadId: string;
  readonly chat: TelegramChat;
  /** Who made the change. */
  readonly from: Author;
  /** The bot's status before: `member`, `administrator`, `left`, `kicked`, … */
  readonly oldStatus: string;
  /** The bot's status now. */
  readonly newStatus: string;
  readonly raw: TelegramChatMemberUpdated;
}

/** A handler of adapter events; may be async. Its failure is logged and never breaks a webhook. */
export type TelegramEventHandler<E> = (event: E) => unknown;
