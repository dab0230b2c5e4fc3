import { appendFileSync } from "node:fs";
import { Chat, lockKeyFor, type StateAdapter } from "@baton/core";
import { createPostgresState } from "@baton/state-pg";
import { createRedisState } from "@baton/state-redis";
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

function createState(): StateAdapter {
  const backend = config.backend;
  if (backend.kind === "redis") {
    return createRedisState({ url: backend.url, keyPrefix: backend.keyPrefix, timeoutMs: 2_000 });
  }
  if (backend.kind === "redis-cluster") {
    return createRedisState({
      cluster: { rootNodes: backend.rootUrls.map((url) => ({ url })) },
      keyPrefix: backend.keyPrefix,
      timeoutMs: 2_000,
      ...(backend.replication ? { replication: backend.replication } : {}),
    });
  }
  return createPostgresState({ url: backend.url, schema: backend.schema, timeoutMs: 2_000 });
}

const adapter = createMockAdapter("mock");
const chat = new Chat({
  userName: "bot",
  adapters: { mock: adapter },
  state: createState(),
  logger: process.env.BATON_WORKER_LOG === "error" ? "error" : "silent",
  concurrency: {
    strategy: config.strategy,
    lockTtlMs: config.lockTtlMs,
    sweepIntervalMs: config.sweepIntervalMs,
    debounceMs: config.debounceMs,
    maxWaitMs: config.debounceMs * 4,
    maxQueueSize: 50,
  },
  observer: {
    onDispatchEvent: (event) => {
      if (event.kind !== "settled") return;
      log({
        kind: "settled",
        worker: config.name,
        deliveryKey: event.deliveryKey,
        outcome: event.outcome ?? "unknown",
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
  };
  log({ kind: "run-start", ...entry, atMs: Date.now() });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, plan.durationMs);
    context.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
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
  if (plan.fails) throw new Error("the plan says this handler fails");
});

process.on("message", async (raw: ParentMessage) => {
  if (raw.type === "shutdown") {
    await chat.shutdown({ timeoutMs: 5_000 });
    send({ type: "stopped" });
    process.exit(0);
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
