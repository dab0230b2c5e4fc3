import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { assertReachable, dropBackend, isolatedBackend, POSTGRES_URL } from "../src/backends.js";
import { pause, readLogs, startWorker, type WorkerHandle, waitFor } from "../src/cluster.js";
import { checkDurableInvariants, checkInvariants } from "../src/invariants.js";

/**
 * The workers run with durable turns on (the default, 3 attempts): a run stopped by the fault is
 * run again, so a message may run more than once, yet ends in exactly one terminal disposition.
 */
const DURABLE = { maxAttempts: 3 } as const;

import type { BackendSpec, LogEntry, RunEntry, WorkerConfig } from "../src/protocol.js";

const LOCK_TTL_MS = 1_000;
const SWEEP_INTERVAL_MS = 500;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

async function worker(
  backend: BackendSpec,
  name: string,
  dir: string,
  overrides: Partial<WorkerConfig> = {},
): Promise<WorkerHandle> {
  const config: WorkerConfig = {
    name,
    backend,
    strategy: "queue",
    lockTtlMs: LOCK_TTL_MS,
    sweepIntervalMs: SWEEP_INTERVAL_MS,
    debounceMs: 300,
    logPath: join(dir, `${name}.jsonl`),
    ...overrides,
  };
  const handle = await startWorker(config);
  cleanup.push(async () => {
    handle.kill();
    await handle.exited;
  });
  return handle;
}

function runsOf(entries: LogEntry[], kind: RunEntry["kind"]): RunEntry[] {
  return entries.filter((entry): entry is RunEntry => entry.kind === kind);
}

for (const kind of ["redis", "postgres"] as const) {
  describe(`a holder killed with SIGKILL (${kind})`, () => {
    // Without durable turns (`durableTurns: false`): the killed turn is lost, but the queue behind
    // it is not. With them (the default) the turn runs again first: durable-turns.test.ts.
    it("without durable turns, another instance takes the thread after the lease runs out and drains the queue without a new webhook", async () => {
      const backend = isolatedBackend(kind);
      await assertReachable(backend);
      cleanup.push(() => dropBackend(backend));
      const dir = mkdtempSync(join(tmpdir(), "baton-fault-"));
      const holder = await worker(backend, "holder", dir, { durableTurns: false });
      const survivor = await worker(backend, "survivor", dir, { durableTurns: false });
      const logPaths = [holder, survivor].map((handle) => handle.config.logPath);
      const thread = "mock:C1:T1";

      void holder.deliver("long", thread, { durationMs: 60_000, fails: false });
      await waitFor(
        "the holder to start its handler",
        () => runsOf(readLogs(logPaths), "run-start").length === 1,
        15_000,
      );
      const queued = await Promise.all([
        survivor.deliver("q1", thread, { durationMs: 10, fails: false }),
        survivor.deliver("q2", thread, { durationMs: 10, fails: false }),
      ]);
      expect(queued).toEqual(["queued", "queued"]);

      const killedAtMs = Date.now();
      holder.kill();
      await holder.exited;
      await waitFor(
        "the survivor to drain the queue",
        () => runsOf(readLogs(logPaths), "run-end").some((run) => run.messageId === "q2"),
        20_000,
      );
      const entries = readLogs(logPaths);
      const drained = runsOf(entries, "run-start").find((run) => run.messageId === "q2");
      expect(drained?.worker).toBe("survivor");
      expect(drained?.skipped).toEqual(["q1"]);
      expect(drained && drained.atMs).toBeGreaterThan(killedAtMs);
      expect(runsOf(entries, "run-end").some((run) => run.messageId === "long")).toBe(false);
      await survivor.stop();
      const report = checkInvariants(
        readLogs(logPaths),
        ["q1", "q2"],
        new Map([["holder", killedAtMs]]),
      );
      expect(report.overlaps).toEqual([]);
      expect(report.problems).toEqual([]);
    }, 60_000);
  });
}

