/** A fenced code block opened and not closed yet: its fence character and length. */
export interface OpenFence {
  readonly char: "`" | "~";
  readonly length: number;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The fence state after `line`, given the state before it (CommonMark's rules, simplified to
 * what streaming needs): outside a block, a line of three or more backticks or tildes (at most
 * three spaces in, no backtick in a backtick fence's info string) opens one; inside, a line of
 * the same character, at least as long and with nothing but spaces after it, closes it.
 */
export function fenceAfterLine(open: OpenFence | null, line: string): OpenFence | null {
  const match = FENCE_LINE.exec(line);
  if (match === null) return open;
  const run = match[1] as string;
  const rest = match[2] as string;
  const char = run[0] as "`" | "~";
  if (open === null) {
    if (char === "`" && rest.includes("`")) return null;
    return { char, length: run.length };
  }
  const closes = char === open.char && run.length >= open.length && rest.trim() === "";
  return closes ? null : open;
}

/**
 * The fenced code block `text` ends inside, or `null`. The last line counts even without its
 * newline, so a fence being typed (`` ``` ``) already opens or closes a block.
 */
export function openFenceAtEnd(text: string): OpenFence | null {
  let open: OpenFence | null = null;
  for (const line of text.split("\n")) open = fenceAfterLine(open, line);
  return open;
}

/** The line that closes `fence`. */
export function closingFenceLine(fence: OpenFence): string {
  return fence.char.repeat(fence.length);
}
