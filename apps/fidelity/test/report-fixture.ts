import type { Counts, TitleResult } from "../src/match.js";
import { sumCounts } from "../src/match.js";
import type { FidelityReport } from "../src/run-fidelity.js";

/** A report in which each named upstream file has 10 tests, the first `missing` of them missing. */
export function reportWith(files: Record<string, number>): FidelityReport {
  const reports = Object.entries(files).map(([upstream, missing]) => {
    const results: TitleResult[] = Array.from({ length: 10 }, (_, i) =>
      i < missing
        ? { test: { describe: ["Chat"], title: `test ${i}` }, status: "missing" }
        : { test: { describe: ["Chat"], title: `test ${i}` }, status: "matched", exactPath: true },
    );
    const matched = 10 - missing;
    const counts: Counts = {
      total: 10,
      matched,
      exact: matched,
      divergent: 0,
      deferred: 0,
      missing,
    };
    return { upstream, batonFiles: [], results, counts, stale: [] };
  });
  return {
    source: "a test",
    files: reports,
    totals: sumCounts(reports.map((file) => file.counts)),
    problems: [],
    warnings: [],
  };
}
