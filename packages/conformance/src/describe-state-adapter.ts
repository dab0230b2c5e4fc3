import { describe, it } from "vitest";
import { stateConformanceCases } from "./cases/index.js";
import type { StateConformanceHarness } from "./harness.js";
import { runConformanceCase } from "./run-state-conformance.js";

/** Options of {@link describeStateAdapter}. */
export interface DescribeStateAdapterOptions {
  /** Per-test timeout. Default: enough for ten waits of the harness's `shortTtlMs`, plus 5 s. */
  testTimeoutMs?: number;
}

/**
 * Registers the whole State conformance suite for one backend with vitest: a describe block per
 * capability group, a test per behaviour, each on a fresh backend from `harness`. Call it once at
 * the top level of the backend's test file.
 */
export function describeStateAdapter(
  name: string,
  harness: StateConformanceHarness,
  options: DescribeStateAdapterOptions = {},
): void {
  const timeoutMs = options.testTimeoutMs ?? (harness.shortTtlMs ?? 1_000) * 10 + 5_000;
  const groups = [...new Set(stateConformanceCases.map((testCase) => testCase.group))];
  describe(`State conformance: ${name}`, () => {
    for (const group of groups) {
      describe(group, () => {
        for (const testCase of stateConformanceCases.filter((c) => c.group === group)) {
          it(testCase.title, () => runConformanceCase(harness, testCase), timeoutMs);
        }
      });
    }
  });
}
