import {
  messagesPerSecond,
  milliseconds,
  problems,
  roundTripsPerMessage,
  stateCallsPerMessage,
  textTable,
} from "./format.js";
import { ratioText, throughputOf, throughputRatio, throughputText } from "./rounds.js";
import type { BenchResult } from "./run-bench.js";

/** The header of the console table (also used for one-line progress). */
const COLUMNS = [
  "backend",
  "scenario",
  "impl",
  "round",
  "msgs/s",
  "round trips/msg",
  "state calls/msg",
  "p50 ms",
  "p95 ms",
  "handler runs",
  "check",
] as const;

function row(result: BenchResult): string[] {
  const m = result.measurement;
  return [
    result.backend,
    result.scenario,
    result.implementation,
    String(result.round + 1),
    messagesPerSecond(m),
    roundTripsPerMessage(result),
    stateCallsPerMessage(m),
    milliseconds(m.latencyMs?.p50),
    milliseconds(m.latencyMs?.p95),
    String(m.handlerRuns),
    problems(m),
  ];
}

/** The results as a plain-text table for the terminal. */
export function consoleTable(results: readonly BenchResult[]): string {
  return textTable(COLUMNS, results.map(row));
}

/** One line per finished measurement, so a long run shows progress. */
export function progressLine(result: BenchResult): string {
  const cells = row(result);
  return COLUMNS.map((name, index) => `${name}=${cells[index]}`).join(" ");
}

/** Per backend and scenario: median (min–max) msgs/s of each implementation and their ratio. */
export function ratioTable(results: readonly BenchResult[]): string {
  const keys = [...new Set(results.map((r) => `${r.backend}\u0000${r.scenario}`))];
  const rows = keys.map((key) => {
    const [backend, scenario] = key.split("\u0000") as [
      BenchResult["backend"],
      BenchResult["scenario"],
    ];
    const baton = throughputOf(results, backend, scenario, "baton");
    const upstream = throughputOf(results, backend, scenario, "upstream");
    return [
      backend,
      scenario,
      throughputText(baton),
      throughputText(upstream),
      ratioText(throughputRatio(baton, upstream)),
    ];
  });
  return textTable(
    ["backend", "scenario", "baton msgs/s", "upstream msgs/s", "baton/upstream"],
    rows,
  );
}
