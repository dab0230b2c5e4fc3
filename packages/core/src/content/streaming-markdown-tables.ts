import { fenceAfterLine, type OpenFence } from "./streaming-markdown-fences.js";

const TABLE_ROW = /^\|.*\|$/;
const TABLE_SEPARATOR = /^\|(?:[ \t]*:?-+:?[ \t]*\|)+$/;

/** True for a trimmed line that looks like a GFM table row: `| … |`. */
export function isTableRow(trimmed: string): boolean {
  return TABLE_ROW.test(trimmed);
}

/** True for a trimmed GFM table delimiter row: `|---|:--:|`, `| - | - |`. */
export function isTableSeparator(trimmed: string): boolean {
  return TABLE_SEPARATOR.test(trimmed);
}

/** The complete lines of `text` (an unfinished last line is left out). */
function completeLines(text: string): string[] {
  const lines = text.split("\n");
  lines.pop(); // after the last newline: "" when text ends with one, else the unfinished line
  return lines;
}

/**
 * `text` without its trailing run of table-like rows while no delimiter row confirms them as a
 * table: `| A | B |` alone may be a table header or a line of text with pipes, and shown raw it
 * would flash as pipes. Only complete lines count; a blank line or a line of text ends the run.
 * When rows are held back, the unfinished last line goes with them.
 */
export function withoutUnconfirmedTable(text: string): string {
  const lines = completeLines(text);
  let held = 0;
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const trimmed = (lines[index] as string).trim();
    if (trimmed === "" || isTableSeparator(trimmed) || !isTableRow(trimmed)) {
      if (isTableSeparator(trimmed)) held = 0; // confirmed: every row above and below shows
      break;
    }
    held += 1;
  }
  if (held === 0) return text;
  const kept = lines.slice(0, lines.length - held);
  return kept.length === 0 ? "" : `${kept.join("\n")}\n`;
}

/**
 * Wraps every confirmed table (rows with a delimiter row among its first consecutive rows) in a
 * code fence, for append-only streaming where a platform cannot render a GFM table and pipes read
 * better as literal text. A table still growing at the end keeps its fence open so later rows only
 * append; `closeAtEnd` closes it (the stream ended). Tables inside the author's code blocks are
 * left alone.
 */
export function wrapTablesInFences(text: string, closeAtEnd: boolean): string {
  const endsWithNewline = text.endsWith("\n");
  const lines = text.split("\n");
  if (endsWithNewline) lines.pop();
  const out: string[] = [];
  let inTable = false;
  let userFence: OpenFence | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const trimmed = line.trim();
    if (!inTable) {
      const before = userFence;
      userFence = fenceAfterLine(userFence, line);
      if (before !== null || userFence !== null) {
        out.push(line);
        continue;
      }
    }
    const tableLine = trimmed !== "" && isTableRow(trimmed);
    if (tableLine && !inTable && confirmsTable(lines, index)) {
      out.push("```");
      inTable = true;
    } else if (!tableLine && inTable) {
      out.push("```");
      inTable = false;
    }
    out.push(line);
  }
  if (inTable && closeAtEnd) out.push("```");
  const joined = out.join("\n");
  return endsWithNewline ? `${joined}\n` : joined;
}

function confirmsTable(lines: readonly string[], from: number): boolean {
  for (let index = from; index < lines.length; index += 1) {
    const trimmed = (lines[index] as string).trim();
    if (isTableSeparator(trimmed)) return true;
    if (!isTableRow(trimmed)) return false;
  }
  return false;
}
