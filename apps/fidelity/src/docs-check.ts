import { REGENERATE_COMMAND, SUMMARY_COLUMNS, SUMMARY_HEADING } from "./render-markdown.js";
import type { FidelityReport } from "./run-fidelity.js";

/** The numbers of one row of the summary table. */
export interface DocumentedCounts {
  readonly total: number;
  readonly matched: number;
  readonly exact: number;
  readonly divergent: number;
  readonly deferred: number;
  readonly missing: number;
}

/** What comparing `docs/fidelity.md` with the current report found. */
export interface DocsCheck {
  /** The document claims more than is true, or its table is unreadable: the check fails. */
  readonly failures: string[];
  /** The document undersells the current state: regenerate it when convenient. */
  readonly hints: string[];
}

/**
 * Reads the summary table of `docs/fidelity.md` back: upstream file → its numbers. Returns
 * `undefined` when the document has no table in the expected shape.
 */
export function parseSummaryTable(markdown: string): Map<string, DocumentedCounts> | undefined {
  const lines = markdown.split("\n");
  const start = lines.indexOf(SUMMARY_HEADING);
  if (start < 0) return undefined;
  let first = start + 1;
  while (lines[first]?.trim() === "") first++;
  let end = first;
  while (lines[end]?.startsWith("|")) end++;
  const table = lines.slice(first, end);
  const cellsOf = (line: string) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
  const [header] = table;
  if (header === undefined || cellsOf(header).join("|") !== SUMMARY_COLUMNS.join("|")) {
    return undefined;
  }
  const rows = new Map<string, DocumentedCounts>();
  for (const line of table.slice(2)) {
    const cells = cellsOf(line);
    const file = /^`(.+)`$/.exec(cells[0] ?? "")?.[1];
    if (file === undefined) continue;
    const numbers = cells.slice(1).map(Number);
    if (numbers.length !== 6 || numbers.some((n) => !Number.isInteger(n))) return undefined;
    const [total, matched, exact, divergent, deferred, missing] = numbers as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    rows.set(file, { total, matched, exact, divergent, deferred, missing });
  }
  return rows;
}

/**
 * Checks `docs/fidelity.md` against the current report, by the numbers table only — the lists
 * below it name Baton files and move whenever tests move, which does not make the document wrong.
 *
 * The check fails when the document overstates: a file whose missing count is lower, or whose
 * matched count is higher, than the truth, a file missing from the table or one too many, or a
 * different number of upstream tests. When the document only understates (someone ported a test
 * and did not regenerate), it passes with a hint: two changes merged in either order must not
 * break the main branch, and an understating document misleads nobody into trusting a test that
 * is not there.
 */
export function checkDocs(markdown: string | undefined, report: FidelityReport): DocsCheck {
  const fix = `run \`${REGENERATE_COMMAND}\``;
  if (markdown === undefined)
    return { failures: [`docs/fidelity.md does not exist; ${fix}`], hints: [] };
  const documented = parseSummaryTable(markdown);
  if (documented === undefined) {
    return { failures: [`docs/fidelity.md has no readable summary table; ${fix}`], hints: [] };
  }
  const failures: string[] = [];
  const hints: string[] = [];
  for (const file of report.files) {
    const doc = documented.get(file.upstream);
    const now = file.counts;
    if (doc === undefined) {
      failures.push(`docs/fidelity.md: ${file.upstream} is not in the summary table; ${fix}`);
    } else if (doc.total !== now.total) {
      failures.push(
        `docs/fidelity.md: ${file.upstream} has ${doc.total} upstream tests there, ${now.total} now; ${fix}`,
      );
    } else if (doc.missing < now.missing || doc.matched > now.matched) {
      failures.push(
        `docs/fidelity.md is stale: ${file.upstream} shows ${doc.matched} matched / ${doc.missing} missing, ` +
          `but now ${now.matched} matched / ${now.missing} missing; ${fix}`,
      );
    } else if (
      doc.matched !== now.matched ||
      doc.exact !== now.exact ||
      doc.divergent !== now.divergent ||
      doc.deferred !== now.deferred ||
      doc.missing !== now.missing
    ) {
      hints.push(`docs/fidelity.md understates ${file.upstream} (it improved); ${fix}`);
    }
  }
  for (const file of documented.keys()) {
    if (!report.files.some((f) => f.upstream === file)) {
      failures.push(`docs/fidelity.md lists ${file}, which is no longer mapped; ${fix}`);
    }
  }
  return { failures, hints };
}
