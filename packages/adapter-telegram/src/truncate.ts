import type { TelegramParseMode } from "./format.js";

/** Telegram's limit on a message's text, in characters (UTF-16 code units, as Telegram counts). */
export const TELEGRAM_MESSAGE_LIMIT = 4_096;
/** Telegram's limit on a media caption. */
export const TELEGRAM_CAPTION_LIMIT = 1_024;

const PLAIN_ELLIPSIS = "...";
const MARKDOWN_V2_ELLIPSIS = "\\.\\.\\.";

/**
 * Positions of `marker` in `text` that are not escaped by a backslash (an even run of
 * backslashes before it escapes only themselves).
 */
export function findUnescapedPositions(text: string, marker: string): number[] {
  const found: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === "\\") {
      index += 1;
      continue;
    }
    if (text.startsWith(marker, index)) found.push(index);
  }
  return found;
}

/** True when `text` ends in a backslash that escapes nothing (an odd trailing run). */
export function endsWithOrphanBackslash(text: string): boolean {
  let run = 0;
  for (let index = text.length - 1; index >= 0 && text[index] === "\\"; index -= 1) run += 1;
  return run % 2 === 1;
}

interface Scan {
  /** Unescaped entity markers outside code and link URLs, by marker. */
  readonly markers: Map<string, number[]>;
  /** Where an unclosed code span or block, or an unfinished link, starts. */
  readonly unclosedAt: number | undefined;
}

const MARKERS = ["||", "__", "*", "_", "~"];

/** Walks MarkdownV2 as Telegram does: escapes, code spans, link URLs, then entity markers. */
function scan(text: string): Scan {
  const markers = new Map<string, number[]>(MARKERS.map((marker) => [marker, []]));
  let unclosedAt: number | undefined;
  let linkAt: number | undefined;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === "`") {
      const fence = text.startsWith("```", index) ? "```" : "`";
      const end = findClosing(text, index + fence.length, fence);
      if (end === -1) return { markers, unclosedAt: index };
      index = end + fence.length;
      continue;
    }
    if (char === "[") {
      linkAt = index;
      index += 1;
      continue;
    }
    if (char === "]" && linkAt !== undefined && text[index + 1] === "(") {
      const end = findClosing(text, index + 2, ")");
      if (end === -1) return { markers, unclosedAt: linkAt };
      linkAt = undefined;
      index = end + 1;
      continue;
    }
    const marker = MARKERS.find((candidate) => text.startsWith(candidate, index));
    if (marker !== undefined) {
      markers.get(marker)?.push(index);
      index += marker.length;
      continue;
    }
    index += 1;
  }
  return { markers, unclosedAt: unclosedAt ?? linkAt };
}

function findClosing(text: string, from: number, closing: string): number {
  for (let index = from; index < text.length; index += 1) {
    if (text[index] === "\\") {
      index += 1;
      continue;
    }
    if (text.startsWith(closing, index)) return index;
  }
  return -1;
}

/** The earliest position from which `text` stops being balanced MarkdownV2, if any. */
function firstUnbalanced(text: string): { at: number; length: number } | undefined {
  const { markers, unclosedAt } = scan(text);
  let first: { at: number; length: number } | undefined;
  if (unclosedAt !== undefined) first = { at: unclosedAt, length: text.length - unclosedAt };
  for (const [marker, positions] of markers) {
    if (positions.length % 2 === 0) continue;
    const at = positions[positions.length - 1] as number;
    if (first === undefined || at < first.at) first = { at, length: marker.length };
  }
  return first;
}

/** Removes unpaired entity markers (and an unfinished code span or link) until `text` balances. */
function balance(text: string): string {
  let current = text;
  for (let guard = 0; guard < 64; guard += 1) {
    const problem = firstUnbalanced(current);
    if (problem === undefined) return current;
    current = current.slice(0, problem.at) + current.slice(problem.at + problem.length);
  }
  return current;
}

/**
 * `text` within `limit` characters for `parseMode`. Plain text is cut and ends in `...`.
 * MarkdownV2 is cut before an orphan backslash, an unclosed entity, code span or link, and ends
 * in the escaped `\.\.\.`; under the limit, unpaired markers (a stream cut mid-entity) are
 * removed so Telegram still parses it, and balanced text is returned unchanged.
 */
export function truncateForTelegram(
  text: string,
  limit: number,
  parseMode: TelegramParseMode,
): string {
  if (parseMode !== "MarkdownV2") {
    if (text.length <= limit) return text;
    return `${text.slice(0, Math.max(0, limit - PLAIN_ELLIPSIS.length))}${PLAIN_ELLIPSIS}`;
  }
  if (text.length <= limit) return balance(text);
  let cut = text.slice(0, Math.max(0, limit - MARKDOWN_V2_ELLIPSIS.length));
  for (let guard = 0; guard < 64; guard += 1) {
    if (endsWithOrphanBackslash(cut)) {
      cut = cut.slice(0, -1);
      continue;
    }
    const problem = firstUnbalanced(cut);
    if (problem === undefined) break;
    cut = cut.slice(0, problem.at);
  }
  return `${cut}${MARKDOWN_V2_ELLIPSIS}`;
}
