import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StrategyName } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { assertReachable, dropBackend, isolatedBackend } from "../src/backends.js";
import {
  pause,
  readLogs,
  seededRandom,
  startWorker,
  type WorkerHandle,
  waitFor,
} from "../src/cluster.js";
import { checkInvariants } from "../src/invariants.js";
import type { BackendSpec } from "../src/protocol.js";

const MESSAGES = 36;
const LOCK_TTL_MS = 1_000;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

async function startCluster(backend: BackendSpec, strategy: StrategyName, count: number) {
  await assertReachable(backend);
  cleanup.push(() => dropBackend(backend));
  const dir = mkdtempSync(join(tmpdir(), "baton-cluster-"));
  const workers: WorkerHandle[] = [];
  for (let i = 0; i < count; i += 1) {
    const worker = await startWorker({
      name: `w${i}`,
      backend,
      strategy,
      lockTtlMs: LOCK_TTL_MS,
      sweepIntervalMs: 500,
      debounceMs: 300,
      logPath: join(dir, `w${i}.jsonl`),
    });
    workers.push(worker);
    cleanup.push(async () => {
      worker.kill();
      await worker.exited;
    });
  }
  return { workers, logPaths: workers.map((worker) => worker.config.logPath) };
}

const ENGINES = [
  ["redis", "redis"],
  ["redis-cluster", "Redis Cluster (3 masters, 3 replicas)"],
  ["postgres", "postgres"],
  ["pgbouncer", "postgres behind PgBouncer (transaction pooling)"],
] as const;

for (const [kind, engine] of ENGINES) {
  describe(`three instances sharing one ${engine}`, () => {
    for (const strategy of ["drop", "queue", "debounce"] as const) {
      it(`${strategy}: no overlap on a lock key, one terminal disposition per message, no duplicate run`, async () => {
        const { workers, logPaths } = await startCluster(isolatedBackend(kind), strategy, 3);
        const random = seededRandom(20_261_202 + strategy.length);
        const results: Array<Promise<{ id: string; outcome: string }>> = [];
        for (let i = 0; i < MESSAGES; i += 1) {
          const id = `m${i}`;
          const threadId = `mock:C1:T${Math.floor(random() * 3)}`;
          const plan = { durationMs: Math.floor(random() * 1_600), fails: random() < 0.15 };
          const target = Math.floor(random() * workers.length);
          const deliverTo = (index: number) =>
            workers[index % workers.length]
              ?.deliver(id, threadId, plan)
              .then((outcome) => ({ id, outcome })) ??
            Promise.resolve({ id, outcome: "failed: none" });
          results.push(deliverTo(target));
          if (random() < 0.2) results.push(deliverTo(target + 1));
          await pause(Math.floor(random() * 250));
        }
        const outcomes = await Promise.all(results);
        expect(outcomes.filter((entry) => entry.outcome.startsWith("failed"))).toEqual([]);
        const accepted = new Set(
          outcomes.filter((entry) => entry.outcome !== "duplicate").map((entry) => entry.id),
        );
        expect(accepted.size).toBe(MESSAGES);

        await waitFor(
          "every accepted message to reach a terminal disposition",
          () => checkInvariants(readLogs(logPaths), accepted).problems.length === 0,
          30_000,
        ).catch(() => {});
        await Promise.all(workers.map((worker) => worker.stop()));
        const report = checkInvariants(readLogs(logPaths), accepted);
        expect(report.overlaps).toEqual([]);
        expect(report.problems).toEqual([]);
        expect(report.runs).toBeGreaterThan(0);
      }, 120_000);
    }
  });
}
