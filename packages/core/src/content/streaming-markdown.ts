import { openFenceAtEnd } from "./streaming-markdown-fences.js";
import { closeOpenMarkdown, isMarkdownClosed } from "./streaming-markdown-repair.js";
import { withoutUnconfirmedTable, wrapTablesInFences } from "./streaming-markdown-tables.js";

/** Options of {@link StreamingMarkdownRenderer}. */
export interface StreamingMarkdownOptions {
  /**
   * Wrap confirmed tables in code fences in {@link StreamingMarkdownRenderer.getCommittableText},
   * for append-only platforms that cannot render GFM tables. Default true.
   */
  wrapTablesForAppend?: boolean;
}

/** Characters that may open an inline construct; where a committable prefix may be cut. */
const MARKER_CHARS = new Set(["*", "_", "~", "`", "["]);

/**
 * Accumulates a markdown stream (upstream's `StreamingMarkdownRenderer`) and answers, at any
 * moment, what is safe to show: {@link render} for a message edited in place (half-written
 * constructs closed, an unconfirmed table held back), {@link getCommittableText} for append-only
 * streaming (a prefix that only ever grows), {@link getText} for the final edit (the raw text).
 * Output is markdown; converting it to the platform's format stays the adapter's job.
 */
export class StreamingMarkdownRenderer {
  private text = "";
  private finished = false;
  private rendered: string | null = null;
  private readonly wrapTables: boolean;

  constructor(options: StreamingMarkdownOptions = {}) {
    this.wrapTables = options.wrapTablesForAppend ?? true;
  }

  /** Appends a chunk of the stream. */
  push(chunk: string): void {
    this.text += chunk;
    this.rendered = null;
  }

  /**
   * Markdown for an intermediate edit: trailing table-like rows are held back until a delimiter
   * row confirms them (not inside a code block, where pipes are text), and whatever is still
   * open is closed (`closeOpenMarkdown`). After {@link finish}, everything, closed. The same
   * string until the next {@link push}.
   */
  render(): string {
    if (this.rendered !== null) return this.rendered;
    const shown =
      this.finished || openFenceAtEnd(this.text) !== null
        ? this.text
        : withoutUnconfirmedTable(this.text);
    this.rendered = closeOpenMarkdown(shown);
    return this.rendered;
  }

  /**
   * Text for append-only streaming: every result starts with the previous one (until
   * {@link push} is called after {@link finish}). Only complete lines are committed (inside a
   * code block the unfinished line too, since its content is literal); unconfirmed table rows
   * wait; confirmed tables are wrapped in code fences (unless disabled), the fence left open
   * while the table grows; and the text is cut before any construct still open, so nothing needs
   * closing later. After {@link finish}: all of it, fences closed.
   */
  getCommittableText(): string {
    if (this.finished) return this.wrap(this.text, true);
    let text = this.text;
    if (!text.endsWith("\n")) {
      const complete = text.slice(0, text.lastIndexOf("\n") + 1);
      if (openFenceAtEnd(complete) !== null) return this.wrap(text, false);
      text = complete;
    }
    if (openFenceAtEnd(text) !== null) return this.wrap(text, false);
    const wrapped = this.wrap(withoutUnconfirmedTable(text), false);
    if (openFenceAtEnd(wrapped) !== null) return wrapped; // a table still growing: literal text
    return closedPrefix(wrapped);
  }

  /** Everything pushed so far, untouched: what the final edit posts. */
  getText(): string {
    return this.text;
  }

  /** Marks the stream ended: held rows are released. Returns the final {@link render}. */
  finish(): string {
    this.finished = true;
    this.rendered = null;
    return this.render();
  }

  private wrap(text: string, closeAtEnd: boolean): string {
    return this.wrapTables ? wrapTablesInFences(text, closeAtEnd) : text;
  }
}

/** The longest prefix of `text`, cut just before a marker, that has nothing left open. */
function closedPrefix(text: string): string {
  if (isMarkdownClosed(text)) return text;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    if (!MARKER_CHARS.has(text[index] as string)) continue;
    while (index > 0 && text[index - 1] === text[index]) index -= 1;
    const candidate = text.slice(0, index);
    if (isMarkdownClosed(candidate)) return candidate;
  }
  return "";
}
