import { describe, expect, it } from "vitest";
import { serverUrlsFromEnv } from "../src/backends.js";
import { throughputOf, throughputRatio } from "../src/rounds.js";
import { runBench } from "../src/run-bench.js";

describe("interleaved rounds", () => {
  it("alternates which implementation runs first and summarizes each by the median round", async () => {
    const results = await runBench({
      backends: ["memory"],
      scenarios: ["serial-drop"],
      messages: 4,
      warmupMessages: 0,
      rounds: 3,
      urls: serverUrlsFromEnv(),
    });

    expect(results.map((r) => `${r.round}:${r.implementation}`)).toEqual([
      "0:baton",
      "0:upstream",
      "1:upstream",
      "1:baton",
      "2:baton",
      "2:upstream",
    ]);
    const baton = throughputOf(results, "memory", "serial-drop", "baton");
    const rates = results
      .filter((r) => r.implementation === "baton")
      .map((r) => r.measurement.messagesPerSecond)
      .sort((a, b) => a - b);
    expect(baton?.rounds).toBe(3);
    expect(baton?.medianPerSecond).toBe(rates[1]);
    expect(baton?.minPerSecond).toBe(rates[0]);
    expect(baton?.maxPerSecond).toBe(rates[2]);
    const upstream = throughputOf(results, "memory", "serial-drop", "upstream");
    expect(throughputRatio(baton, upstream)).toBeCloseTo(
      (baton?.medianPerSecond ?? 0) / (upstream?.medianPerSecond ?? 1),
    );
  });

  it("refuses a round count that is not a positive integer", async () => {
    await expect(
      runBench({
        backends: ["memory"],
        scenarios: ["serial-drop"],
        messages: 1,
        warmupMessages: 0,
        rounds: 0,
        urls: serverUrlsFromEnv(),
      }),
    ).rejects.toThrow(/rounds/);
  });
});
