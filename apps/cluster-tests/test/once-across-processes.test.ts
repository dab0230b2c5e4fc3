import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { assertReachable, dropBackend, isolatedBackend } from "../src/backends.js";
import { readLogs, startWorker, type WorkerHandle } from "../src/cluster.js";

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

for (const kind of ["redis", "postgres"] as const) {
  describe(`chat.once across two processes sharing one ${kind}`, () => {
    it("runs the work exactly once for callers racing on both processes", async () => {
      const backend = isolatedBackend(kind);
      await assertReachable(backend);
      cleanup.push(() => dropBackend(backend));
      const dir = mkdtempSync(join(tmpdir(), "baton-once-"));
      const workers: WorkerHandle[] = [];
      for (const name of ["a", "b"]) {
        const worker = await startWorker({
          name,
          backend,
          strategy: "queue",
          lockTtlMs: 1_000,
          sweepIntervalMs: 500,
          debounceMs: 300,
          logPath: join(dir, `${name}.jsonl`),
        });
        workers.push(worker);
        cleanup.push(async () => {
          worker.kill();
          await worker.exited;
        });
      }
      const calls = workers.flatMap((worker) =>
        Array.from({ length: 6 }, () => worker.once("summarize:thread-1", 300)),
      );
      const results = await Promise.all(calls);
      expect(results.filter((result) => result === "ran")).toHaveLength(1);
      expect(
        results.every(
          (result) => result === "ran" || result === "in-progress" || result === "completed",
        ),
      ).toBe(true);
      await Promise.all(workers.map((worker) => worker.stop()));
      const runs = readLogs(workers.map((worker) => worker.config.logPath)).filter(
        (entry) => entry.kind === "run-start",
      );
      expect(runs).toHaveLength(1);
    }, 60_000);
  });
}
