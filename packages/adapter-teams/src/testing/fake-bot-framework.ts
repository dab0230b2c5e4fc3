import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CloudEnvironment, PUBLIC, withOverrides } from "@microsoft/teams.api";
import { connectorErrorBody, type FakeTeamsFailure } from "./fake-bot-framework-errors.js";
import { FakeGraph } from "./fake-graph.js";
import { FakeOneDrive } from "./fake-onedrive.js";
import { createSigningKey, publicJwk, type SigningKey, signJwt } from "./signing-keys.js";

/** The issuer of Bot Framework service tokens (the SDK checks it). */
export const BOT_FRAMEWORK_ISSUER = "https://api.botframework.com";

/** One call the bot made to the fake connector. */
export interface FakeTeamsCall {
  readonly method: string;
  /** The route: `activities.create`, `activities.update`, `activities.delete`, … */
  readonly route: FakeTeamsRoute;
  readonly conversationId: string;
  readonly activityId: string | undefined;
  /** The JSON body, when there was one. */
  readonly body: Record<string, unknown> | undefined;
  /** The bearer token the call carried. */
  readonly token: string | undefined;
  /** The reaction id, for `reactions.*` routes. */
  readonly reaction?: string;
  /** True for targeted activities (`isTargetedActivity=true`): only the recipient sees them. */
  readonly targeted?: boolean;
}

/** The connector routes a failure can be injected into. */
export type FakeTeamsRoute =
  | "activities.create"
  | "activities.update"
  | "activities.delete"
  | "conversations.create"
  | "reactions.add"
  | "reactions.delete"
  | "members.get";

/** Options of {@link startFakeBotFramework}. */
export interface FakeBotFrameworkOptions {
  /** The bot's app id (the inbound tokens' audience). Default a fixed GUID. */
  readonly appId?: string;
  /** The secret the token endpoint accepts. Default `fake-app-password`. */
  readonly appPassword?: string;
}

