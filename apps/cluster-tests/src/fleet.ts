import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "vitest";
import { assertReachable, type BackendKind, dropBackend, isolatedBackend } from "./backends.js";
import { pause, readLogs, startWorker, type WorkerHandle, waitFor } from "./cluster.js";
import { isRun, terminalDispositions } from "./invariants.js";
import type { BackendSpec, HandlerPlan, LogEntry, RunEntry, WorkerConfig } from "./protocol.js";

/** What every worker of a fleet shares, apart from its name. */
export type FleetSettings = Omit<WorkerConfig, "name" | "backend" | "logPath">;

/**
 * The bot instances of one scenario on one isolated backend: started, killed, terminated and
 * replaced by name, with every log kept (a dead worker's log still holds its dispositions) and
 * when each worker died, so a run it never ended is known to have stopped by then.
 */
export class Fleet {
  readonly dir = mkdtempSync(join(tmpdir(), "baton-durable-"));
  /** Every worker ever started, in order: the dead ones' logs count too. */
  readonly handles: WorkerHandle[] = [];
  /** When each worker that is gone died (its kill, or when its exit was seen). */
  readonly diedAtMs = new Map<string, number>();
  private readonly terminating = new Set<string>();

  private constructor(
    readonly backend: BackendSpec,
    readonly settings: FleetSettings,
  ) {}

  /**
   * Opens a fleet on a fresh namespace of `backend` (a kind, or a spec). Fails loudly when the
   * server is unreachable: these tests never skip. `onFinished` gets the fleet's cleanup.
   */
  static async open(
    backend: BackendKind | BackendSpec,
    settings: FleetSettings,
    test: Pick<TestContext, "task" | "onTestFinished" | "onTestFailed">,
  ): Promise<Fleet> {
    const spec = typeof backend === "string" ? isolatedBackend(backend) : backend;
    await assertReachable(spec);
    const fleet = new Fleet(spec, settings);
    test.onTestFinished(() => fleet.close());
    // What every instance did, in order: the first thing to read when a scenario fails.
    test.onTestFailed(() => {
      console.log(`--- timeline of "${test.task.name}" (ms)\n${fleet.timeline()}`);
    });
    return fleet;
  }

  get logPaths(): string[] {
    return this.handles.map((handle) => handle.config.logPath);
  }

  /** Starts workers (in parallel) with the fleet's settings, `overrides` on top. */
  start(names: readonly string[], overrides: Partial<WorkerConfig> = {}): Promise<WorkerHandle[]> {
    return Promise.all(
      names.map(async (name) => {
        const handle = await startWorker({
          ...this.settings,
          ...overrides,
          name,
          backend: overrides.backend ?? this.backend,
          logPath: join(this.dir, `${name}.jsonl`),
        });
        this.handles.push(handle);
        void handle.exited.then(() => {
          if (!this.diedAtMs.has(name)) this.diedAtMs.set(name, Date.now());
        });
        return handle;
      }),
    );
  }

  /** The worker named `name`. */
  worker(name: string): WorkerHandle {
    const handle = this.handles.find((candidate) => candidate.config.name === name);
    if (!handle) throw new Error(`no worker ${name}`);
    return handle;
  }

  /** Workers still running and not being stopped. */
  live(): WorkerHandle[] {
    return this.handles.filter(
      (handle) =>
        handle.process.exitCode === null &&
        handle.process.signalCode === null &&
        !this.terminating.has(handle.config.name),
    );
  }

  /** SIGKILL: the worker dies now, mid-handler, holding its lock. */
  async kill(handle: WorkerHandle): Promise<void> {
    this.diedAtMs.set(handle.config.name, Date.now());
    handle.kill();
    await handle.exited;
  }

  /** SIGTERM: `chat.shutdown()` runs, then the process exits. */
  async terminate(handle: WorkerHandle): Promise<void> {
    this.terminating.add(handle.config.name);
    await handle.terminate();
  }

  /** Every worker's log, merged. */
  entries(): LogEntry[] {
    return readLogs(this.logPaths);
  }

  /** Run starts (or ends) of `messageId`, in time order. */
  runs(messageId: string, kind: RunEntry["kind"] = "run-start"): RunEntry[] {
    return this.entries()
      .filter(isRun)
      .filter((run) => run.kind === kind && run.messageId === messageId)
      .sort((a, b) => a.atMs - b.atMs);
  }

  /** Runs of `messageId` (as the latest message) whose handler finished: not aborted, no crash. */
  completedRuns(messageId: string): RunEntry[] {
    return this.runs(messageId, "run-end").filter((run) => !run.aborted && !run.crashed);
  }

  /** Terminal dispositions of `messageId` across every worker. */
  dispositions(messageId: string): string[] {
    return terminalDispositions(this.entries()).get(messageId) ?? [];
  }

  /** Waits until `messageId` has a terminal disposition somewhere. */
  async settled(messageId: string, timeoutMs = 30_000): Promise<void> {
    await waitFor(
      `${messageId} to reach a terminal disposition`,
      () => this.dispositions(messageId).length > 0,
      timeoutMs,
    );
  }

  /**
   * Delivers like a platform: a delivery that fails (the worker refused it at shutdown, or died
   * before answering) is delivered again to another live worker, until one answers. Resolves
   * with the answer, `duplicate` meaning an earlier delivery had been accepted.
   */
  async deliverUntilAnswered(
    messageId: string,
    threadId: string,
    plan: HandlerPlan,
    pick: (live: WorkerHandle[]) => WorkerHandle | undefined,
    timeoutMs = 60_000,
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = "failed: no worker";
    while (Date.now() < deadline) {
      const worker = pick(this.live());
      if (worker) {
        last = await worker.deliver(messageId, threadId, plan);
        if (!last.startsWith("failed")) return last;
      }
      await pause(100);
    }
    throw new Error(`${messageId} was never answered; last: ${last}`);
  }

  /** A compact timeline of every log, for BATON_DURABLE_DEBUG. */
  timeline(): string {
    const entries = this.entries().sort((a, b) => a.atMs - b.atMs);
    const startMs = entries[0]?.atMs ?? 0;
    return entries
      .map((entry) => {
        const at = String(entry.atMs - startMs).padStart(6);
        if (entry.kind === "settled") {
          return `${at} ${entry.worker} settled ${entry.deliveryKey} ${entry.outcome}${entry.reason ? ` (${entry.reason})` : ""}`;
        }
        if (entry.kind === "abandoned") {
          return `${at} ${entry.worker} abandoned ${entry.messageId} attempt ${entry.attempt}`;
        }
        const extra = [
          `#${entry.attempt ?? 1}`,
          entry.interrupted ? `after ${entry.interrupted.reason}` : "",
          entry.skipped.length > 0 ? `skipped ${entry.skipped.join(",")}` : "",
          entry.aborted ? `aborted ${entry.abortCode ?? ""}` : "",
          entry.crashed ? "crashed" : "",
        ];
        return `${at} ${entry.worker} ${entry.kind} ${entry.messageId} ${entry.lockKey} ${extra.filter(Boolean).join(" ")}`;
      })
      .join("\n");
  }

  /** Kills every worker still running and removes what the scenario wrote. */
  async close(): Promise<void> {
    for (const handle of this.handles) {
      handle.kill();
      await handle.exited;
    }
    await dropBackend(this.backend).catch(() => {});
  }
}
