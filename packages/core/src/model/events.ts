import type { EmojiValue } from "../content/emoji/emoji-value.js";
import type { Author } from "./author.js";
import type { JsonValue } from "./json.js";

/** A button or menu interaction, normalized. */
export interface ActionEvent {
  /** The id the bot gave the control. */
  actionId: string;
  /** The selected or submitted value, when the control carries one. */
  value?: string;
  user: Author;
  /** The message that carries the control. */
  messageId: string;
  threadId: string;
  /** A platform token for opening a modal in reply, valid briefly. */
  triggerId?: string;
  raw?: JsonValue;
}

/** A reaction added to or removed from a message, normalized. */
export interface ReactionEvent {
  /**
   * The normalized emoji: its name (`thumbs_up`) or its `EmojiValue`. Handlers always receive the
   * `EmojiValue` (`getEmoji(name)`), so `event.emoji === emoji.thumbs_up` works as upstream.
   */
  emoji: EmojiValue | string;
  /** The platform's own spelling of the emoji. */
  rawEmoji: string;
  /** True when added, false when removed. */
  added: boolean;
  user: Author;
  messageId: string;
  threadId: string;
  raw?: JsonValue;
}

/** A slash command, normalized. `command` includes the leading slash. */
export interface SlashCommandEvent {
  command: string;
  /** Everything after the command. */
  text: string;
  user: Author;
  channelId: string;
  triggerId?: string;
  raw?: JsonValue;
}

/** A message was deleted on the platform. */
export interface MessageDeletedEvent {
  messageId: string;
  threadId: string;
  raw?: JsonValue;
}

/**
 * A user submitted a modal, normalized. The adapter passes the context id it got from
 * `openModal` (kept in the platform's private metadata, for instance) next to the event, so the
 * runtime can give the handler the thread, message or channel the modal was opened from.
 */
export interface ModalSubmitEvent {
  /** The `callbackId` of the modal, as the bot set it when it opened the modal. */
  callbackId: string;
  /** The platform's id of the open view. */
  viewId: string;
  /** The submitted field values, keyed by input id. */
  values: Record<string, string>;
  /** Who submitted it. */
  user: Author;
  /** The `privateMetadata` string the modal was opened with, returned unchanged. */
  privateMetadata?: string;
  raw?: JsonValue;
}

/** A user closed or cancelled a modal (platforms report it only for `notifyOnClose` modals). */
export interface ModalCloseEvent {
  /** The `callbackId` of the modal. */
  callbackId: string;
  /** The platform's id of the closed view. */
  viewId: string;
  /** Who closed it. */
  user: Author;
  /** The `privateMetadata` string the modal was opened with. */
  privateMetadata?: string;
  raw?: JsonValue;
}

/** A dynamic select asks for its options while the user types, normalized. */
export interface OptionsLoadEvent {
  /** The id of the select control asking. */
  actionId: string;
  /** What the user typed so far; empty when the menu just opened. */
  query: string;
  /** Who is typing. */
  user: Author;
  raw?: JsonValue;
}