function json(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(body === undefined ? "" : JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  if (text === "") return undefined;
  const value = JSON.parse(text) as unknown;
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * A local Bot Framework for tests, with no tenant: the OpenID metadata and JWKS the Teams SDK
 * checks inbound tokens against (point the adapter's `cloud` at {@link FakeBotFramework.cloud}),
 * a client-credentials token endpoint for the bot's outbound calls, and a connector service (the
 * `serviceUrl` activities carry) that records every call and answers in the connector's shapes,
 * including injected failures such as 429 with `Retry-After`, and the user's OneDrive that
 * accepted file consents upload into.
 */
export class FakeBotFramework {
  /** Every connector call, in order. */
  readonly calls: FakeTeamsCall[] = [];
  /** The key that signs inbound activity tokens (published in the JWKS). */
  readonly signingKey: SigningKey = createSigningKey();
  /** The key of the fake login service, which signs the bot's outbound tokens. */
  private readonly tokenKey: SigningKey = createSigningKey();
  readonly appId: string;
  readonly appPassword: string;
  private readonly issued = new Set<string>();
  /** The scope each minted token was asked for (Graph accepts only its own scope). */
  private readonly scopes = new Map<string, string>();
  /** The fake Microsoft Graph (its origin is {@link url}; the cloud's `graphScope` points here). */
  readonly graph: FakeGraph;
  /** The user's OneDrive, where accepted file consents upload (`consentAnswer`). */
  readonly oneDrive: FakeOneDrive;
  private readonly failures = new Map<FakeTeamsRoute, FakeTeamsFailure[]>();
  private sequence = 0;

  constructor(
    private readonly server: Server,
    /** The fake's base URL, e.g. `http://127.0.0.1:PORT`. */
    readonly url: string,
    options: FakeBotFrameworkOptions,
  ) {
    this.appId = options.appId ?? "00000000-0000-4000-8000-000000000001";
    this.appPassword = options.appPassword ?? "fake-app-password";
    this.graph = new FakeGraph(url, `${url}/.default`);
    this.oneDrive = new FakeOneDrive(url);
  }

  /** The connector's service URL (what activities carry as `serviceUrl`). */
  get serviceUrl(): string {
    return `${this.url}/connector/`;
  }

  /** A Teams SDK cloud whose key lookup and login go to this fake. */
  get cloud(): CloudEnvironment {
    return withOverrides(PUBLIC, {
      openIdMetadataUrl: `${this.url}/v1/.well-known/openidconfiguration`,
      tokenIssuer: BOT_FRAMEWORK_ISSUER,
      loginEndpoint: this.url,
      graphScope: `${this.url}/.default`,
    });
  }

  /**
   * The bot's outbound credentials against the fake's token endpoint, as the SDK's `token`
   * factory: a client-credentials grant with `appId`/`appPassword` (MSAL, which the SDK uses for
   * `appPassword`, only talks to https authorities, so offline tests mint tokens this way).
   */
  tokenFactory(
    appPassword: string = this.appPassword,
  ): (scope: string | string[]) => Promise<string> {
    return async (scope) => {
      const form = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: this.appId,
        client_secret: appPassword,
        scope: Array.isArray(scope) ? scope.join(" ") : scope,
      });
      const response = await fetch(`${this.url}/botframework.com/oauth2/v2.0/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (!response.ok || body.access_token === undefined) {
        throw new Error(`fake token endpoint refused: ${body.error ?? response.status}`);
      }
      return body.access_token;
    };
  }

  /** Makes the next call to `route` fail with `failure` (repeat to fail several). */
  failNext(route: FakeTeamsRoute, failure: FakeTeamsFailure): void {
    const queue = this.failures.get(route) ?? [];
    queue.push(failure);
    this.failures.set(route, queue);
  }

  /** The reaction id of a `reactions.*` call (the last path segment). */
  reactionOf(call: FakeTeamsCall | undefined): string | undefined {
    return call?.reaction;
  }

  /** Calls to one route. */
  callsTo(route: FakeTeamsRoute): FakeTeamsCall[] {
    return this.calls.filter((call) => call.route === route);
  }

  /** Stops the server. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  /** @internal The HTTP handler. */
  async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", this.url);
    const path = url.pathname;
    const raw = await readBody(request);
    if (path.startsWith("/onedrive/")) return this.oneDrive.serve(request, response, path, raw);
    const text = raw.toString("utf8");
    if (request.method === "GET" && path === "/v1/.well-known/openidconfiguration") {
      return json(response, 200, {
        issuer: BOT_FRAMEWORK_ISSUER,
        jwks_uri: `${this.url}/v1/.well-known/keys`,
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (request.method === "GET" && path === "/v1/.well-known/keys") {
      return json(response, 200, { keys: [publicJwk(this.signingKey)] });
    }
    if (request.method === "POST" && path.endsWith("/oauth2/v2.0/token")) {
      return this.token(response, new URLSearchParams(text));
    }
    if (path.startsWith("/v1.0/")) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      return this.graph.serve(response, path, url.searchParams, token && this.scopes.get(token));
    }
    if (path.startsWith("/connector/v3/conversations")) {
      const targeted = url.searchParams.get("isTargetedActivity") === "true";
      return this.connector(request, response, path, text, targeted);
    }
    json(response, 404, connectorErrorBody({ status: 404, code: "NotFound" }));
  }

  private token(response: ServerResponse, form: URLSearchParams): void {
    if (form.get("client_id") !== this.appId || form.get("client_secret") !== this.appPassword) {
      return json(response, 401, { error: "invalid_client" });
    }
    // The SDK decodes its bot token as a JWT, so the fake mints one (signed by its own key).
    const nowS = Math.floor(Date.now() / 1000);
    const token = signJwt(this.tokenKey, {
      iss: `${this.url}/botframework.com/v2.0`,
      aud: "https://api.botframework.com",
      appid: this.appId,
      jti: randomBytes(8).toString("hex"),
      iat: nowS,
      nbf: nowS,
      exp: nowS + 3600,
    });
    this.issued.add(token);
    this.scopes.set(token, form.get("scope") ?? "");
    json(response, 200, { token_type: "Bearer", expires_in: 3600, access_token: token });
  }

  private connector(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    text: string,
    targeted: boolean,
  ) {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (token === undefined || !this.issued.has(token)) {
      return json(
        response,
        401,
        connectorErrorBody({
          status: 401,
          message: "Authorization has been denied for this request.",
        }),
      );
    }
    const rest = decodeURIComponent(path.slice("/connector/v3/conversations".length));
    const match =
      /^\/([^/]+)(?:\/activities(?:\/([^/]+))?(?:\/reactions\/([^/]+))?|\/members\/([^/]+))?$/.exec(
        rest,
      );
    if (rest === "" && request.method === "POST") {
      return this.record(response, "conversations.create", "POST", "", undefined, text, token);
    }
    if (match === null || match[1] === undefined) {
      return json(response, 404, connectorErrorBody({ status: 404 }));
    }
    const [, conversationId, activityId, reaction, member] = match;
    const method = request.method ?? "GET";
    let route: FakeTeamsRoute | undefined;
    if (member !== undefined) route = "members.get";
    else if (reaction !== undefined)
      route = method === "PUT" ? "reactions.add" : "reactions.delete";
    else if (method === "POST") route = "activities.create";
    else if (method === "PUT" && activityId !== undefined) route = "activities.update";
    else if (method === "DELETE" && activityId !== undefined) route = "activities.delete";
    if (route === undefined) return json(response, 405, connectorErrorBody({ status: 400 }));
    return this.record(response, route, method, conversationId, activityId ?? member, text, token, {
      reaction,
      targeted,
    });
  }

  private record(
    response: ServerResponse,
    route: FakeTeamsRoute,
    method: string,
    conversationId: string,
    activityId: string | undefined,
    text: string,
    token: string,
    extra: { reaction?: string | undefined; targeted?: boolean } = {},
  ): void {
    let body: Record<string, unknown> | undefined;
    try {
      body = parseJson(text);
    } catch {
      return json(response, 400, connectorErrorBody({ status: 400, message: "invalid JSON" }));
    }
    this.calls.push({
      method,
      route,
      conversationId,
      activityId,
      body,
      token,
      ...(extra.reaction === undefined ? {} : { reaction: extra.reaction }),
      ...(extra.targeted === true ? { targeted: true } : {}),
    });
    const failure = this.failures.get(route)?.shift();
    if (failure !== undefined) {
      const headers: Record<string, string> =
        failure.retryAfterSeconds === undefined
          ? {}
          : { "retry-after": String(failure.retryAfterSeconds) };
      return json(response, failure.status, connectorErrorBody(failure), headers);
    }
    this.sequence += 1;
    switch (route) {
      case "activities.create":
      case "activities.update":
        return json(response, 200, { id: activityId ?? `${Date.now()}${this.sequence}` });
      case "conversations.create":
        return json(response, 201, { id: `a:fake-dm-${this.sequence}`, activityId: undefined });
      case "members.get":
        return json(response, 200, {
          id: activityId,
          name: "Fake User",
          aadObjectId: "00000000-0000-4000-8000-00000000aaaa",
        });
      default:
        return json(response, 200, undefined);
    }
  }
}

/** Starts a {@link FakeBotFramework} on a free local port. */
export async function startFakeBotFramework(
  options: FakeBotFrameworkOptions = {},
): Promise<FakeBotFramework> {
  let fake: FakeBotFramework | undefined;
  const server = createServer((request, response) => {
    fake?.serve(request, response).catch(() => {
      if (!response.headersSent) json(response, 500, connectorErrorBody({ status: 500 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake = new FakeBotFramework(server, `http://127.0.0.1:${port}`, options);
  return fake;
}
