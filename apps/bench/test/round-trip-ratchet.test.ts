import { describe, expect, it } from "vitest";
import { serverUrlsFromEnv } from "../src/backends.js";
import { runBench } from "../src/run-bench.js";
import type { ScenarioName } from "../src/scenarios.js";

// Round trips per message depend on the code, not on the machine, so they can be asserted where
// timings cannot. This is a ratchet: a change that adds a round trip to an uncontended message
// fails here; a change that removes one lowers the number below (never raise it to make a test
// pass — say why in the commit if a guarantee really costs one more). The contended scenario is
// left out: how its batches split depends on scheduling.
const urls = serverUrlsFromEnv();

/** The most round trips one uncontended message may cost, per server backend and scenario. */
const MAX_ROUND_TRIPS_PER_MESSAGE: Readonly<
  Record<"redis" | "postgres", Partial<Record<ScenarioName, number>>>
> = {
  redis: { "serial-drop": 2, "serial-queue": 2, "parallel-drop": 2 },
  postgres: { "serial-drop": 2, "serial-queue": 2, "parallel-drop": 2 },
};

const MESSAGES = 20;

// Postgres is measured on both clients while @baton/state-pg has both (issue 26): node-postgres,
// and postgres.js, whose counter counts statements off the wire (counting-sql.ts).
const ROUTES = [
  ["redis", "redis", urls],
  ["postgres", "postgres", urls],
  ["postgres on postgres.js", "postgres", { ...urls, postgresClient: "postgres" }],
] as const;

describe.each(ROUTES)("round trips per message on %s", (_label, backend, routeUrls) => {
  const limits = MAX_ROUND_TRIPS_PER_MESSAGE[backend];
  it.each(Object.entries(limits) as [ScenarioName, number][])(
    "%s costs Baton at most %d round trips per uncontended message",
    async (scenario, limit) => {
      const [result] = await runBench({
        backends: [backend],
        scenarios: [scenario],
        implementations: ["baton"],
        messages: MESSAGES,
        warmupMessages: 2,
        urls: routeUrls,
      });

      expect(result?.measurement.messages).toBe(MESSAGES);
      expect(result?.measurement.unanswered).toBe(0);
      const perMessage = (result?.measurement.roundTrips.total ?? Number.NaN) / MESSAGES;
      expect(perMessage, `round trips per message (${scenario} on ${backend})`).toBeLessThanOrEqual(
        limit,
      );
    },
    30_000,
  );
});
