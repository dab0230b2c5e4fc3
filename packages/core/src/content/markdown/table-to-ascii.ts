import type { Table } from "mdast";
import { toPlainText } from "./plain-text.js";

/**
 * A GFM table as monospace text, for platforms without tables: the first row is the header, a
 * dashed line follows it, columns are padded to their widest cell and separated by ` | `. An empty
 * table gives `""`. Cells are reduced to their plain text.
 */
export function tableToAscii(table: Table): string {
  const [header, ...body] = table.children.map((row) =>
    row.children.map((cell) => toPlainText(cell).trim()),
  );
  if (header === undefined) return "";
  return tableElementToAscii(header, body);
}

/**
 * `headers` and `rows` of plain strings as monospace text, in {@link tableToAscii}'s layout (a
 * card's `Table` uses it for its text fallback). Short rows are padded with empty cells; lines
 * have no trailing spaces.
 */
export function tableElementToAscii(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const columnCount = Math.max(headers.length, ...rows.map((row) => row.length));
  if (columnCount === 0) return "";
  const widths = Array.from({ length: columnCount }, (_, column) =>
    Math.max(...[headers, ...rows].map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    widths
      .map((width, column) => (cells[column] ?? "").padEnd(width))
      .join(" | ")
      .trimEnd();
  const separator = widths.map((width) => "-".repeat(width)).join("-|-");
  return [line(headers), separator, ...rows.map(line)].join("\n");
}
