import {
  closingFenceLine,
  fenceAfterLine,
  type OpenFence,
  openFenceAtEnd,
} from "./streaming-markdown-fences.js";
import { type OpenInline, scanInline } from "./streaming-markdown-inline.js";

/**
 * Closes what a markdown prefix left open, so a half-written message renders as what it is
 * becoming instead of as broken syntax: an open code fence gets its closing line; in the last
 * paragraph, open code spans, `**`, `*`, `__`, `_` and `~~` get their closers; a link still
 * being written shows its text only (`[te` → `te`, `[text](http` → `text`), an image nothing; a
 * marker whose text has not arrived (`Hello **`) and a trailing `-`/`=` line that would turn the
 * paragraph above into a heading are dropped. Text that is already closed comes back unchanged,
 * and the result is always closed: `closeOpenMarkdown(closeOpenMarkdown(x))` equals
 * `closeOpenMarkdown(x)`. Pure; meant for intermediate edits, never for the final text.
 */
export function closeOpenMarkdown(text: string): string {
  const fence = openFenceAtEnd(text);
  if (fence !== null) return `${text}${text.endsWith("\n") ? "" : "\n"}${closingFenceLine(fence)}`;
  const start = lastBlockStart(text);
  const head = text.slice(0, start);
  const tail = text.slice(start);
  const repaired = repairParagraph(tail);
  if (repaired === tail) return text;
  if (isClosed(head + repaired)) return head + repaired;
  // A repair that is not closed itself (markers colliding with their closers, a removed bracket
  // turning `~~~` into a fence): give up the end of the paragraph, one character at a time,
  // until what is left repairs cleanly. `head` alone always is.
  for (let cut = tail.length - 1; cut > 0; cut -= 1) {
    const candidate = head + repairParagraph(tail.slice(0, cut));
    if (isClosed(candidate)) return candidate;
  }
  return head;
}

/** True when {@link closeOpenMarkdown} would return `text` unchanged. */
export function isMarkdownClosed(text: string): boolean {
  return closeOpenMarkdown(text) === text;
}

/** No fence open at the end, and nothing to repair in the last block. */
function isClosed(text: string): boolean {
  if (openFenceAtEnd(text) !== null) return false;
  const tail = text.slice(lastBlockStart(text));
  return repairParagraph(tail) === tail;
}

/**
 * Where the last block of `text` starts: after its last blank line or closing fence outside a
 * code block. Inline constructs never span a block boundary, so only that block can hold one
 * still open. `text` must not end inside a fence.
 */
function lastBlockStart(text: string): number {
  let open: OpenFence | null = null;
  let start = 0;
  let offset = 0;
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    const next = offset + line.length + 1;
    const before = open;
    open = fenceAfterLine(open, line);
    const closedFence = before !== null && open === null;
    // Only a finished line (one with its newline) can be the blank line that ends a block.
    const blank = index < lines.length - 1 && before === null && line.trim() === "";
    if (closedFence || blank) {
      start = Math.min(next, text.length);
    }
    offset = next;
  }
  return start;
}

const HEADING_UNDERLINE = /^ {0,3}(?:-+|=+)[ \t]*$/;

function repairParagraph(paragraph: string): string {
  const text = withoutPendingUnderline(paragraph);
  const scan = scanInline(text);
  if (scan.open.length === 0 && scan.danglingStart === -1) return text;
  const contentEnd = text.trimEnd().length;
  let body = text.slice(0, scan.danglingStart === -1 ? contentEnd : scan.danglingStart);
  let trailing = text.slice(contentEnd);
  let closers = "";
  for (const open of [...scan.open].reverse()) {
    const repaired = repairOne(body, open);
    body = repaired.body;
    closers += repaired.closer;
  }
  if (closers === "") return body + trailing;
  const trimmed = body.trimEnd();
  trailing = body.slice(trimmed.length) + trailing;
  body = trimmed;
  if (/(?:^|[^\\])(?:\\\\)*\\$/.test(body)) body = body.slice(0, -1); // a lone `\` would escape the closer
  return body + closers + trailing;
}

/** A last line of only `-` or `=` under text would make that text a heading until it grows. */
function withoutPendingUnderline(paragraph: string): string {
  if (paragraph.endsWith("\n")) return paragraph;
  const newline = paragraph.lastIndexOf("\n");
  if (newline === -1) return paragraph;
  const last = paragraph.slice(newline + 1);
  if (!HEADING_UNDERLINE.test(last) || paragraph.slice(0, newline).trim() === "") return paragraph;
  return paragraph.slice(0, newline + 1);
}

function repairOne(body: string, open: OpenInline): { body: string; closer: string } {
  switch (open.kind) {
    case "code": {
      const contentStart = open.start + open.length;
      if (body.slice(contentStart).trim() === "")
        return { body: body.slice(0, open.start), closer: "" };
      const pad = body.endsWith("`") ? " " : "";
      return { body, closer: `${pad}${"`".repeat(open.length)}` };
    }
    case "emphasis": {
      const contentStart = open.start + open.marker.length;
      if (body.slice(contentStart).trim() === "") {
        return { body: body.slice(0, open.start) + body.slice(contentStart), closer: "" };
      }
      return { body, closer: open.marker };
    }
    case "link": {
      const textStart = open.start + (open.image ? 2 : 1);
      if (open.textEnd === undefined) {
        // Still in the link text: show the text, not the bracket; an image shows nothing yet.
        const rest = open.image ? "" : body.slice(textStart);
        return { body: body.slice(0, open.start) + rest, closer: "" };
      }
      const shown = open.image ? "" : body.slice(textStart, open.textEnd);
      return { body: body.slice(0, open.start) + shown, closer: "" };
    }
  }
}
