import { describe, it } from "vitest";
import type { BackendKind } from "../src/backends.js";
import { pause, seededRandom, type WorkerHandle, waitFor } from "../src/cluster.js";
import { Fleet } from "../src/fleet.js";
import { checkDurableInvariants, matchRuns } from "../src/invariants.js";
import type { HandlerPlan } from "../src/protocol.js";

// A rolling deploy (docs/durable-turns.md §3) under a steady stream of mentions: three instances,
// each SIGTERMed in turn (chat.shutdown()) after its replacement started, while 60 messages
// arrive on 20 threads and handlers run 300–800 ms. Most handlers throw when their signal aborts
// (their turns are handed back), some return early, some ignore the signal and finish within the
// shutdown deadline. Deliveries refused by a stopping instance are delivered again elsewhere, as
// a platform retries.
const MESSAGES = 60;
const THREADS = 20;
const LOCK_TTL_MS = 1_000;
const SWEEP_INTERVAL_MS = 250;
const MAX_ATTEMPTS = 3;

const ENGINES: ReadonlyArray<readonly [BackendKind, string, number]> = [
  ["redis", "Redis", 20_261_206],
  ["redis-cluster", "Redis Cluster", 20_261_208],
  ["postgres", "Postgres", 20_261_207],
  ["pgbouncer", "Postgres behind PgBouncer", 20_261_209],
];

describe.concurrent("a rolling restart of three instances under a stream of mentions", () => {
  for (const [kind, engine, seed] of ENGINES) {
    it(`${engine}: one terminal disposition per message, no overlap on a lock key, at most ${MAX_ATTEMPTS} runs per turn`, async (test) => {
      const { expect } = test;
      const fleet = await Fleet.open(
        kind,
        {
          strategy: "queue",
          lockTtlMs: LOCK_TTL_MS,
          sweepIntervalMs: SWEEP_INTERVAL_MS,
          debounceMs: 300,
          durableTurns: { maxAttempts: MAX_ATTEMPTS },
          shutdownTimeoutMs: 5_000,
        },
        test,
      );
      const t0 = Date.now();
      const phase = (what: string) => {
        if (process.env.BATON_DURABLE_DEBUG)
          console.log(`${engine} ${Date.now() - t0} ms: ${what}`);
      };
      await fleet.start(["w0", "w1", "w2"]);
      phase("started");
      const random = seededRandom(seed);
      const plans = new Map<string, HandlerPlan>();
      const answers: Array<Promise<string>> = [];
      let sent = 0;
      let streamDone = false;

      const stream = (async () => {
        for (let i = 0; i < MESSAGES; i += 1) {
          const id = `m${i}`;
          const threadId = `mock:C1:T${Math.floor(random() * THREADS)}`;
          const roll = random();
          const plan: HandlerPlan = {
            durationMs: 300 + Math.floor(random() * 500),
            fails: false,
            onAbort: roll < 0.7 ? "throw" : roll < 0.85 ? "return" : "ignore",
          };
          plans.set(id, plan);
          const pick = random();
          answers.push(
            fleet.deliverUntilAnswered(id, threadId, plan, (live) =>
              live.length === 0 ? undefined : live[Math.floor(pick * live.length)],
            ),
          );
          sent += 1;
          await pause(150 + Math.floor(random() * 200));
        }
      })().then(() => {
        streamDone = true;
        phase("stream sent");
      });

      /** True while `worker` runs a handler that will throw on the shutdown abort. */
      const runsAThrowingHandler = (worker: WorkerHandle) =>
        matchRuns(fleet.entries()).some(
          ({ start, end }) =>
            start.worker === worker.config.name &&
            end === undefined &&
            plans.get(start.messageId)?.onAbort === "throw",
        );
      const restarts = (async () => {
        await waitFor("the stream to be under way", () => sent >= 10, 60_000);
        for (let generation = 0; generation < 3; generation += 1) {
          // The replacement first (a surge instance), then the old one stops.
          await fleet.start([`w${generation + 3}`]);
          const old = fleet.worker(`w${generation}`);
          // Stop it mid-handler, as a deploy does at a random moment: wait (bounded, and only
          // while messages still come) until one of its handlers runs, so the stop interrupts
          // a turn.
          await waitFor(
            "a handler to run on the old instance",
            () => streamDone || runsAThrowingHandler(old),
            10_000,
          ).catch(() => {});
          phase(`terminating w${generation}`);
          await fleet.terminate(old);
          phase(`w${generation} exited`);
        }
      })();

      await Promise.all([stream, restarts]);
      const outcomes = await Promise.all(answers);
      expect(outcomes.filter((outcome) => outcome.startsWith("failed"))).toEqual([]);
      const ids = [...plans.keys()];
      const report = () =>
        checkDurableInvariants(fleet.entries(), ids, {
          maxAttempts: MAX_ATTEMPTS,
          diedAtMs: fleet.diedAtMs,
        });
      await waitFor(
        "every message to reach one terminal disposition",
        () => report().problems.length === 0,
        60_000,
      ).catch(() => {});
      phase("settled");
      await Promise.all(fleet.live().map((worker) => fleet.terminate(worker)));
      phase("stopped");

      const final = report();
      expect(final.problems).toEqual([]);
      expect(final.overlaps).toEqual([]);
      const reruns = matchRuns(fleet.entries()).filter(({ start }) => (start.attempt ?? 1) > 1);
      if (process.env.BATON_DURABLE_DEBUG) {
        const settled = fleet
          .entries()
          .flatMap((entry) => (entry.kind === "settled" ? [entry.outcome] : []));
        console.log(engine, {
          runs: final.runs,
          reruns: reruns.map(
            ({ start }) => `${start.messageId}#${start.attempt} ${start.interrupted?.reason}`,
          ),
          settled: Object.fromEntries(
            [...new Set(settled)].map((o) => [o, settled.filter((x) => x === o).length]),
          ),
        });
      }
      // The deploy did interrupt turns, and they were picked up as handed back at shutdown.
      expect(reruns.some(({ start }) => start.interrupted?.reason === "shutdown")).toBe(true);
    }, 180_000);
  }
});
