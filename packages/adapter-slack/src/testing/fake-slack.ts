import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  answerFakeSlackRoute,
  FAKE_SLACK_FILE_METHODS,
  runFileMethod,
} from "./fake-slack-files.js";
import {
  FAKE_SLACK_METHODS,
  type FakeSlackAnswer,
  FakeSlackError,
  type FakeSlackIdentity,
} from "./fake-slack-methods.js";
import { FakeSlackSocket } from "./fake-slack-socket.js";
import { FakeSlackStore, type FakeSlackUser } from "./fake-slack-store.js";
import { type FakeSlackWorkspace, FakeSlackWorkspaces } from "./fake-slack-workspaces.js";

/** One Web API call the fake received. */
export interface FakeSlackCall {
  readonly method: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The bearer token sent, or undefined. */
  readonly token: string | undefined;
  /** The request's headers as Node received them (lower-case names). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** A failure to answer the next call of a method with. */
export interface FakeSlackFailure {
  /** Slack's error (`ratelimited`, `channel_not_found`, `invalid_auth`, `internal_error`, …). */
  readonly error: string;
  /** For `ratelimited`: the `Retry-After` seconds sent with the 429. Default 0. */
  readonly retryAfterSeconds?: number;
  /** How many calls in a row fail. Default 1. */
  readonly times?: number;
}

/** Options of {@link startFakeSlack}. */
export interface FakeSlackOptions {
  readonly botToken?: string;
  /** The app-level token `apps.connections.open` accepts (Socket Mode). */
  readonly appToken?: string;
  readonly signingSecret?: string;
  readonly botUserId?: string;
  readonly botId?: string;
  readonly teamId?: string;
  /** The OAuth client credentials `oauth.v2.access` accepts. */
  readonly clientId?: string;
  readonly clientSecret?: string;
}

/** A running fake of Slack's Web API on 127.0.0.1 (real HTTP), for offline tests. */
export interface FakeSlack {
  /** The server's origin, `http://127.0.0.1:{port}`. */
  readonly url: string;
  /** What to pass as the adapter's `apiUrl`: `{url}/api/`. */
  readonly apiUrl: string;
  readonly botToken: string;
  readonly appToken: string;
  readonly signingSecret: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
  /** The workspace: messages, users, views, scheduled messages, typing statuses. */
  readonly store: FakeSlackStore;
  /** Socket Mode: the WebSocket endpoint, its connections, envelopes and acknowledgements. */
  readonly socket: FakeSlackSocket;
  /** Every call in arrival order. */
  readonly calls: readonly FakeSlackCall[];
  /** The calls of one method. */
  callsOf(method: string): FakeSlackCall[];
  /** Makes the next call(s) of `method` fail with Slack's error answer. */
  failNext(method: string, failure: FakeSlackFailure): void;
  /** Answers the next call of `method` with `body` as is (odd but successful Slack answers). */
  answerNext(method: string, body: Record<string, unknown>): void;
  addUser(user: FakeSlackUser): void;
  /** Installs the app in another workspace: calls with its token act as its bot. */
  addWorkspace(workspace: FakeSlackWorkspace): void;
  /** Makes `code` an OAuth code that `oauth.v2.access` exchanges (once) for `workspace`. */
  grantInstall(code: string, workspace: FakeSlackWorkspace): void;
  /** Forgets recorded calls and scripted failures (the store is kept). */
  reset(): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** WebClient form-encodes arguments, with objects and arrays as JSON strings. */
function argsOf(body: string, contentType: string | undefined): Record<string, unknown> {
  if (body === "") return {};
  if (contentType?.includes("application/json")) return JSON.parse(body) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    args[name] = /^[[{]/.test(value) ? safeJson(value) : value;
  }
  return args;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/**
 * Starts the fake: Slack's Web API methods the adapter calls (see `FAKE_SLACK_METHODS`), bearer
 * token checks (`invalid_auth` / `not_authed`), Slack's error answers (`channel_not_found`,
 * `not_in_channel` per channel; scripted ones per method, `ratelimited` as a 429 with
 * `Retry-After`), and a record of every call.
 */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const identity: FakeSlackIdentity = {
    botUserId: options.botUserId ?? "U0BOT00001",
    botId: options.botId ?? "B0BOT00001",
    teamId: options.teamId ?? "T0FAKE0001",
  };
  const botToken = options.botToken ?? "xoxb-fake-bot-token";
  const appToken = options.appToken ?? "xapp-1-fake-app-token";
  let socket: FakeSlackSocket | undefined;
  const workspaces = new FakeSlackWorkspaces(
    options.clientId ?? "fake-client-id",
    options.clientSecret ?? "fake-client-secret",
  );
  const store = new FakeSlackStore();
  const calls: FakeSlackCall[] = [];
  const failures = new Map<string, FakeSlackFailure[]>();
  const scriptedAnswers = new Map<string, Record<string, unknown>[]>();

  async function answer(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const method = path.startsWith("/api/") ? path.slice(5) : "";
    if (method === "") {
      const known = (token: string | undefined) =>
        token !== undefined && (token === botToken || workspaces.identityOf(token) !== undefined);
      if (await answerFakeSlackRoute(store, request, response, path, known)) return;
    }
    const body = await readBody(request);
    let args: Record<string, unknown>;
    try {
      args = argsOf(body, request.headers["content-type"]);
    } catch {
      return send(response, 200, { ok: false, error: "invalid_json" });
    }
    const auth = request.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : (args.token as string | undefined);
    calls.push({ method, args, token, headers: { ...request.headers } });
    const answerAsIs = scriptedAnswers.get(method)?.shift();
    if (answerAsIs !== undefined) return send(response, 200, answerAsIs);
    const scripted = failures.get(method)?.shift();
    if (scripted !== undefined) {
      if (scripted.error === "ratelimited") {
        const retryAfter = String(scripted.retryAfterSeconds ?? 0);
        return send(
          response,
          429,
          { ok: false, error: "ratelimited" },
          { "retry-after": retryAfter },
        );
      }
      return send(response, 200, { ok: false, error: scripted.error });
    }
    // The code exchange authenticates with the client credentials, not a token.
    if (method === "oauth.v2.access") return send(response, 200, workspaces.exchange(args));
    if (token === undefined) return send(response, 200, { ok: false, error: "not_authed" });
    if (method === "apps.connections.open") {
      // Only the app-level token opens Socket Mode connections (Slack: not_allowed_token_type).
      if (token !== appToken)
        return send(response, 200, { ok: false, error: "not_allowed_token_type" });
      return send(response, 200, { ok: true, url: socket?.openUrl() });
    }
    const handler = FAKE_SLACK_METHODS[method];
    const fileMethod = Object.hasOwn(FAKE_SLACK_FILE_METHODS, method);
    if (handler === undefined && !fileMethod) {
      return send(response, 404, { ok: false, error: "unknown_method" });
    }
    const caller = token === botToken ? identity : workspaces.identityOf(token);
    if (caller === undefined) return send(response, 200, { ok: false, error: "invalid_auth" });
    if (fileMethod || handler === undefined) {
      const method_ = method as keyof typeof FAKE_SLACK_FILE_METHODS;
      return send(response, 200, runFileMethod(method_, store, args, caller));
    }
    let result: FakeSlackAnswer;
    try {
      result = handler(store, args, caller);
    } catch (error) {
      if (error instanceof FakeSlackError) {
        return send(response, 200, { ok: false, error: error.slackError });
      }
      return send(response, 500, { ok: false, error: "internal_error" });
    }
    send(response, 200, result);
  }

  const server: Server = createServer((request, response) => {
    answer(request, response).catch(() => send(response, 500, { ok: false, error: "fatal_error" }));
  });
  socket = new FakeSlackSocket(server, () => url);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  store.origin = url;
  const liveSocket = socket;
  return {
    url,
    apiUrl: `${url}/api/`,
    botToken,
    appToken,
    socket: liveSocket,
    signingSecret: options.signingSecret ?? "fake-signing-secret",
    ...identity,
    store,
    calls,
    callsOf: (method) => calls.filter((call) => call.method === method),
    failNext: (method, failure) => {
      const list = failures.get(method) ?? [];
      for (let i = 0; i < (failure.times ?? 1); i += 1) list.push(failure);
      failures.set(method, list);
    },
    answerNext: (method, body) => {
      scriptedAnswers.set(method, [...(scriptedAnswers.get(method) ?? []), body]);
    },
    addUser: (user) => {
      store.users.set(user.id, user);
    },
    addWorkspace: (workspace) => workspaces.add(workspace),
    grantInstall: (code, workspace) => workspaces.grant(code, workspace),
    reset: () => {
      calls.length = 0;
      failures.clear();
      scriptedAnswers.clear();
    },
    close: async () => {
      await liveSocket.close();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
