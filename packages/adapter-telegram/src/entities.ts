import type { TelegramMessageEntity } from "./parse.js";

interface Insertion {
  readonly at: number;
  readonly text: string;
  /** Closing marks come before opening ones at one position; inner ones close first. */
  readonly rank: number;
}

/** A converted entity's range (after trimming) and the marks around it. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly open: string;
  readonly close: string;
  /** Code and pre: the covered text is literal, never escaped. */
  readonly literal: boolean;
}

/**
 * Characters that mean something inline in markdown. Inside a converted entity they are escaped,
 * so what Telegram showed as text (a `[` in a link's label, a `*` in bold text) stays text;
 * backslash escapes are valid before any ASCII punctuation, so escaping more is harmless.
 */
const INLINE_SPECIAL = /[\\`*_~[\]()<>&]/;

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** An inline code span whose fence is longer than any backtick run inside, padded when needed. */
function codeMarks(inner: string): [string, string] {
  const fence = "`".repeat(longestBacktickRun(inner) + 1);
  // A space is stripped from both ends of a span that starts and ends with one; and a span
  // starting or ending with a backtick needs a space to be told from its fence.
  const pad =
    inner.startsWith("`") ||
    inner.endsWith("`") ||
    (inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() !== "");
  return pad ? [`${fence} `, ` ${fence}`] : [fence, fence];
}

/** A fenced block on lines of its own, its fence longer than any backtick run inside. */
function preMarks(text: string, start: number, end: number, language = ""): [string, string] {
  const inner = text.slice(start, end);
  const fence = "`".repeat(Math.max(3, longestBacktickRun(inner) + 1));
  const before = start > 0 && text[start - 1] !== "\n" ? "\n" : "";
  const after = end < text.length && text[end] !== "\n" ? "\n" : "";
  return [`${before}${fence}${language}\n`, `${inner.endsWith("\n") ? "" : "\n"}${fence}${after}`];
}

/** A link destination that ends where it should, whatever the URL holds. */
function linkDestination(url: string): string {
  return url.replace(/[\\()<>]/g, "\\$&").replace(/\s/g, encodeURIComponent);
}

/** Emphasis marks only count when they touch non-space text, so spaces at the ends stay outside. */
function trimmed(text: string, start: number, end: number): [number, number] {
  let from = start;
  let to = end;
  while (from < to && /\s/.test(text[from] ?? "")) from += 1;
  while (to > from && /\s/.test(text[to - 1] ?? "")) to -= 1;
  return [from, to];
}

function spanOf(text: string, entity: TelegramMessageEntity): Span | undefined {
  const start = entity.offset;
  const end = entity.offset + entity.length;
  const emphasis = (marks: string): Span | undefined => {
    const [from, to] = trimmed(text, start, end);
    return from < to
      ? { start: from, end: to, open: marks, close: marks, literal: false }
      : undefined;
  };
  switch (entity.type) {
    case "bold":
      return emphasis("**");
    case "italic":
      return emphasis("*");
    case "strikethrough":
      return emphasis("~~");
    case "code": {
      const [open, close] = codeMarks(text.slice(start, end));
      return { start, end, open, close, literal: true };
    }
    case "pre": {
      const [open, close] = preMarks(text, start, end, entity.language);
      return { start, end, open, close, literal: true };
    }
    case "text_link":
      return entity.url
        ? { start, end, open: "[", close: `](${linkDestination(entity.url)})`, literal: false }
        : undefined;
    default:
      // url, mention, hashtag, text_mention…: the text already shows what the entity is.
      return undefined;
  }
}

/**
 * The markdown of a Telegram text and its entities: bold, italic, strikethrough, code and pre
 * become markdown marks, `text_link`s become `[text](url)`; URLs, mentions and the rest stay as
 * typed (they are already in the text). Inside a converted entity, characters markdown would read
 * as marks are escaped (a label `[here]` stays `[here]`); code and pre get a fence longer than any
 * backtick run they hold, and pre starts and ends on its own line. Text outside entities is left
 * as typed. Offsets are UTF-16 code units, as Telegram counts them.
 */
export function applyTelegramEntities(
  text: string,
  entities: readonly TelegramMessageEntity[] | undefined,
): string {
  if (!entities || entities.length === 0) return text;
  const spans: Span[] = [];
  for (const entity of entities) {
    const end = entity.offset + entity.length;
    if (entity.offset < 0 || end > text.length || entity.length <= 0) continue;
    const span = spanOf(text, entity);
    if (span !== undefined) spans.push(span);
  }
  if (spans.length === 0) return text;
  const insertions: Insertion[] = [];
  for (const span of spans) {
    const length = span.end - span.start;
    insertions.push({ at: span.start, text: span.open, rank: 1_000_000 - length });
    insertions.push({ at: span.end, text: span.close, rank: length - 1_000_000 });
  }
  insertions.sort((a, b) => a.at - b.at || a.rank - b.rank);
  let out = "";
  let next = 0;
  for (let index = 0; index <= text.length; index += 1) {
    while (insertions[next]?.at === index) {
      out += insertions[next]?.text;
      next += 1;
    }
    const char = text[index];
    if (char === undefined) break;
    out += needsEscape(spans, index, char) ? `\\${char}` : char;
  }
  return out;
}

/** True when the character at `index` is inside a converted entity, outside code, and special. */
function needsEscape(spans: readonly Span[], index: number, char: string): boolean {
  if (!INLINE_SPECIAL.test(char)) return false;
  let inside = false;
  for (const span of spans) {
    if (index < span.start || index >= span.end) continue;
    if (span.literal) return false;
    inside = true;
  }
  return inside;
}

/** The text an entity covers. */
export function entityText(text: string, entity: TelegramMessageEntity): string {
  return text.slice(entity.offset, entity.offset + entity.length);
}
