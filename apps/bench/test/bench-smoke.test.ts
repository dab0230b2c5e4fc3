import { describe, expect, it } from "vitest";
import { serverUrlsFromEnv } from "../src/backends.js";
import { BACKENDS, messagesOn, runBench } from "../src/run-bench.js";
import { SCENARIO_NAMES } from "../src/scenarios.js";

// Proves the bench still runs end to end against the real servers, with a handful of messages.
// No timing is asserted: on a busy 2-core machine timings say nothing. An unreachable server
// makes openBackend throw, so these tests fail rather than skip (DESIGN §10).
const urls = serverUrlsFromEnv();

describe.each(BACKENDS)("the %s benchmark", (backend) => {
  it.each(SCENARIO_NAMES)(
    "runs %s for Baton and upstream and answers every message exactly once",
    async (scenario) => {
      const results = await runBench({
        backends: [backend],
        scenarios: [scenario],
        messages: 5,
        warmupMessages: 0,
        urls,
      });

      expect(results.map((result) => result.implementation).sort()).toEqual(["baton", "upstream"]);
      for (const { implementation, measurement } of results) {
        const label = `${implementation} on ${backend}, ${scenario}`;
        // A memory run measures MEMORY_MESSAGE_FACTOR times as many as a server run.
        expect(measurement.messages, label).toBe(messagesOn(backend, 5));
        expect(measurement.failures, label).toBe(0);
        expect(measurement.unanswered, label).toBe(0);
        expect(measurement.answeredTwice, label).toBe(0);
        expect(measurement.contenderWaitTimeouts, label).toBe(0);
        expect(measurement.handlerRuns, label).toBeGreaterThan(0);
        expect(measurement.stateCallCount, label).toBeGreaterThan(0);
        if (backend === "memory") {
          expect(measurement.roundTrips.total, label).toBe(0);
        } else {
          expect(Number.isInteger(measurement.roundTrips.total), label).toBe(true);
          expect(measurement.roundTrips.total, label).toBeGreaterThan(0);
        }
      }
    },
    20_000,
  );
});
