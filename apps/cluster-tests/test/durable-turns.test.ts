import { describe, it } from "vitest";
import type { BackendKind } from "../src/backends.js";
import { waitFor } from "../src/cluster.js";
import { Fleet } from "../src/fleet.js";
import { checkDurableInvariants } from "../src/invariants.js";

// Durable turns (DESIGN §6.1, docs/durable-turns.md §2–3) across real processes. Four instances
// share one State: a1 is SIGKILLed and a2 SIGTERMed (chat.shutdown()) while each runs a long
// turn on its own thread, with a message queued behind each turn. The two survivors race for the
// interrupted turns: exactly one runs each again, as attempt 2, before the message queued behind
// it. Both stops in one fleet, at once: half the processes to start, and a deploy that meets a
// crash.
// Long enough that a survivor stalled by a loaded machine keeps its lease: a lost one makes
// another attempt, which the assertions allow, but a SIGTERMed holder whose hand-back came too
// late would be recovered as lease-expired instead of shutdown.
const LOCK_TTL_MS = 2_000;
const SWEEP_INTERVAL_MS = 250;
const MAX_ATTEMPTS = 3;
const THREAD = "mock:C1:T1";

const ENGINES: ReadonlyArray<readonly [BackendKind, string]> = [
  ["redis", "Redis"],
  ["redis-cluster", "Redis Cluster"],
  ["postgres", "Postgres"],
  ["pgbouncer", "Postgres behind PgBouncer"],
];

/** One stop: how the holder is stopped, the reason its turn's re-run is told, its thread. */
const STOPS = [
  { holder: "a1", signal: "SIGKILL", reason: "lease-expired", thread: "mock:C1:K" },
  { holder: "a2", signal: "SIGTERM", reason: "shutdown", thread: "mock:C1:S" },
] as const;

describe.concurrent("a turn interrupted mid-handler is run again by a survivor", () => {
  for (const [kind, engine] of ENGINES) {
    it(`${engine}: after a SIGKILL (lease-expired) and a SIGTERM (shutdown), attempt 2 runs before the queued message, one terminal disposition each`, async (test) => {
      const { expect } = test;
      const fleet = await Fleet.open(
        kind,
        {
          strategy: "queue",
          lockTtlMs: LOCK_TTL_MS,
          sweepIntervalMs: SWEEP_INTERVAL_MS,
          debounceMs: 300,
          durableTurns: { maxAttempts: MAX_ATTEMPTS },
        },
        test,
      );
      const [a1, a2, b, c] = await fleet.start(["a1", "a2", "b", "c"]);
      if (!a1 || !a2 || !b || !c) throw new Error("workers did not start");
      const holders = new Map([
        ["a1", a1],
        ["a2", a2],
      ]);

      // Each holder's turn runs long on its first attempt and throws when its signal aborts
      // (shutdown); a re-run is short. A message waits behind each.
      for (const { holder, thread } of STOPS) {
        void holders.get(holder)?.deliver(`first-${holder}`, thread, {
          durationMs: 200,
          firstAttemptMs: 60_000,
          onAbort: "throw",
          fails: false,
        });
      }
      await waitFor(
        "a1 and a2 to start their turns",
        () => STOPS.every(({ holder }) => fleet.runs(`first-${holder}`).length === 1),
        30_000,
      );
      for (const { holder, thread } of STOPS) {
        expect(await b.deliver(`second-${holder}`, thread, { durationMs: 100, fails: false })).toBe(
          "queued",
        );
      }

      await Promise.all([fleet.kill(a1), fleet.terminate(a2)]);
      await waitFor(
        "the survivors to run both queued messages",
        () => STOPS.every(({ holder }) => fleet.runs(`second-${holder}`, "run-end").length > 0),
        30_000,
      );
      await Promise.all([b, c].map((worker) => fleet.terminate(worker)));

      for (const { holder, signal, reason } of STOPS) {
        const first = `first-${holder}`;
        const second = `second-${holder}`;
        const firstRuns = fleet.runs(first);
        // The holder's run, then a survivor's as attempt 2, told why. (On a machine loaded
        // enough for a survivor to lose its own lease, attempt 3 may follow: the invariants
        // below bound and check it.)
        expect(
          firstRuns.slice(0, 2).map((run) => [run.worker, run.attempt]),
          first,
        ).toEqual([
          [holder, 1],
          [expect.stringMatching(/^[bc]$/), 2],
        ]);
        const [attempt1, attempt2] = firstRuns;
        expect(attempt2?.interrupted, first).toEqual({
          attempt: 1,
          startedAtMs: expect.any(Number),
          reason,
        });
        // The record keeps when the interrupted attempt started: no later than its handler did.
        expect(attempt2?.interrupted?.startedAtMs).toBeLessThanOrEqual(attempt1?.atMs ?? 0);
        if (signal === "SIGKILL") {
          expect(attempt2?.atMs).toBeGreaterThan(fleet.diedAtMs.get(holder) ?? Infinity);
        }
        // The turn finished once; only then did the message queued behind it run.
        const finished = fleet.completedRuns(first);
        expect(
          finished.map((run) => run.worker === holder),
          first,
        ).toEqual([false]);
        const secondRuns = fleet.runs(second);
        expect(secondRuns.length, second).toBeGreaterThan(0);
        for (const run of secondRuns) {
          expect(run.skipped).toEqual([]);
          expect(run.atMs).toBeGreaterThanOrEqual(finished[0]?.atMs ?? Infinity);
        }
        expect(fleet.completedRuns(second), second).toHaveLength(1);
        expect(fleet.dispositions(first), first).toEqual(["handled"]);
        expect(fleet.dispositions(second), second).toEqual(["handled"]);
        // The SIGTERMed holder handed its turn back: `queued` (handed off), not terminal.
        const onHolder = fleet
          .entries()
          .flatMap((entry) =>
            entry.kind === "settled" &&
            entry.worker === holder &&
            entry.deliveryKey === `mock:${first}`
              ? [entry.outcome]
              : [],
          );
        expect(onHolder, first).toEqual(signal === "SIGTERM" ? ["queued"] : []);
      }
      const ids = STOPS.flatMap(({ holder }) => [`first-${holder}`, `second-${holder}`]);
      const report = checkDurableInvariants(fleet.entries(), ids, {
        maxAttempts: MAX_ATTEMPTS,
        diedAtMs: fleet.diedAtMs,
      });
      expect(report.overlaps).toEqual([]);
      expect(report.problems).toEqual([]);
    }, 120_000);
  }
});

