import type { Server } from "node:http";
import {
  createWebAdapter,
  jsonResponse as json,
  serveWebHandler,
  type WebAdapter,
} from "@baton/adapter-web";
import type { Logger, LogLevel } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { type PlaygroundAgent, startPlaygroundAgent } from "./agent-bot.js";
import { BotRuntime } from "./bot-runtime.js";
import { guestCookieFor, identifyGuest } from "./identity.js";
import { INSTANCES_PATH, instancesEndpoint } from "./instances-api.js";
import { DEFAULT_SETTINGS, mergeSettings, type PlaygroundSettings } from "./settings.js";
import { serveStatic } from "./static.js";
import { Timeline } from "./timeline.js";

/** Options of {@link startPlayground}. */
export interface PlaygroundOptions {
  /** The port to listen on; 0 picks a free one. Default 3000. */
  port?: number;
  /** The interface to listen on. Default `127.0.0.1`: the playground is for this machine. */
  host?: string;
  /** Settings at start. Default {@link DEFAULT_SETTINGS}. */
  settings?: Partial<PlaygroundSettings>;
  /** The runtime's logger. Default: errors on the console. */
  logger?: Logger | LogLevel;
  /** The agent bot's local model: its pause before each word. Default 80 ms. */
  agentChunkDelayMs?: number;
  /** The demo bot's lock lease. Default 3 000 ms: a killed instance's turn moves on quickly. */
  lockTtlMs?: number;
  /** How often each instance of the demo bot sweeps. Default 1 000 ms. */
  sweepIntervalMs?: number;
}

/** A running playground. */
export interface Playground {
  /** `http://localhost:{port}` */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly runtime: BotRuntime;
  readonly adapter: WebAdapter;
  readonly timeline: Timeline;
  /** The agent bot, in its own pane. */
  readonly agent: PlaygroundAgent;
  /** Stops the bot, ends open streams and closes the server. */
  close(): Promise<void>;
}

/**
 * Starts the playground: a node:http server (`serveWebHandler`) with the page, the demo bot's
 * web adapter under `/api/web/`, the settings under `/api/settings`, the instance controls
 * under `/api/instances` and the timeline stream at `/api/timeline`, the demo bot's two
 * instances sharing one memory State; and the agent bot (`@baton/agent-bot`, local model) under
 * `/api/agent/`, on a State of its own.
 */
export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const adapter = createWebAdapter({
    identify: identifyGuest,
    userName: "baton",
    botUserId: "baton",
  });
  // Owned here, not by a `Chat`: each instance's link keeps its `disconnect()` to itself.
  const state = createMemoryState();
  const timeline = new Timeline();
  const runtime = new BotRuntime({
    adapter,
    state,
    timeline,
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    onChange: (view) => timeline.announceInstances(view),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.lockTtlMs === undefined ? {} : { lockTtlMs: options.lockTtlMs }),
    ...(options.sweepIntervalMs === undefined ? {} : { sweepIntervalMs: options.sweepIntervalMs }),
  });
  await runtime.start();
  const agent = await startPlaygroundAgent({
    ...(options.agentChunkDelayMs === undefined ? {} : { chunkDelayMs: options.agentChunkDelayMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });

  const handle = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const forAgent = agent.handle(request);
    if (forAgent) return forAgent;
    // The adapter's host is the runtime's router: it picks the instance for each message.
    if (path.startsWith("/api/web/")) return adapter.handleWebhook(request);
    if (path === "/api/settings") return settingsEndpoint(request, runtime, timeline);
    if (path === INSTANCES_PATH || path.startsWith(`${INSTANCES_PATH}/`)) {
      return instancesEndpoint(request, runtime);
    }
    if (path === "/api/timeline" && request.method === "GET") {
      const current = { settings: runtime.settings, instances: runtime.view };
      return new Response(timeline.stream(current, request.signal), {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache",
        },
      });
    }
    if (path === "/api/timeline/clear" && request.method === "POST") {
      timeline.clear();
      return json(200, { ok: true });
    }
    const page = await serveStatic(request);
    if (!page) return notFound();
    const cookie = path === "/" || path === "/index.html" ? guestCookieFor(request) : undefined;
    if (cookie) page.headers.append("set-cookie", cookie);
    return page;
  };

  const served = await serveWebHandler(handle, {
    port: options.port ?? 3000,
    host: options.host ?? "127.0.0.1",
    onError: (error) => {
      console.error("playground: request failed", error);
      return json(500, { ok: false, error: "the playground server failed; see its console" });
    },
  });
  return {
    url: served.url,
    port: served.port,
    server: served.server,
    runtime,
    adapter,
    timeline,
    agent,
    async close() {
      await runtime.stop();
      await adapter.disconnect();
      await agent.close();
      timeline.closeAll();
      await served.close();
      await state.disconnect();
    },
  };
}

async function settingsEndpoint(
  request: Request,
  runtime: BotRuntime,
  timeline: Timeline,
): Promise<Response> {
  if (request.method === "GET") return json(200, { ok: true, settings: runtime.settings });
  if (request.method !== "POST") return json(405, { ok: false, error: "use GET or POST" });
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return json(400, { ok: false, error: "send the settings as JSON" });
  }
  const merged = mergeSettings(runtime.settings, input);
  if (!merged.ok) return json(400, { ok: false, error: merged.problems.join("; ") });
  const settings = await runtime.apply(merged.settings);
  timeline.announceSettings(settings);
  return json(200, { ok: true, settings });
}

function notFound(): Response {
  return json(404, { ok: false, error: "not found" });
}
