import {
  createWebAdapter,
  DM_THREAD_NAME,
  jsonResponse as json,
  serveWebHandler,
  WEB_ID_PATTERN,
  type WebAdapter,
  type WebIdentity,
} from "@baton/adapter-web";
import type { ChosenPlatform } from "@baton/bot-env";
import type { Logger, LogLevel, StateAdapter } from "@baton/core";
import { createSupportBot, type SupportBot } from "./bot.js";

/** Options of {@link startSupportServer}. */
export interface SupportServerOptions {
  /** The shared State; the server's `Chat` connects it, and disconnects it on `close()`. */
  readonly state: StateAdapter;
  /** User ids allowed to run `/agent …` commands. */
  readonly agentIds: readonly string[];
  /** The port; 0 picks a free one. Default 3000. */
  readonly port?: number;
  /** The interface. Default `127.0.0.1`: the demo identity below is not authentication. */
  readonly host?: string;
  readonly holdTtlMs?: number;
  readonly logger?: Logger | LogLevel;
  /** Hosted platforms beside the web adapter, each under its webhook path (`platformsFromEnv`). */
  readonly platforms?: readonly ChosenPlatform[];
}

/** A running support bot behind HTTP. */
export interface SupportServer {
  /** `http://localhost:{port}` */
  readonly url: string;
  readonly port: number;
  readonly bot: SupportBot;
  readonly adapter: WebAdapter;
  /** Shuts the bot down (ends event streams, disconnects the State), then closes the server. */
  close(): Promise<void>;
}

/** Where the web adapter's two endpoints are mounted: `…/messages` and `…/events`. */
export const CHAT_PATH = "/api/chat/";

const USAGE = `Baton support bot (reference app)

Chat as a customer:
  curl -N 'http://HOST/api/chat/events?user=alice'            # replies, as server-sent events
  curl -H 'content-type: application/json' -H 'x-support-user: alice' \\
       -d '{"text":"where is my order?"}' http://HOST/api/chat/messages

Work as an agent (an id listed in SUPPORT_AGENT_IDS), from your own conversation:
  curl -H 'content-type: application/json' -H 'x-support-user: sam' \\
       -d '{"text":"/agent take web:alice:dm"}' http://HOST/api/chat/messages
  … "/agent say web:alice:dm Hello, Sam here", "/agent show web:alice:dm",
    "/agent release web:alice:dm"
`;

/**
 * Who sent a request: `?user=` (EventSource cannot set headers) or the `x-support-user`
 * header. A demo stand-in: anyone can claim any id, agents' included. A real deployment puts
 * its session check here, and keeps the agent role behind it.
 */
export function identifyDemoUser(request: Request): WebIdentity | null {
  const userId =
    new URL(request.url).searchParams.get("user") ?? request.headers.get("x-support-user");
  if (!userId || !WEB_ID_PATTERN.test(userId)) return null;
  return { userId, userName: userId };
}

/**
 * Starts the support bot on a node:http server, with the web adapter under {@link CHAT_PATH}.
 * A customer opening their event stream is welcomed in their direct conversation before the
 * stream's snapshot is taken, so the greeting is the first thing they see.
 */
export async function startSupportServer(options: SupportServerOptions): Promise<SupportServer> {
  const adapter = createWebAdapter({
    identify: identifyDemoUser,
    userName: "support",
    botUserId: "support",
  });
  const platforms = options.platforms ?? [];
  const bot = createSupportBot({
    state: options.state,
    adapters: {
      web: adapter,
      ...Object.fromEntries(platforms.map((platform) => [platform.adapter.name, platform.adapter])),
    },
    agentIds: options.agentIds,
    ...(options.holdTtlMs === undefined ? {} : { holdTtlMs: options.holdTtlMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  await bot.chat.initialize();
  const logger = bot.chat.getLogger("support-server");

  const greetOnOpen = async (request: Request) => {
    const identity = identifyDemoUser(request);
    if (!identity || bot.isAgent(identity.userId)) return;
    const dm = adapter.encodeThreadId({ userId: identity.userId, threadName: DM_THREAD_NAME });
    // A page reloaded on another instance races this one; the welcome's claim lets one post.
    await bot.greet(dm).catch((error: unknown) => logger.warn("welcome failed", { error }));
  };

  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(CHAT_PATH)) {
      if (request.method === "GET" && pathname.endsWith("/events")) await greetOnOpen(request);
      return (await bot.chat.webhooks.web?.(request)) ?? json(404, { ok: false });
    }
    const platform = platforms.find((one) => pathname === one.path);
    if (platform) {
      const webhook = bot.chat.webhooks[platform.adapter.name];
      return (await webhook?.(request)) ?? json(404, { ok: false });
    }
    if (pathname === "/healthz") return json(200, { ok: true });
    if (pathname === "/" && request.method === "GET") {
      const host = request.headers.get("host") ?? "localhost";
      return new Response(USAGE.replaceAll("HOST", host), {
        headers: { "content-type": "text/plain; charset=utf-8" },
      });
    }
    return json(404, { ok: false, error: "not found" });
  };

  const served = await serveWebHandler(handle, {
    port: options.port ?? 3000,
    host: options.host ?? "127.0.0.1",
    onError: (error) => {
      logger.error("request failed", { error });
      return json(500, { ok: false, error: "the support bot failed; see its log" });
    },
  });
  return {
    url: served.url,
    port: served.port,
    bot,
    adapter,
    async close() {
      await bot.chat.shutdown();
      await served.close();
    },
  };
}
