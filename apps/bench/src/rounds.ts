import type { BackendName, Implementation } from "./bench-bot.js";
import type { BenchResult } from "./run-bench.js";
import type { ScenarioName } from "./scenarios.js";
import { quantile } from "./stats.js";

/** One implementation's msgs/s over every round of one scenario on one backend. */
export interface Throughput {
  readonly rounds: number;
  /** Nearest-rank median of the rounds' msgs/s: a round that was actually measured. */
  readonly medianPerSecond: number;
  readonly minPerSecond: number;
  readonly maxPerSecond: number;
  /** Median over the rounds of each round's p50 latency; undefined for contended scenarios. */
  readonly p50Ms: number | undefined;
  /** Median over the rounds of each round's p95 latency. */
  readonly p95Ms: number | undefined;
  /** Every round's measurement, in round order (for the check column). */
  readonly results: readonly BenchResult[];
}

/** The rounds of `implementation` in `scenario` on `backend`, summarized; undefined if none ran. */
export function throughputOf(
  results: readonly BenchResult[],
  backend: BackendName,
  scenario: ScenarioName,
  implementation: Implementation,
): Throughput | undefined {
  const mine = results
    .filter(
      (r) =>
        r.backend === backend && r.scenario === scenario && r.implementation === implementation,
    )
    .sort((a, b) => a.round - b.round);
  if (mine.length === 0) return undefined;
  const rates = mine.map((r) => r.measurement.messagesPerSecond);
  const latency = (pick: "p50" | "p95") => {
    const values = mine.flatMap((r) =>
      r.measurement.latencyMs ? [r.measurement.latencyMs[pick]] : [],
    );
    return quantile(values, 0.5);
  };
  return {
    rounds: mine.length,
    medianPerSecond: quantile(rates, 0.5) ?? 0,
    minPerSecond: Math.min(...rates),
    maxPerSecond: Math.max(...rates),
    p50Ms: latency("p50"),
    p95Ms: latency("p95"),
    results: mine,
  };
}

/** Baton's median msgs/s over upstream's, or undefined when either is missing. */
export function throughputRatio(
  baton: Throughput | undefined,
  upstream: Throughput | undefined,
): number | undefined {
  if (!baton || !upstream || upstream.medianPerSecond === 0) return undefined;
  return baton.medianPerSecond / upstream.medianPerSecond;
}

/** `1.23×`, or `–`. */
export function ratioText(ratio: number | undefined): string {
  return ratio === undefined ? "–" : `${ratio.toFixed(2)}×`;
}

/** `12,345 (11,002–13,870)`: median and range of the rounds. */
export function throughputText(throughput: Throughput | undefined): string {
  if (!throughput) return "–";
  const n = (value: number) => Math.round(value).toLocaleString("en-US");
  if (throughput.rounds === 1) return n(throughput.medianPerSecond);
  return `${n(throughput.medianPerSecond)} (${n(throughput.minPerSecond)}–${n(throughput.maxPerSecond)})`;
}
