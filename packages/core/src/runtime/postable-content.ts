import type { Root } from "mdast";
import { toString as plainTextOf } from "mdast-util-to-string";
import { cardToFallbackText } from "../content/cards/card-fallback-text.js";
import { paragraph, root, text } from "../content/markdown/builders.js";
import { parseMarkdown } from "../content/markdown/parse.js";
import type { AdapterPostableMessage } from "../contracts/postable-message.js";
import type { Attachment } from "../model/attachment.js";

/** What a sent message shows, derived from what was posted. */
export interface PostedContent {
  /** Plain text: the string or raw text as is, markdown and trees as their plain text. */
  text: string;
  /** The mdast tree: parsed markdown, the given tree, or one paragraph holding the text. */
  formatted: Root;
  attachments: Attachment[];
}

/**
 * The content of a posted message, as upstream derives a sent message's fields: a string or
 * `{ raw }` is its own text (not parsed: the platform shows it as sent), `{ markdown }` is parsed
 * once into mdast and its plain text taken from the tree with `mdast-util-to-string` (which joins
 * blocks without a break, as upstream's text does), `{ ast }` is used as given, and a card is its
 * `fallbackText` or the text `cardToFallbackText` writes for it.
 */
export function postedContent(message: AdapterPostableMessage): PostedContent {
  if (typeof message === "string") return literal(message, []);
  if ("raw" in message) return literal(message.raw, message.attachments ?? []);
  if ("markdown" in message) {
    const formatted = parseMarkdown(message.markdown);
    return { text: plainTextOf(formatted), formatted, attachments: message.attachments ?? [] };
  }
  if ("ast" in message) {
    return {
      text: plainTextOf(message.ast),
      formatted: message.ast,
      attachments: message.attachments ?? [],
    };
  }
  if ("card" in message) {
    return literal(message.fallbackText || cardToFallbackText(message.card), []);
  }
  return literal(cardToFallbackText(message), []);
}

function literal(value: string, attachments: Attachment[]): PostedContent {
  return { text: value, formatted: root([paragraph([text(value)])]), attachments };
}