// docs/durable-turns.md §3: a handler still running at shutdown's deadline (it ignores its
// signal) has its turn handed back then. Its process may exit at once, or live on a little (a
// server finishing other work) while the abandoned handler returns: either way the turn is
// answered by the re-run, and only the re-run's disposition is terminal.
const SHUTDOWN_TIMEOUT_MS = 1_500;

describe.concurrent("a handler that ignores its signal past shutdown's deadline", () => {
  // The deadline's hand-back is the runtime's alone, the same on every backend: Redis shows it.
  for (const [kind, engine] of ENGINES.filter(([kind]) => kind === "redis")) {
    for (const lingerAfterShutdownMs of [0, 3_000]) {
      it(`${engine}, ${lingerAfterShutdownMs === 0 ? "the process exits at the deadline" : "the process lives on and the handler returns late"}: the turn is handed back, run again as attempt 2, one terminal disposition`, async (test) => {
        const { expect } = test;
        const fleet = await Fleet.open(
          kind,
          {
            strategy: "queue",
            lockTtlMs: LOCK_TTL_MS,
            sweepIntervalMs: SWEEP_INTERVAL_MS,
            debounceMs: 300,
            durableTurns: { maxAttempts: MAX_ATTEMPTS },
            shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
            lingerAfterShutdownMs,
          },
          test,
        );
        const [a, b] = await fleet.start(["a", "b"]);
        if (!a || !b) throw new Error("workers did not start");
        // Attempt 1 ignores its signal: it runs on forever, or returns 700 ms after the deadline
        // (however late the shutdown began) while its process lingers. A re-run is short.
        void a.deliver("first", THREAD, {
          durationMs: 200,
          firstAttemptMs: 60_000,
          onAbort: "ignore",
          ...(lingerAfterShutdownMs > 0 ? { returnAfterAbortMs: SHUTDOWN_TIMEOUT_MS + 700 } : {}),
          fails: false,
        });
        await waitFor("a to start first", () => fleet.runs("first").length === 1, 30_000);
        expect(await b.deliver("second", THREAD, { durationMs: 100, fails: false })).toBe("queued");
        await fleet.terminate(a);
        await fleet.settled("second", 30_000);
        await fleet.terminate(b);

        const runs = fleet.runs("first");
        expect(
          runs.slice(0, 2).map((run) => [run.worker, run.attempt, run.interrupted?.reason]),
        ).toEqual([
          ["a", 1, undefined],
          ["b", 2, "shutdown"],
        ]);
        expect(fleet.dispositions("first")).toEqual(["handled"]);
        expect(fleet.dispositions("second")).toEqual(["handled"]);
        // The re-run finished the turn (attempt 1 was never waited for), then "second" ran.
        const finished = fleet.completedRuns("first").filter((run) => run.worker === "b");
        expect(finished).toHaveLength(1);
        const [secondRun] = fleet.runs("second");
        expect(secondRun?.atMs).toBeGreaterThanOrEqual(finished[0]?.atMs ?? Infinity);
        // The overlap of the ignoring attempt 1 with the re-run is what handing back at the
        // deadline means; every other invariant holds.
        const report = checkDurableInvariants(fleet.entries(), ["first", "second"], {
          maxAttempts: MAX_ATTEMPTS,
          diedAtMs: fleet.diedAtMs,
        });
        expect(report.problems).toEqual([]);
      }, 120_000);
    }
  }
});
