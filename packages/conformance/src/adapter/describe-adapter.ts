import { describe, it } from "vitest";
import { adapterConformanceCases } from "./cases.js";
import type { AdapterConformanceHarness } from "./harness.js";
import { runAdapterConformanceCase } from "./run-adapter-conformance.js";

/**
 * Registers the adapter conformance suite for one adapter with vitest: a describe block per
 * part of the contract, a test per behaviour, each on a fresh adapter and `Chat`. Call it once
 * at the top level of the adapter's test file.
 */
export function describeAdapter<TThreadData>(
  name: string,
  harness: AdapterConformanceHarness<TThreadData>,
): void {
  const timeoutMs = (harness.settleTimeoutMs ?? 5_000) * 2 + 5_000;
  const groups = [...new Set(adapterConformanceCases.map((testCase) => testCase.group))];
  describe(`Adapter conformance: ${name}`, () => {
    for (const group of groups) {
      describe(group, () => {
        for (const testCase of adapterConformanceCases.filter((c) => c.group === group)) {
          it(testCase.title, () => runAdapterConformanceCase(harness, testCase), timeoutMs);
        }
      });
    }
  });
}