describe("Postgres connections terminated mid-run", () => {
  it("handlers see errors or lease loss, never overlap, and the runtime recovers", async () => {
    const backend = isolatedBackend("postgres");
    await assertReachable(backend);
    cleanup.push(() => dropBackend(backend));
    const dir = mkdtempSync(join(tmpdir(), "baton-fault-"));
    const workers = [await worker(backend, "a", dir), await worker(backend, "b", dir)];
    const logPaths = workers.map((handle) => handle.config.logPath);
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    cleanup.push(() => admin.end());
    const results: Array<Promise<string>> = [];
    for (let i = 0; i < 12; i += 1) {
      results.push(
        workers[i % 2]?.deliver(`p${i}`, `mock:C1:T${i % 2}`, { durationMs: 700, fails: false }) ??
          Promise.resolve("failed: none"),
      );
      if (i === 5) {
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query not ilike '%pg_stat_activity%'",
        );
      }
      await pause(150);
    }
    const outcomes = await Promise.all(results);
    const accepted = outcomes
      .map((outcome, i) => [`p${i}`, outcome] as const)
      .filter(([, outcome]) => !outcome.startsWith("failed"));
    await waitFor(
      "accepted messages to settle",
      () =>
        checkDurableInvariants(
          readLogs(logPaths),
          accepted.map(([id]) => id),
          DURABLE,
        ).problems.length === 0,
      20_000,
    ).catch(() => {});
    const report = checkDurableInvariants(
      readLogs(logPaths),
      accepted.map(([id]) => id),
      DURABLE,
    );
    expect(report.overlaps).toEqual([]);
    expect(report.problems).toEqual([]);
    const late = await workers[0]?.deliver("after", "mock:C1:T9", { durationMs: 10, fails: false });
    expect(late).toBe("handled");
    await Promise.all(workers.map((handle) => handle.stop()));
  }, 90_000);
});

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

describe("Redis restarted mid-run", () => {
  it("handlers see errors or lease loss, never overlap, and the runtime recovers when Redis is back", async () => {
    // A port the OS says is free: a fixed range once hit PgBouncer (6432), whose Postgres error
    // answer the Redis probe could not decode.
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "baton-redis-"));
    const startRedis = (): ChildProcess =>
      spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "yes",
          "--appendfsync",
          "always",
          "--dir",
          dataDir,
        ],
        { stdio: "ignore" },
      );
    let server = startRedis();
    cleanup.push(async () => {
      server.kill("SIGKILL");
    });
    const backend = isolatedBackend("redis", `redis://127.0.0.1:${port}`);
    await waitFor(
      "the test Redis to start",
      () =>
        assertReachable(backend).then(
          () => true,
          () => false,
        ),
      10_000,
    );
    const dir = mkdtempSync(join(tmpdir(), "baton-fault-"));
    // Without durable turns (see the note on DURABLE): a release that fails while Redis is down
    // leaves a finished turn's record, and its re-run records a second terminal disposition
    // (docs/durable-turns.md §9, measured here: 4 of 12 messages).
    const workers = [
      await worker(backend, "a", dir, { durableTurns: false }),
      await worker(backend, "b", dir, { durableTurns: false }),
    ];
    const logPaths = workers.map((handle) => handle.config.logPath);
    const results: Array<Promise<readonly [string, string]>> = [];
    for (let i = 0; i < 12; i += 1) {
      const id = `r${i}`;
      results.push(
        (
          workers[i % 2]?.deliver(id, `mock:C1:T${i % 2}`, { durationMs: 600, fails: false }) ??
          Promise.resolve("failed: none")
        ).then((outcome) => [id, outcome] as const),
      );
      if (i === 5) {
        server.kill("SIGTERM");
        await new Promise((resolve) => server.once("exit", resolve));
        await pause(1_000);
        server = startRedis();
        await waitFor(
          "Redis to come back",
          () =>
            assertReachable(backend).then(
              () => true,
              () => false,
            ),
          10_000,
        );
      }
      await pause(150);
    }
    const outcomes = await Promise.all(results);
    const accepted = outcomes
      .filter(([, outcome]) => !outcome.startsWith("failed"))
      .map(([id]) => id);
    await waitFor(
      "accepted messages to settle",
      () => checkInvariants(readLogs(logPaths), accepted).problems.length === 0,
      20_000,
    ).catch(() => {});
    const report = checkInvariants(readLogs(logPaths), accepted);
    expect(report.overlaps).toEqual([]);
    expect(report.problems).toEqual([]);
    // Recovery without a restart: the workers' own clients reconnect with backoff, which on a
    // loaded machine can end after the test's probe already reached Redis. Like a platform, the
    // test redelivers a delivery refused while its client was still reconnecting.
    let after = "";
    await waitFor(
      "a new delivery to be handled after Redis came back",
      async () => {
        after =
          (await workers[0]?.deliver("after", "mock:C1:T9", { durationMs: 10, fails: false })) ??
          "failed: no worker";
        if (after.startsWith("failed") && !after.includes("unreachable")) return true;
        return after === "handled";
      },
      30_000,
    );
    expect(after).toBe("handled");
    await Promise.all(workers.map((handle) => handle.stop()));
  }, 120_000);
});
