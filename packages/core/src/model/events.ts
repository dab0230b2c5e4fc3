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
  /** The normalized emoji name (`thumbs_up`). */
  emoji: string;
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
