/** An inline construct opened and not closed by the end of the scanned text. */
export type OpenInline =
  | { readonly kind: "code"; readonly start: number; readonly length: number }
  | { readonly kind: "emphasis"; readonly start: number; readonly marker: string }
  | {
      readonly kind: "link";
      readonly start: number;
      readonly image: boolean;
      /** Index of the `]` once `](` was seen: the link is inside its URL. */
      textEnd?: number;
      /** Unbalanced `(` inside the URL. */
      depth: number;
    };

/** What {@link scanInline} found. */
export interface InlineScan {
  /** Constructs still open at the end, outermost first. */
  readonly open: readonly OpenInline[];
  /**
   * Where a run of `*`, `_` or `~` that ends the text (before trailing whitespace) starts, when
   * that run closes nothing: a marker whose text has not arrived yet. `-1` when there is none.
   */
  readonly danglingStart: number;
}

const WHITESPACE = /\s/;
const ALPHANUMERIC = /[\p{L}\p{N}]/u;

/**
 * Scans one paragraph for inline constructs left open: code spans, emphasis (`*`, `_`, `**`,
 * `__`), strikethrough (`~~`) and links. A simplified CommonMark: a delimiter run opens when
 * followed by non-whitespace and closes an open one of its kind when preceded by non-whitespace;
 * `_` never opens or closes inside a word (snake_case stays text). Backslash escapes are honoured.
 */
export function scanInline(text: string): InlineScan {
  const stack: OpenInline[] = [];
  const end = text.trimEnd().length;
  let danglingStart = -1;
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    const top = stack.at(-1);
    if (top?.kind === "link" && top.textEnd !== undefined) {
      index = scanUrl(top, stack, char, index);
      continue;
    }
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === "`") {
      const length = runLength(text, index, "`");
      const close = findBacktickRun(text, index + length, length);
      if (close === -1) {
        stack.push({ kind: "code", start: index, length });
        break; // the rest of the paragraph is code
      }
      index = close + length;
      continue;
    }
    if (char === "*" || char === "_" || char === "~") {
      const length = runLength(text, index, char);
      const closed = delimiterRun(text, stack, index, length);
      danglingStart = index + length === end && !closed ? index : -1;
      index += length;
      continue;
    }
    if (char === "[" || (char === "!" && text[index + 1] === "[")) {
      const image = char === "!";
      stack.push({ kind: "link", start: index, image, depth: 0 });
      index += image ? 2 : 1;
      continue;
    }
    if (char === "]") index = closeLinkText(text, stack, index);
    else index += 1;
  }
  return { open: stack, danglingStart };
}

function scanUrl(
  link: Extract<OpenInline, { kind: "link" }>,
  stack: OpenInline[],
  char: string,
  index: number,
): number {
  if (char === "(") link.depth += 1;
  else if (char === ")") {
    if (link.depth === 0) stack.pop();
    else link.depth -= 1;
  }
  return index + 1;
}

function closeLinkText(text: string, stack: OpenInline[], index: number): number {
  let at = stack.length - 1;
  while (at >= 0 && stack[at]?.kind !== "link") at -= 1;
  const link = stack[at];
  if (link === undefined || link.kind !== "link") return index + 1;
  // Anything opened inside the link text and still open stays literal text.
  if (text[index + 1] === "(") {
    stack.length = at + 1;
    link.textEnd = index;
    return index + 2;
  }
  stack.length = at; // `[text]` without a URL: brackets, or a reference we cannot resolve
  return index + 1;
}

/** Closes and opens emphasis for one delimiter run; true when it closed something. */
function delimiterRun(text: string, stack: OpenInline[], start: number, length: number): boolean {
  const char = text[start] as string;
  const before = start > 0 ? (text[start - 1] as string) : " ";
  const after = start + length < text.length ? (text[start + length] as string) : " ";
  const intraword = char === "_";
  const canClose = !WHITESPACE.test(before) && !(intraword && ALPHANUMERIC.test(after));
  const canOpen = !WHITESPACE.test(after) && !(intraword && ALPHANUMERIC.test(before));
  if (char === "~" && length < 2) return false;
  let remaining = char === "~" ? 2 : length;
  let closed = false;
  if (canClose) {
    for (;;) {
      const at = findOpenEmphasis(stack, char);
      const entry = stack[at];
      if (entry === undefined || entry.kind !== "emphasis") break;
      if (remaining < entry.marker.length) break;
      stack.length = at;
      remaining -= entry.marker.length;
      closed = true;
      if (remaining === 0) break;
    }
  }
  if (remaining > 0 && canOpen) {
    let at = start + (char === "~" ? 0 : length - remaining);
    while (remaining >= 2) {
      stack.push({ kind: "emphasis", start: at, marker: char.repeat(2) });
      at += 2;
      remaining -= 2;
    }
    if (remaining === 1) stack.push({ kind: "emphasis", start: at, marker: char });
  }
  return closed;
}

function findOpenEmphasis(stack: readonly OpenInline[], char: string): number {
  for (let at = stack.length - 1; at >= 0; at -= 1) {
    const entry = stack[at];
    if (entry?.kind === "emphasis" && entry.marker[0] === char) return at;
  }
  return -1;
}

function runLength(text: string, start: number, char: string): number {
  let end = start;
  while (text[end] === char) end += 1;
  return end - start;
}

/** The start of the first run of exactly `length` backticks at or after `from`, or -1. */
function findBacktickRun(text: string, from: number, length: number): number {
  let index = from;
  while (index < text.length) {
    if (text[index] !== "`") {
      index += 1;
      continue;
    }
    const run = runLength(text, index, "`");
    if (run === length) return index;
    index += run;
  }
  return -1;
}
