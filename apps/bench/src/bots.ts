import { Chat, lockKeyFor, type Message, type StateAdapter } from "@baton/core";
import { createMockAdapter, createTestMessage } from "@baton/testing";
import { Chat as UpstreamChat, type StateAdapter as UpstreamStateAdapter } from "chat";
import { type OpenBackend, openBackend, type ServerUrls } from "./backends.js";
import type {
  BackendName,
  BenchBot,
  BenchMessage,
  BenchStrategy,
  Implementation,
} from "./bench-bot.js";
import type { HandlerProbe } from "./handler-probe.js";
import { observeState } from "./observed-state.js";
import { createUpstreamMessage, UpstreamBenchAdapter } from "./upstream-adapter.js";

/** What a bot is built from. */
export interface BotOptions {
  readonly implementation: Implementation;
  readonly backend: BackendName;
  readonly strategy: BenchStrategy;
  readonly probe: HandlerProbe;
  readonly urls: ServerUrls;
  /** Offer Baton the State's fused fast paths where the backend has them; default true. */
  readonly fastPaths?: boolean;
}

/** The adapter name, and so the prefix of every thread id the bench sends. */
export const ADAPTER_NAME = "bench";

/**
 * Opens the backend and builds a connected Chat of the chosen implementation on it, with one
 * mention handler that reports to `probe`. Each Chat is used in its default configuration but
 * for the strategy, a silent logger, and (Baton) a sweep interval longer than any run, so a
 * background sweep — one round trip per interval per instance, not per message — cannot land
 * inside a measured window. `opened`, when given, is used instead of opening a backend (tests
 * use it to look at the backend's namespace); `close()` cleans it up either way.
 */
export async function createBot(options: BotOptions, opened?: OpenBackend): Promise<BenchBot> {
  const backend =
    opened ??
    (await openBackend(options.backend, options.implementation, options.urls, options.fastPaths));
  try {
    return options.implementation === "baton"
      ? await createBatonBot(options, backend)
      : await createUpstreamBot(options, backend);
  } catch (error) {
    await backend.cleanup();
    throw error;
  }
}

async function createBatonBot(options: BotOptions, backend: OpenBackend): Promise<BenchBot> {
  const observed = observeState(backend.state);
  const adapter = createMockAdapter(ADAPTER_NAME, { userName: "bot" });
  const chat = new Chat({
    userName: "bot",
    adapters: { [ADAPTER_NAME]: adapter },
    state: observed.state as StateAdapter,
    concurrency: { strategy: options.strategy, sweepIntervalMs: 3_600_000 },
    logger: "silent",
  });
  chat.onNewMention((thread, message, context) =>
    options.probe.run(
      thread.id,
      message.id,
      context.skipped.map((skipped) => skipped.id),
    ),
  );
  await chat.initialize();
  return {
    implementation: "baton",
    backend: options.backend,
    observed,
    roundTrips: backend.roundTrips,
    connectionsOpened: backend.connectionsOpened,
    lockKeyOf: (threadId) =>
      lockKeyFor("thread", threadId, adapter.channelIdFromThreadId(threadId)),
    prepare: (message) => ({ ...message, platform: batonMessage(message) }),
    async deliver(message) {
      const baton = "platform" in message ? (message.platform as Message) : batonMessage(message);
      try {
        const result = await chat.processMessage(adapter, message.threadId, baton);
        return result.outcome === "error" || result.outcome.startsWith("dropped") ? "failed" : "ok";
      } catch {
        return "failed";
      }
    },
    async close() {
      try {
        await chat.shutdown({ timeoutMs: 5_000 });
      } finally {
        await backend.cleanup();
      }
    },
  };
}

async function createUpstreamBot(options: BotOptions, backend: OpenBackend): Promise<BenchBot> {
  const observed = observeState(backend.state);
  const adapter = new UpstreamBenchAdapter(ADAPTER_NAME, "bot");
  const chat = new UpstreamChat({
    userName: "bot",
    adapters: { [ADAPTER_NAME]: adapter },
    state: observed.state as UpstreamStateAdapter,
    concurrency: options.strategy,
    logger: "silent",
  });
  chat.onNewMention((thread, message, context) =>
    options.probe.run(
      thread.id,
      message.id,
      (context?.skipped ?? []).map((skipped) => skipped.id),
    ),
  );
  // Upstream's processMessage does not initialize (its webhooks do): connect first.
  await chat.initialize();
  return {
    implementation: "upstream",
    backend: options.backend,
    observed,
    roundTrips: backend.roundTrips,
    connectionsOpened: backend.connectionsOpened,
    // Upstream locks and queues under the bare thread id (lockScope "thread").
    lockKeyOf: (threadId) => threadId,
    prepare: (message) => ({ ...message, platform: createUpstreamMessage(message) }),
    async deliver(message) {
      const upstream =
        "platform" in message
          ? (message.platform as ReturnType<typeof createUpstreamMessage>)
          : createUpstreamMessage(message);
      try {
        await chat.processMessage(adapter, message.threadId, upstream);
        return "ok";
      } catch {
        return "failed";
      }
    },
    async close() {
      try {
        await chat.shutdown();
      } finally {
        await backend.cleanup();
      }
    },
  };
}

/** Baton's message for a bench message: a mention, as an adapter that knows it would mark it. */
function batonMessage(message: BenchMessage): Message {
  return createTestMessage({ ...message, isMention: true });
}
