import { appendFileSync } from "node:fs";
import { Chat, lockKeyFor, type StateAdapter } from "@baton/core";
import { createMockAdapter, createTestMessage } from "@baton/testing";
import type {
  HandlerPlan,
  LogEntry,
  ParentMessage,
  WorkerConfig,
  WorkerMessage,
} from "./protocol.js";

// One bot instance in its own process: a Chat on the shared State, driven over IPC by the test.
function readConfig(): WorkerConfig {
  const raw = process.env.BATON_WORKER_CONFIG;
  if (!raw) throw new Error("BATON_WORKER_CONFIG is not set");
  return JSON.parse(raw) as WorkerConfig;
}

const config = readConfig();

const send = (message: WorkerMessage) => process.send?.(message);
const log = (entry: LogEntry) => appendFileSync(config.logPath, `${JSON.stringify(entry)}\n`);

/** The worker's State; only its backend's package is loaded, so a worker starts sooner. */
async function createState(): Promise<StateAdapter> {
  const backend = config.backend;
  if (backend.kind === "postgres") {
    const { createPostgresState } = await import("@baton/state-pg");
    return createPostgresState({ url: backend.url, schema: backend.schema, timeoutMs: 2_000 });
  }
  const { createRedisState } = await import("@baton/state-redis");
  if (backend.kind === "redis") {
    return createRedisState({ url: backend.url, keyPrefix: backend.keyPrefix, timeoutMs: 2_000 });
  }
  return createRedisState({
    cluster: { rootNodes: backend.rootUrls.map((url) => ({ url })) },
    keyPrefix: backend.keyPrefix,
    timeoutMs: 2_000,
    ...(backend.replication ? { replication: backend.replication } : {}),
  });
}

const adapter = createMockAdapter("mock");
const chat = new Chat({
  userName: "bot",
  adapters: { mock: adapter },
  state: await createState(),
  logger: process.env.BATON_WORKER_LOG === "error" ? "error" : "silent",
  concurrency: {
    strategy: config.strategy,
    lockTtlMs: config.lockTtlMs,
    sweepIntervalMs: config.sweepIntervalMs,
    debounceMs: config.debounceMs,
    maxWaitMs: config.debounceMs * 4,
    maxQueueSize: 50,
  },
  ...(config.durableTurns !== undefined ? { durableTurns: config.durableTurns } : {}),
  observer: {
    onDispatchEvent: (event) => {
      if (event.kind !== "settled") return;
      log({
        kind: "settled",
        worker: config.name,
        deliveryKey: event.deliveryKey,
        outcome: event.outcome ?? "unknown",
        ...(event.reason === undefined ? {} : { reason: event.reason }),
        ...(event.counted === undefined ? {} : { counted: event.counted }),
        atMs: Date.now(),
      });
    },
  },
});

chat.onNewMention(async (thread, message, context) => {
  const plan = JSON.parse(message.text.slice("@bot ".length)) as HandlerPlan;
  const entry = {
    worker: config.name,
    messageId: message.id,
    threadId: thread.id,
    lockKey: lockKeyFor("thread", thread.id, thread.channelId),
    skipped: context.skipped.map((skipped) => skipped.id),
    fence: context.lock?.fence,
    attempt: context.attempt,
    ...(context.interrupted
      ? {
          interrupted: {
            attempt: context.interrupted.attempt,
            startedAtMs: context.interrupted.startedAt.getTime(),
            reason: context.interrupted.reason,
          },
        }
      : {}),
  };
  log({ kind: "run-start", ...entry, atMs: Date.now() });
  const durationMs =
    context.attempt === 1 && plan.firstAttemptMs !== undefined
      ? plan.firstAttemptMs
      : plan.durationMs;
  const onAbort = plan.onAbort ?? "return";
  await new Promise<void>((resolve) => {
    let timer = setTimeout(resolve, durationMs);
    const afterAbortMs = onAbort === "ignore" ? plan.returnAfterAbortMs : 0;
    if (afterAbortMs === undefined) return;
    const stop = () => {
      clearTimeout(timer);
      if (afterAbortMs > 0) timer = setTimeout(resolve, afterAbortMs);
      else resolve();
    };
    if (context.signal.aborted) stop();
    else context.signal.addEventListener("abort", stop, { once: true });
  });
  if (plan.crash) {
    // A poison turn: the process dies mid-handler, holding its lock, on every attempt.
    log({ kind: "run-end", ...entry, atMs: Date.now(), aborted: false, crashed: true });
    process.kill(process.pid, "SIGKILL");
    await new Promise(() => {});
  }
  const reason = context.signal.reason as { code?: unknown } | undefined;
  log({
    kind: "run-end",
    ...entry,
    atMs: Date.now(),
    aborted: context.signal.aborted,
    ...(context.signal.aborted && typeof reason?.code === "string"
      ? { abortCode: reason.code }
      : {}),
  });
  if (context.signal.aborted && onAbort === "throw") throw context.signal.reason;
  if (plan.fails) throw new Error("the plan says this handler fails");
});

chat.onTurnAbandoned(async (thread, message, context) => {
  log({
    kind: "abandoned",
    worker: config.name,
    messageId: message.id,
    threadId: thread.id,
    skipped: context.skipped.map((skipped) => skipped.id),
    attempt: context.attempt,
    atMs: Date.now(),
  });
});

let stopping: Promise<void> | undefined;
/** Graceful stop, once: what a SIGTERM or the `shutdown` message does. */
function stop(): Promise<void> {
  stopping ??= (async () => {
    await chat.shutdown({ timeoutMs: config.shutdownTimeoutMs ?? 5_000 });
    if (config.lingerAfterShutdownMs) {
      await new Promise((resolve) => setTimeout(resolve, config.lingerAfterShutdownMs));
    }
    send({ type: "stopped" });
    process.exit(0);
  })();
  return stopping;
}
process.on("SIGTERM", () => void stop());

process.on("message", async (raw: ParentMessage) => {
  if (raw.type === "shutdown") {
    await stop();
    return;
  }
  if (raw.type === "once") {
    const result = await chat.once(
      raw.key,
      async () => {
        const entry = {
          worker: config.name,
          messageId: raw.key,
          threadId: "-",
          lockKey: "-",
          skipped: [],
          fence: undefined,
        };
        log({ kind: "run-start", ...entry, atMs: Date.now() });
        await new Promise((resolve) => setTimeout(resolve, raw.durationMs));
        log({ kind: "run-end", ...entry, atMs: Date.now() });
      },
      { ttlMs: 30_000 },
    );
    send({ type: "result", requestId: raw.requestId, outcome: result.ran ? "ran" : result.reason });
    return;
  }
  const message = createTestMessage({
    id: raw.messageId,
    threadId: raw.threadId,
    text: `@bot ${JSON.stringify(raw.plan)}`,
  });
  try {
    const result = await chat.processMessage(adapter, raw.threadId, message);
    send({ type: "result", requestId: raw.requestId, outcome: result.outcome });
  } catch (error) {
    send({ type: "failed", requestId: raw.requestId, error: String(error) });
  }
});

await chat.initialize();
send({ type: "ready" });
