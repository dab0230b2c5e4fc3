import {
  createWebAdapter,
  DM_THREAD_NAME,
  jsonResponse as json,
  type WebAdapter,
} from "@baton/adapter-web";
import { type AgentBot, createAgentBot, createLocalModel } from "@baton/agent-bot";
import type { Logger, LogLevel } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { identifyGuest } from "./identity.js";

/** Where the agent's web adapter is mounted: `…/messages` and `…/events`. */
export const AGENT_CHAT_PATH = "/api/agent/web/";

/** The page's Stop button (the web adapter shows no cards). The agent's fallback text names it. */
export const AGENT_STOP_PATH = "/api/agent/stop";

/** Options of {@link startPlaygroundAgent}. */
export interface PlaygroundAgentOptions {
  /** The local model's pause before each word. Default 80 ms: slow enough to watch it grow. */
  readonly chunkDelayMs?: number;
  readonly logger?: Logger | LogLevel;
}

/** The agent bot beside the demo bot: its own web adapter, State and `Chat`. */
export interface PlaygroundAgent {
  readonly bot: AgentBot;
  readonly adapter: WebAdapter;
  /** Answers the agent's routes; `undefined` for any other path. */
  handle(request: Request): Promise<Response> | undefined;
  close(): Promise<void>;
}

/**
 * Starts the reference agent bot (`@baton/agent-bot`) on the deterministic local model, for the
 * playground's agent pane. It has a `Chat` of its own — not the demo bot's, which restarts when
 * the settings change — so the settings apply to the demo bot only, and the agent keeps its
 * `queue` strategy. Guests are the same (the playground's cookie).
 */
export async function startPlaygroundAgent(
  options: PlaygroundAgentOptions = {},
): Promise<PlaygroundAgent> {
  const adapter = createWebAdapter({
    identify: identifyGuest,
    userName: "agent",
    botUserId: "agent",
  });
  const bot = createAgentBot({
    state: createMemoryState(),
    adapters: { web: adapter },
    model: createLocalModel({ chunkDelayMs: options.chunkDelayMs ?? 80 }),
    logger: options.logger ?? "error",
  });
  await bot.chat.initialize();

  const stop = async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return json(405, { ok: false, error: "use POST" });
    const identity = identifyGuest(request);
    if (!identity) return json(401, { ok: false, error: "who are you? (no guest cookie)" });
    const dm = adapter.encodeThreadId({ userId: identity.userId, threadName: DM_THREAD_NAME });
    return json(200, { ok: true, stopped: await bot.stop(dm) });
  };

  return {
    bot,
    adapter,
    handle(request) {
      const path = new URL(request.url).pathname;
      if (path.startsWith(AGENT_CHAT_PATH)) {
        return bot.chat.webhooks.web?.(request) ?? Promise.resolve(json(404, { ok: false }));
      }
      if (path === AGENT_STOP_PATH) return stop(request);
      return undefined;
    },
    async close() {
      await bot.chat.shutdown({ timeoutMs: 2_000 });
      await adapter.disconnect();
    },
  };
}
