import { describe, expect, it } from "vitest";
import { runSlackBench, summarizeSlack } from "../src/slack-bench.js";
import { slackSection } from "../src/slack-markdown.js";

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
