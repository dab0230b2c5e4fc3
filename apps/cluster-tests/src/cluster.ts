import { type ChildProcess, fork } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type {
  HandlerPlan,
  LogEntry,
  ParentMessage,
  WorkerConfig,
  WorkerMessage,
} from "./protocol.js";

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));
/** The app's own folder, where `tsx` and the workspace packages are linked. */
const APP_DIR = fileURLToPath(new URL("..", import.meta.url));

/** A running worker process and the deliveries it has not answered yet. */
export interface WorkerHandle {
  readonly config: WorkerConfig;
  readonly process: ChildProcess;
  /** Resolves with the delivery's outcome (or `failed: …`). */
  deliver(messageId: string, threadId: string, plan: HandlerPlan): Promise<string>;
  /** Runs `chat.once(key, …)` with work lasting `durationMs`; resolves `ran` or the reason not. */
  once(key: string, durationMs: number): Promise<string>;
  /** Graceful shutdown through the Chat; resolves when the process exited. */
  stop(): Promise<void>;
  /** SIGTERM, as an orchestrator stops a pod: the worker runs `chat.shutdown()` and exits. */
  terminate(): Promise<void>;
  /** SIGKILL: the process dies mid-whatever, holding whatever it held. */
  kill(): void;
  readonly exited: Promise<number | null>;
}

/**
 * Starts a worker process running `src/worker.ts` (TypeScript through tsx, workspace packages
 * from source) and waits until its Chat is initialized.
 */
export async function startWorker(config: WorkerConfig): Promise<WorkerHandle> {
  const child = fork(WORKER, [], {
    execArgv: ["--conditions=@baton/source", "--import", "tsx"],
    env: { ...process.env, BATON_WORKER_CONFIG: JSON.stringify(config) },
    cwd: APP_DIR,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (outcome: string) => void>();
  let nextRequest = 1;
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  exited.then(() => {
    for (const resolve of pending.values()) resolve("failed: worker exited");
    pending.clear();
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.on("message", (message: WorkerMessage) => {
      if (message.type === "ready") resolve();
      if (message.type === "result" || message.type === "failed") {
        const outcome = message.type === "result" ? message.outcome : `failed: ${message.error}`;
        pending.get(message.requestId)?.(outcome);
        pending.delete(message.requestId);
      }
    });
    exited.then((code) =>
      reject(new Error(`worker ${config.name} exited with ${code} before ready`)),
    );
  });
  await ready;
  const post = (message: ParentMessage) => child.send(message);
  return {
    config,
    process: child,
    exited,
    deliver(messageId, threadId, plan) {
      const requestId = nextRequest++;
      return new Promise((resolve) => {
        pending.set(requestId, resolve);
        post({ type: "deliver", requestId, messageId, threadId, plan });
      });
    },
    once(key, durationMs) {
      const requestId = nextRequest++;
      return new Promise((resolve) => {
        pending.set(requestId, resolve);
        post({ type: "once", requestId, key, durationMs });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      post({ type: "shutdown" });
      await exited;
    },
    async terminate() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
    kill() {
      child.kill("SIGKILL");
    },
  };
}

/** Reads every worker's log. */
export function readLogs(paths: readonly string[]): LogEntry[] {
  return paths.flatMap((path) =>
    existsSync(path)
      ? readFileSync(path, "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line) as LogEntry)
      : [],
  );
}

/** A small seeded PRNG (mulberry32), so a failing stream can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Resolves after `ms` of real time: these tests run real processes against real servers. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns true or `timeoutMs` passes; then fails naming `what`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await pause(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
