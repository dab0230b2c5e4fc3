/** Resolves outbound `@name` mentions in a piece of text (the adapter's `resolveText`). */
export type ResolveMentions = (text: string) => Promise<string>;

const FENCE = /^(`{3,}|~{3,})/;

/**
 * Whether the text read so far is inside a fenced code block, tracked over whole lines: a line
 * opening with three or more backticks (or tildes) opens a block; one with at least as many of
 * the same character and nothing after them closes it.
 */
class FenceState {
  private line = "";
  private open: { readonly char: string; readonly length: number } | undefined;

  /** True when the line being read started inside a fenced block. */
  get inside(): boolean {
    return this.open !== undefined;
  }

  /** Reads `text`; the state changes only as lines complete. */
  push(text: string): void {
    const lines = `${this.line}${text}`.split("\n");
    this.line = lines.pop() ?? "";
    for (const line of lines) this.track(line.trimStart());
  }

  private track(line: string): void {
    const marker = FENCE.exec(line)?.[1];
    if (marker === undefined) return;
    const char = marker[0] as string;
    if (this.open === undefined) {
      this.open = { char, length: marker.length };
    } else if (
      char === this.open.char &&
      marker.length >= this.open.length &&
      line.slice(marker.length).trim() === ""
    ) {
      this.open = undefined;
    }
  }
}

/**
 * Where the text read so far can be cut so that no mention, code span or Slack token (`<…>`) is
 * split: after the last line break, and further to the last whitespace of the unfinished line
 * when that line holds no backtick, tilde or unclosed `<`. What follows the cut waits for more.
 */
function safeCut(text: string): number {
  const lineStart = text.lastIndexOf("\n") + 1;
  const tail = text.slice(lineStart);
  if (/[`~]/.test(tail) || tail.lastIndexOf("<") > tail.lastIndexOf(">")) return lineStart;
  const lastSpace = Math.max(tail.lastIndexOf(" "), tail.lastIndexOf("\t"));
  return lastSpace < 0 ? lineStart : lineStart + lastSpace + 1;
}

/**
 * The text of a native stream between Slack calls: the markdown read but not yet sent, handed
 * out in pieces that are safe to send (see {@link safeCut}) with bare `@name` mentions resolved
 * outside fenced code blocks. Text inside a fenced block is sent as written.
 */
export class NativeStreamText {
  private pending = "";
  private readonly fence = new FenceState();

  constructor(private readonly resolve: ResolveMentions) {}

  /** Adds text read from the stream. */
  push(text: string): void {
    this.pending += text;
  }

  /** True while read text waits to be sent. */
  get hasPending(): boolean {
    return this.pending !== "";
  }

  /**
   * The text ready to go to Slack, resolved, and forgets it: what is safe to cut, or with
   * `final` everything. `""` when nothing is ready.
   */
  async take(final: boolean): Promise<string> {
    const cut = final ? this.pending.length : safeCut(this.pending);
    const raw = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    if (raw === "") return "";
    let out = "";
    let run = "";
    let runInside = this.fence.inside;
    for (const piece of raw.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      const inside = this.fence.inside;
      if (inside !== runInside && run !== "") {
        out += runInside ? run : await this.resolve(run);
        run = "";
      }
      runInside = inside;
      run += piece;
      this.fence.push(piece);
    }
    if (run === "" || runInside) return out + run;
    return out + (await this.resolve(run));
  }
}
