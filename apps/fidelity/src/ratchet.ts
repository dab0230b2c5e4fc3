import { readFileSync, writeFileSync } from "node:fs";
import type { FidelityReport } from "./run-fidelity.js";

/** The command that rewrites the baseline. */
export const UPDATE_BASELINE_COMMAND = "pnpm --filter @baton/fidelity fidelity --update-baseline";

/** `apps/fidelity/baseline.json`: the number of missing upstream titles allowed per mapped file. */
export interface Baseline {
  readonly missing: Readonly<Record<string, number>>;
}

/** What comparing a report with the baseline found. */
export interface RatchetResult {
  /** A count rose, or a mapped file has no baseline: the check fails. */
  readonly failures: string[];
  /** A count fell, or the baseline names a file no longer mapped: lower or tidy the baseline. */
  readonly hints: string[];
}

/** Reads the baseline; throws with the path when it is missing or malformed. */
export function readBaseline(path: string): Baseline {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`read fidelity baseline ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const missing = (parsed as { missing?: unknown }).missing;
  const valid =
    typeof missing === "object" &&
    missing !== null &&
    Object.values(missing).every((count) => Number.isInteger(count) && (count as number) >= 0);
  if (!valid) throw new Error(`fidelity baseline ${path}: "missing" must map files to counts`);
  return { missing: missing as Record<string, number> };
}

/** The baseline that records `report`'s missing counts. */
export function baselineOf(report: FidelityReport): Baseline {
  return {
    missing: Object.fromEntries(report.files.map((file) => [file.upstream, file.counts.missing])),
  };
}

/** Writes `baseline` as stable, commented JSON. */
export function writeBaseline(path: string, baseline: Baseline): void {
  const body = {
    $comment: `Missing upstream test titles per mapped upstream file. They may only go down: apps/fidelity/test/ratchet.test.ts fails when one rises. Lower them with \`${UPDATE_BASELINE_COMMAND}\`.`,
    missing: baseline.missing,
  };
  writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`);
}

/**
 * Compares a report with the baseline: a file whose missing count rose fails, naming the file,
 * both numbers and the titles missing now; a count that fell only asks for the baseline to be
 * lowered, so a port never breaks the build.
 */
export function compareWithBaseline(report: FidelityReport, baseline: Baseline): RatchetResult {
  const failures: string[] = [];
  const hints: string[] = [];
  for (const file of report.files) {
    const now = file.counts.missing;
    const allowed = baseline.missing[file.upstream];
    if (allowed === undefined) {
      failures.push(
        `${file.upstream}: not in the fidelity baseline (${now} missing); record it with \`${UPDATE_BASELINE_COMMAND}\``,
      );
    } else if (now > allowed) {
      const titles = file.results
        .filter((result) => result.status === "missing")
        .map((result) => `    - ${[...result.test.describe, result.test.title].join(" › ")}`);
      failures.push(
        [
          `${file.upstream}: ${now} missing upstream titles, baseline ${allowed} (+${now - allowed}).`,
          "  A test that ported an upstream behaviour lost its upstream title, or a mapped test was removed.",
          "  Keep the upstream title verbatim, or list the test in apps/fidelity/src/divergences/ with a reason.",
          "  Missing now:",
          ...titles,
        ].join("\n"),
      );
    } else if (now < allowed) {
      hints.push(
        `${file.upstream}: ${now} missing, baseline ${allowed} — lower the baseline: \`${UPDATE_BASELINE_COMMAND}\``,
      );
    }
  }
  for (const file of Object.keys(baseline.missing)) {
    if (!report.files.some((f) => f.upstream === file)) {
      hints.push(
        `${file}: in the baseline but no longer mapped — \`${UPDATE_BASELINE_COMMAND}\` drops it`,
      );
    }
  }
  return { failures, hints };
}
