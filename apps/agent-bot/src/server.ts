import {
  createWebAdapter,
  DM_THREAD_NAME,
  jsonResponse as json,
  serveWebHandler,
  WEB_ID_PATTERN,
  type WebAdapter,
  type WebIdentity,
} from "@baton/adapter-web";
import type { Adapter, Logger, LogLevel, StateAdapter } from "@baton/core";
import type { LanguageModel } from "ai";
import { type AgentBot, type AgentStrategy, createAgentBot } from "./bot.js";

/** Options of {@link startAgentServer}. */
export interface AgentServerOptions {
  readonly state: StateAdapter;
  readonly model: LanguageModel;
  readonly strategy?: AgentStrategy;
  /** The port; 0 picks a free one. Default 3000. */
  readonly port?: number;
  /** The interface. Default `127.0.0.1`: the demo identity below is not authentication. */
  readonly host?: string;
  readonly logger?: Logger | LogLevel;
  /** Hosted platforms beside the web adapter, each answered on its own webhook path. */
  readonly platforms?: readonly { readonly adapter: Adapter; readonly path: string }[];
}

/** A running agent bot behind HTTP. */
export interface AgentServer {
  readonly url: string;
  readonly port: number;
  readonly bot: AgentBot;
  readonly adapter: WebAdapter;
  /** Shuts the bot down, then closes the server. */
  close(): Promise<void>;
}

/** Where the web adapter's endpoints are mounted: `…/messages` and `…/events`. */
export const CHAT_PATH = "/api/chat/";

/** The web page's stop button: the web adapter shows no cards, so it is an endpoint. */
export const STOP_PATH = "/api/agent/stop";

const USAGE = `Baton agent bot (reference app)

  curl -N 'http://HOST/api/chat/events?user=alice'        # the answers, streamed as edits (SSE)
  curl -H 'content-type: application/json' -H 'x-agent-user: alice' \\
       -d '{"text":"what is Baton?"}' http://HOST/api/chat/messages
  curl -X POST -H 'x-agent-user: alice' http://HOST/api/agent/stop   # stop the answer
`;

/** Who sent a request: `?user=` or the `x-agent-user` header. A demo stand-in, not a login. */
export function identifyDemoUser(request: Request): WebIdentity | null {
  const userId =
    new URL(request.url).searchParams.get("user") ?? request.headers.get("x-agent-user");
  if (!userId || !WEB_ID_PATTERN.test(userId)) return null;
  return { userId, userName: userId };
}

/**
 * Starts the agent bot on a node:http server: the web adapter under {@link CHAT_PATH}, and
 * `POST` {@link STOP_PATH} stopping the answer streaming in the caller's direct conversation.
 */
export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const adapter = createWebAdapter({
    identify: identifyDemoUser,
    userName: "agent",
    botUserId: "agent",
  });
  const platforms = options.platforms ?? [];
  const bot = createAgentBot({
    state: options.state,
    adapters: {
      web: adapter,
      ...Object.fromEntries(platforms.map((platform) => [platform.adapter.name, platform.adapter])),
    },
    model: options.model,
    ...(options.strategy === undefined ? {} : { strategy: options.strategy }),
    logger: options.logger ?? "info",
  });
  await bot.chat.initialize();
  const logger = bot.chat.getLogger("agent-server");

  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith(CHAT_PATH)) {
      return (await bot.chat.webhooks.web?.(request)) ?? json(404, { ok: false });
    }
    const platform = platforms.find((one) => pathname === one.path);
    if (platform) {
      const webhook = bot.chat.webhooks[platform.adapter.name];
      return (await webhook?.(request)) ?? json(404, { ok: false });
    }
    if (pathname === STOP_PATH && request.method === "POST") {
      const identity = identifyDemoUser(request);
      if (!identity) return json(401, { ok: false, error: "who are you?" });
      const dm = adapter.encodeThreadId({ userId: identity.userId, threadName: DM_THREAD_NAME });
      return json(200, { ok: true, stopped: await bot.stop(dm) });
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
      return json(500, { ok: false, error: "the agent bot failed; see its log" });
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
