import type { ConformanceContext } from "./harness.js";

/** One behaviour every State backend must show. */
export interface ConformanceCase {
  /** The capability group ("locks", "queues", …), used as the describe block. */
  readonly group: string;
  /** A behaviour sentence; upstream's title verbatim where the case ports an upstream test. */
  readonly title: string;
  /** True when the case gets a backend that was never connected. */
  readonly startsDisconnected: boolean;
  /** Throws when the backend misbehaves. */
  run(context: ConformanceContext): Promise<void>;
}

/** Builds the cases of one group. */
export function defineCases(
  group: string,
  cases: Record<string, (context: ConformanceContext) => Promise<void>>,
  options: { startsDisconnected?: boolean } = {},
): ConformanceCase[] {
  const startsDisconnected = options.startsDisconnected ?? false;
  return Object.entries(cases).map(([title, run]) => ({ group, title, startsDisconnected, run }));
}
