import type { Logger } from "../contracts/logger.js";
import type { Attachment } from "../model/attachment.js";
import type { Author } from "../model/author.js";
import type { LinkPreview } from "../model/link-preview.js";
import type { AiMessage, AiMessagePart } from "./ai-message.js";
import { attachmentToPart, isUnsupportedAttachment } from "./attachment-part.js";
import { renderLinkForPrompt } from "./link-preview.js";

/**
 * What {@link toAiMessages} reads from a message: a Baton `Message`, a message the bot posted
 * that carries its text and author, or any object of this shape (a stored transcript entry).
 */
export interface AiSourceMessage {
  readonly text: string;
  readonly author: Pick<Author, "userName" | "isMe">;
  readonly metadata: { readonly dateSent: Date };
  readonly attachments?: readonly Attachment[];
  /** Unfurled links, when the adapter attaches them (upstream's `message.links`). */
  readonly links?: readonly LinkPreview[];
}

/** Options of {@link toAiMessages}; the names and meaning are upstream's. */
export interface ToAiMessagesOptions<TMessage extends AiSourceMessage = AiSourceMessage> {
  /** Prefix user messages with `[userName]: `, so the model can tell several people apart. */
  includeNames?: boolean;
  /**
   * Called for each video or audio attachment, which no model input takes; the attachment is
   * left out. Default: a warning through `logger`.
   */
  onUnsupportedAttachment?: (attachment: Attachment, message: TMessage) => void;
  /**
   * Called for each message that has content, after the default conversion. Return the message
   * (changed or not) to keep it, or `null` to leave it out. May be async.
   */
  transformMessage?: (
    aiMessage: AiMessage,
    source: TMessage,
  ) => AiMessage | null | Promise<AiMessage | null>;
  /**
   * Receives the default unsupported-attachment warning and failed attachment downloads.
   * Default: the console (upstream's behaviour). A Baton addition.
   */
  logger?: Logger;
}

/**
 * Converts chat messages into the AI SDK's conversation format (upstream's `toAiMessages`):
 *
 * - ordered oldest first by `metadata.dateSent` (stable for equal dates), whatever the input
 *   order — history pages come newest first;
 * - the bot's own messages (`author.isMe`) become `assistant` messages with text only, everyone
 *   else's `user` messages, prefixed `[userName]: ` under `includeNames`;
 * - links are appended after the text as a `Links:` section (see {@link renderLinkForPrompt});
 * - images and text files of user messages become inline file parts after a text part (no text
 *   part when there is no text); video and audio go to `onUnsupportedAttachment`;
 * - a message with no text, no link and no usable attachment is left out, and so is one that
 *   `transformMessage` maps to `null`.
 *
 * The result is assignable to the AI SDK's `ModelMessage[]`. Attachments are downloaded in
 * parallel across messages; a failed download drops only that attachment.
 */
export async function toAiMessages<TMessage extends AiSourceMessage>(
  messages: readonly TMessage[],
  options: ToAiMessagesOptions<TMessage> = {},
): Promise<AiMessage[]> {
  const logger = options.logger ?? consoleLogger;
  const onUnsupported =
    options.onUnsupportedAttachment ??
    ((attachment: Attachment) => {
      const name = attachment.name ? ` (${attachment.name})` : "";
      logger.warn(`toAiMessages: unsupported attachment type "${attachment.type}"${name}, skipped`);
    });
  const converted = await Promise.all(
    oldestFirst(messages).map(async (message) => {
      const aiMessage = await convert(
        message,
        options.includeNames ?? false,
        onUnsupported,
        logger,
      );
      if (aiMessage === null || !options.transformMessage) return aiMessage;
      return options.transformMessage(aiMessage, message);
    }),
  );
  return converted.filter((message): message is AiMessage => message != null);
}

function oldestFirst<TMessage extends AiSourceMessage>(messages: readonly TMessage[]): TMessage[] {
  // Array#sort is stable, so messages sent in the same millisecond keep their given order.
  return [...messages].sort(
    (a, b) => (a.metadata.dateSent?.getTime() ?? 0) - (b.metadata.dateSent?.getTime() ?? 0),
  );
}

async function convert<TMessage extends AiSourceMessage>(
  message: TMessage,
  includeNames: boolean,
  onUnsupported: (attachment: Attachment, message: TMessage) => void,
  logger: Logger,
): Promise<AiMessage | null> {
  const isAssistant = message.author.isMe;
  const text = messageText(message, includeNames && !isAssistant);
  if (isAssistant) return text.trim() === "" ? null : { role: "assistant", content: text };
  const parts: AiMessagePart[] = [];
  for (const attachment of message.attachments ?? []) {
    const part = await attachmentToPart(attachment, logger);
    if (part) parts.push(part);
    else if (isUnsupportedAttachment(attachment)) onUnsupported(attachment, message);
  }
  if (parts.length === 0) return text.trim() === "" ? null : { role: "user", content: text };
  return { role: "user", content: text ? [{ type: "text", text }, ...parts] : parts };
}

/** The message's text (empty when blank), with its name prefix and its links section. */
function messageText(message: AiSourceMessage, withName: boolean): string {
  let text = "";
  if (message.text.trim() !== "") {
    text = withName ? `[${message.author.userName}]: ${message.text}` : message.text;
  }
  const links = message.links ?? [];
  if (links.length === 0) return text;
  const section = `Links:\n${links.map(renderLinkForPrompt).join("\n\n")}`;
  return text ? `${text}\n\n${section}` : section;
}

/** Upstream logs to the console; a user who wants silence passes a logger. */
const consoleLogger: Logger = {
  debug: (message, ...args) => console.debug(message, ...args),
  info: (message, ...args) => console.info(message, ...args),
  warn: (message, ...args) => console.warn(message, ...args),
  error: (message, ...args) => console.error(message, ...args),
};
