import { countCells, SUMMARY_COLUMNS } from "./render-markdown.js";
import type { FidelityReport } from "./run-fidelity.js";

/** The numbers table as aligned plain text, for the terminal. */
export function renderTable(report: FidelityReport): string {
  const rows = [
    [...SUMMARY_COLUMNS],
    ...report.files.map((file) => [file.upstream, ...countCells(file.counts)]),
    ["Total", ...countCells(report.totals)],
  ];
  const widths = SUMMARY_COLUMNS.map((_, column) =>
    Math.max(...rows.map((cells) => (cells[column] ?? "").length)),
  );
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  const [header, ...body] = rows;
  const total = body.pop() ?? [];
  return [format(header ?? []), rule, ...body.map(format), rule, format(total)].join("\n");
}
