import { describe, it } from "vitest";
import type { BackendKind } from "../src/backends.js";
import { pause, waitFor } from "../src/cluster.js";
import { Fleet } from "../src/fleet.js";
import { checkDurableInvariants } from "../src/invariants.js";

// A poison turn (docs/durable-turns.md §5): its handler SIGKILLs its own process on every
// attempt. Each crash leaves the turn record with its lock to expire; a survivor recovers it, and
// dies too. One spare instance more than maxAttempts is running, so after maxAttempts runs the
// last survivor finds the turn past its attempts: it ends `abandoned`, onTurnAbandoned runs once
// across the instances, and the message queued behind it is then handled.
const LOCK_TTL_MS = 1_000;
const SWEEP_INTERVAL_MS = 250;
const THREAD = "mock:C1:T1";

const ENGINES: ReadonlyArray<readonly [BackendKind, string, number]> = [
  ["redis", "Redis", 3],
  ["postgres", "Postgres", 2],
];

describe.concurrent("a turn whose handler kills its process every time", () => {
  for (const [kind, engine, maxAttempts] of ENGINES) {
    it(`${engine}, maxAttempts ${maxAttempts}: ends abandoned after ${maxAttempts} runs, onTurnAbandoned runs once, the queue behind it is handled`, async (test) => {
      const { expect } = test;
      const fleet = await Fleet.open(
        kind,
        {
          strategy: "queue",
          lockTtlMs: LOCK_TTL_MS,
          sweepIntervalMs: SWEEP_INTERVAL_MS,
          debounceMs: 300,
          durableTurns: { maxAttempts },
        },
        test,
      );
      const names = Array.from({ length: maxAttempts + 1 }, (_, i) => `w${i}`);
      const [w0] = await fleet.start(names);
      if (!w0) throw new Error("workers did not start");

      void w0.deliver("poison", THREAD, { durationMs: 300, crash: true, fails: false });
      await waitFor("w0 to start the poison turn", () => fleet.runs("poison").length === 1, 30_000);
      const queuedBehind = await fleet.deliverUntilAnswered(
        "after",
        THREAD,
        { durationMs: 100, fails: false },
        (live) => live.find((worker) => worker !== w0),
      );
      expect(queuedBehind).toBe("queued");

      await fleet.settled("poison", 60_000);
      await fleet.settled("after", 30_000);
      // Some sweeps later, nothing has run the turn again.
      await pause(2 * (LOCK_TTL_MS + SWEEP_INTERVAL_MS));
      const survivors = fleet.live();
      await Promise.all(survivors.map((worker) => fleet.terminate(worker)));

      const runs = fleet.runs("poison");
      expect(runs.map((run) => run.attempt)).toEqual(
        Array.from({ length: maxAttempts }, (_, i) => i + 1),
      );
      // Each attempt crashed its own instance, so each ran on a different one.
      expect(new Set(runs.map((run) => run.worker)).size).toBe(maxAttempts);
      expect(fleet.runs("poison", "run-end").every((run) => run.crashed === true)).toBe(true);
      expect(survivors).toHaveLength(1);
      for (const run of runs.slice(1)) {
        expect(run.interrupted?.reason).toBe("lease-expired");
      }

      const hooks = fleet.entries().filter((entry) => entry.kind === "abandoned");
      expect(hooks).toEqual([
        expect.objectContaining({
          messageId: "poison",
          threadId: THREAD,
          skipped: [],
          attempt: maxAttempts + 1,
          worker: survivors[0]?.config.name,
        }),
      ]);
      expect(fleet.dispositions("poison")).toEqual(["abandoned"]);
      expect(fleet.dispositions("after")).toEqual(["handled"]);
      const [afterRun] = fleet.runs("after");
      expect(afterRun?.attempt).toBe(1);
      expect(afterRun?.atMs).toBeGreaterThanOrEqual(hooks[0]?.atMs ?? Infinity);

      const report = checkDurableInvariants(fleet.entries(), ["poison", "after"], {
        maxAttempts,
        diedAtMs: fleet.diedAtMs,
      });
      expect(report.overlaps).toEqual([]);
      expect(report.problems).toEqual([]);
    }, 120_000);
  }
});
