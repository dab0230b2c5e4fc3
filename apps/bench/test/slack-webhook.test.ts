import { describe, expect, it } from "vitest";
import { runSlackBench, summarizeSlack } from "../src/slack-bench.js";
import { replaceSlackSection, slackSection } from "../src/slack-markdown.js";

// Proves the Slack webhook scenario runs end to end for both implementations on a small burst.
// No timing is asserted; the lookup counts are deterministic and are what the section reports.
describe("the Slack webhook benchmark", () => {
  it("answers every signed mention of a burst with 200 and runs each handler once, on both", async () => {
    const results = await runSlackBench({ mentions: 12, handlerMs: 5, rounds: 2 });

    expect(results.map((r) => `${r.round}:${r.measurement.implementation}`)).toEqual([
      "0:baton",
      "0:upstream",
      "1:upstream",
      "1:baton",
    ]);
    for (const { measurement } of results) {
      const label = measurement.implementation;
      expect(measurement.answered, label).toBe(12);
      expect(measurement.handled, label).toBe(12);
      expect(measurement.p99Ms, label).toBeGreaterThanOrEqual(measurement.p50Ms);
    }
    // Baton reads the sender from the event and never asks Slack who sent it before answering.
    expect(summarizeSlack(results, "baton")?.usersInfoPerUser).toBeLessThanOrEqual(1);
    const section = slackSection({ results, mentions: 12, handlerMs: 5 }).join("\n\n");
    expect(section).toContain("## Slack webhook");
    expect(section).toMatch(/\| baton +\| +2 \| .* \| ok +\|/);
    expect(section).toMatch(/\| upstream +\| +2 \| .* \| ok +\|/);
  }, 120_000);
});

describe("the Slack-only run's report", () => {
  const page = (slack: string) =>
    `# Benchmarks\n\n## Throughput and latency\n\ntable\n\n${slack}## Caveats\n\n- busy\n`;

  it("replaces only the Slack webhook section, keeping the sections around it", () => {
    const before = page("## Slack webhook\n\nold numbers\n\nold note\n\n");
    const after = replaceSlackSection(before, ["## Slack webhook", "new numbers"]);
    expect(after).toBe(page("## Slack webhook\n\nnew numbers\n\n"));
  });

  it("puts the section before the caveats of a page without one, and refuses a page with neither", () => {
    expect(replaceSlackSection(page(""), ["## Slack webhook", "numbers"])).toBe(
      page("## Slack webhook\n\nnumbers\n\n"),
    );
    expect(() => replaceSlackSection("# Benchmarks\n", ["## Slack webhook"])).toThrow(
      /neither a Slack webhook section nor a Caveats section/,
    );
  });

  it("says when, at what load and on which revision a Slack-only run measured", () => {
    const measurement = (implementation: "baton" | "upstream", p99Ms: number) => ({
      implementation,
      mentions: 3,
      answered: 3,
      handled: 3,
      p50Ms: p99Ms / 2,
      p99Ms,
      maxMs: p99Ms,
      usersInfoCalls: implementation === "baton" ? 1 : 3,
      slackCalls: {},
      users: 1,
    });
    const section = slackSection({
      results: [
        { round: 0, measurement: measurement("baton", 20) },
        { round: 0, measurement: measurement("upstream", 100) },
      ],
      mentions: 3,
      handlerMs: 1,
      alone: { date: "2026-12-04T08:00:00.000Z", loadAverage: 2.5, batonRevision: "`abc1234`" },
    });
    expect(section[0]).toBe("## Slack webhook");
    expect(section[1]).toContain("`pnpm --filter @baton/bench bench -- --slack-only`");
    expect(section[1]).toContain("on 2026-12-04T08:00:00.000Z, 1-minute load average 2.50");
    expect(section[1]).toContain("Baton at `abc1234`");
    expect(section.join("\n")).toContain("**0.20×** upstream's (goal ≤ 0.25×: met)");
  });
});
