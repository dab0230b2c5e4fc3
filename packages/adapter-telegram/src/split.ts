import { parseMarkdown, toPlainText, ValidationError } from "@baton/core";
import type { Root, RootContent } from "mdast";
import { escapeMarkdownV2, escapeMarkdownV2Code, TelegramFormatConverter } from "./format.js";
import { endsWithOrphanBackslash, TELEGRAM_MESSAGE_LIMIT } from "./truncate.js";

const CONVERTER = new TelegramFormatConverter();

function checkLimit(limit: number, step: string): void {
  if (!Number.isInteger(limit) || limit < 16) {
    throw new ValidationError(`limit must be an integer ≥ 16, got ${String(limit)}`, { step });
  }
}

// A break in the last third of the window keeps chunks reasonably full.
function breakPoint(window: string, limit: number): number {
  const floor = Math.floor(limit / 3);
  for (const separator of ["\n\n", "\n", " "]) {
    const at = window.lastIndexOf(separator);
    if (at > floor) return at + separator.length;
  }
  return window.length;
}

/**
 * Splits plain text into messages of at most `limit` UTF-16 units (Telegram's measure): at a
 * paragraph break near the end of a chunk, else a line break, else a space, else hard — never
 * inside a surrogate pair. Every chunk is non-empty.
 */
export function splitTelegramText(text: string, limit = TELEGRAM_MESSAGE_LIMIT): string[] {
  checkLimit(limit, "split telegram text");
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = breakPoint(rest.slice(0, limit), limit);
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? "")) cut -= 1;
    const chunk = rest.slice(0, cut).trimEnd();
    if (chunk !== "") chunks.push(chunk);
    rest = rest.slice(cut).replace(/^\s+/, "");
  }
  if (rest.trim() !== "" || chunks.length === 0) chunks.push(rest);
  return chunks;
}

/** Splits already-escaped MarkdownV2 plain text without cutting an escape in half. */
function splitEscaped(escaped: string, limit: number): string[] {
  const chunks: string[] = [];
  let rest = escaped;
  while (rest.length > limit) {
    let cut = breakPoint(rest.slice(0, limit), limit);
    while (cut > 1 && endsWithOrphanBackslash(rest.slice(0, cut))) cut -= 1;
    if (/[\uD800-\uDBFF]/.test(rest[cut - 1] ?? "")) cut -= 1;
    chunks.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^\s+/, "");
  }
  if (rest !== "") chunks.push(rest);
  return chunks.filter((chunk) => chunk !== "");
}

/** A block too long for one message, as several valid MarkdownV2 messages. */
function splitBlock(block: RootContent, limit: number): string[] {
  if (block.type === "code") {
    const fence = (body: string) => `\`\`\`\n${body}\n\`\`\``;
    const room = limit - fence("").length;
    return splitEscaped(escapeMarkdownV2Code(block.value), room).map(fence);
  }
  // Formatting of a block longer than a whole message is given up: its text is kept, escaped.
  return splitEscaped(escapeMarkdownV2(toPlainText(block)), limit);
}

/**
 * Renders markdown to MarkdownV2 messages of at most `limit` characters each, split between
 * top-level blocks (paragraphs, lists, code blocks) so no entity is cut; a single block longer
 * than a message is split on its own (a code block into several code blocks). Each message
 * parses on its own.
 */
export function splitTelegramMarkdown(
  markdown: string | Root,
  limit = TELEGRAM_MESSAGE_LIMIT,
): string[] {
  checkLimit(limit, "split telegram markdown");
  const ast = typeof markdown === "string" ? parseMarkdown(markdown) : markdown;
  const whole = CONVERTER.fromAst(ast);
  if (whole.length <= limit) return [whole];
  const chunks: string[] = [];
  let current = "";
  for (const block of ast.children) {
    const rendered = CONVERTER.fromAst({ type: "root", children: [block] });
    if (rendered === "") continue;
    const pieces = rendered.length <= limit ? [rendered] : splitBlock(block, limit);
    for (const piece of pieces) {
      if (current !== "" && current.length + 2 + piece.length <= limit) {
        current = `${current}\n\n${piece}`;
      } else {
        if (current !== "") chunks.push(current);
        current = piece;
      }
    }
  }
  if (current !== "") chunks.push(current);
  return chunks;
}
