import type { BenchResult } from "./run-bench.js";
import type { ScenarioMeasurement } from "./scenarios.js";

/** Round trips per message, 2 decimals: `4.00`; `–` on memory, which has no server. */
export function roundTripsPerMessage(result: BenchResult): string {
  if (result.backend === "memory") return "–";
  return (result.measurement.roundTrips.total / result.measurement.messages).toFixed(2);
}

/** State-adapter calls per message, 2 decimals. */
export function stateCallsPerMessage(measurement: ScenarioMeasurement): string {
  return (measurement.stateCallCount / measurement.messages).toFixed(2);
}

/** Messages per second, no decimals, with thousands separators. */
export function messagesPerSecond(measurement: ScenarioMeasurement): string {
  return Math.round(measurement.messagesPerSecond).toLocaleString("en-US");
}

/** A latency in milliseconds: 2 decimals below 10 ms, 1 above; `–` when not measured. */
export function milliseconds(value: number | undefined): string {
  if (value === undefined) return "–";
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

/**
 * A per-message mix of operations, largest first: `EVALSHA 2 · SET 1 · EXISTS 1`. Counts are
 * divided by the messages measured, one decimal when not whole.
 */
export function perMessageMix(counts: Readonly<Record<string, number>>, messages: number): string {
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  if (entries.length === 0) return "–";
  return entries
    .map(([name, count]) => {
      const perMessage = count / messages;
      const shown = Number.isInteger(perMessage) ? String(perMessage) : perMessage.toFixed(1);
      return `${name} ${shown}`;
    })
    .join(" · ");
}

/** What went wrong in a measurement, or `ok`. */
export function problems(measurement: ScenarioMeasurement): string {
  const found: string[] = [];
  if (measurement.failures > 0) found.push(`${measurement.failures} failed`);
  if (measurement.unanswered > 0) found.push(`${measurement.unanswered} unanswered`);
  if (measurement.answeredTwice > 0) found.push(`${measurement.answeredTwice} answered twice`);
  if (measurement.contenderWaitTimeouts > 0) {
    found.push(`${measurement.contenderWaitTimeouts} contender waits timed out`);
  }
  if ((measurement.connectionsOpened ?? 0) > 0) {
    found.push(`${measurement.connectionsOpened} connections opened in the window`);
  }
  return found.length === 0 ? "ok" : found.join(", ");
}

/** A plain-text table with left-aligned first columns and right-aligned numbers. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const numeric = header.map((_, column) =>
    rows.every((row) => /^[-–\d.,]+$/.test(row[column] ?? "")),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return numeric[column] ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join(
    "\n",
  );
}

/**
 * A Markdown table laid out the way Biome formats one (cells padded to the column's width,
 * numeric columns right-aligned), so the generated page passes `biome check` as written.
 */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const escape = (cell: string) => cell.replaceAll("|", "\\|");
  const cells = [header, ...rows].map((row) =>
    header.map((_, column) => escape(row[column] ?? "")),
  );
  const width = (text: string) => [...text].length;
  const widths = header.map((_, column) =>
    Math.max(3, ...cells.map((row) => width(row[column] ?? ""))),
  );
  const numeric = header.map((_, column) =>
    rows.every((row) => /^[-–\d.,]+$/.test(row[column] ?? "")),
  );
  const pad = (text: string, column: number) => {
    const fill = " ".repeat((widths[column] ?? 0) - width(text));
    return numeric[column] ? fill + text : text + fill;
  };
  const line = (row: readonly string[]) => `| ${row.map(pad).join(" | ")} |`;
  const rule = widths.map((w, column) =>
    numeric[column] ? `${"-".repeat(w - 1)}:` : "-".repeat(w),
  );
  const [head, ...body] = cells;
  return [line(head ?? []), `| ${rule.join(" | ")} |`, ...body.map(line)].join("\n");
}
