import { describe, expect, it } from "vitest";
import { measureHandOff, summarizeHandOff } from "../src/handoff-bench.js";
import { measureMemory } from "../src/memory-bench.js";
import { handOffSection, memorySection } from "../src/runtime-markdown.js";

// Proves the hand-off and memory scenarios run end to end with small sizes and report what they
// measured. No latency or byte count is asserted: on a busy 2-core machine those say nothing in a
// test; docs/benchmarks.md records them.
describe("the lock hand-off scenario", () => {
  it.each([
    ["baton", "same-instance"],
    ["upstream", "same-instance"],
    ["baton", "other-instance"],
  ] as const)(
    "hands every queued message on for %s (%s)",
    async (implementation, variant) => {
      const result = await measureHandOff(implementation, variant, 10);

      expect(result.missed).toBe(0);
      expect(result.latenciesMs).toHaveLength(10);
      for (const latencyMs of result.latenciesMs) expect(latencyMs).toBeGreaterThanOrEqual(0);
      const summary = summarizeHandOff(result);
      expect(summary?.p50Ms).toBeLessThanOrEqual(summary?.maxMs ?? Number.NaN);
      expect(handOffSection([result]).join("\n")).toContain(`\`${variant}\``);
    },
    60_000,
  );

  it("refuses the other-instance variant for upstream, which has no hand-off between instances", async () => {
    await expect(measureHandOff("upstream", "other-instance", 1)).rejects.toThrow(/Baton only/);
  });
});

describe("the memory scenario", () => {
  it("measures parked waiters, idle threads and a soak that answers every message", async () => {
    const report = await measureMemory({ parkedWaiters: 50, idleThreads: 50, soakMessages: 500 });

    expect(report.soakUnanswered).toBe(0);
    expect(report.soakMessages).toBe(500);
    for (const value of [
      report.bytesPerParkedWaiter,
      report.bytesPerIdleThread,
      report.bytesPerIdleThreadAfterTtl,
      report.soakBaselineBytes,
      report.soakAfterBytes,
    ]) {
      expect(Number.isFinite(value)).toBe(true);
    }
    expect(report.soakBaselineBytes).toBeGreaterThan(0);
    expect(memorySection(report).join("\n")).toContain("## Memory");
  }, 120_000);
});
