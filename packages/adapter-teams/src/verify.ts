import { systemClock } from "@baton/core";
import type { CloudEnvironment, InvokeResponse, IToken } from "@microsoft/teams.api";
import {
  App,
  type AppOptions,
  type HttpRouteHandler,
  type IActivityEvent,
  type IHttpServerAdapter,
  type IHttpServerResponse,
  type IPlugin,
} from "@microsoft/teams.apps";
import type { SdkLogger } from "./sdk-logger.js";
import { TokenRefusalLog, withRefusalScope } from "./token-refusals.js";

/** An inbound activity the SDK accepted. */
export interface VerifiedActivity {
  readonly body: Record<string, unknown>;
  /** The service URL, as the SDK resolved it (the activity's, which the token vouched for). */
  readonly serviceUrl: string;
}

/** What the host answers a request with: the SDK's status and body. */
export type TeamsHostAnswer = IHttpServerResponse;

/** The credentials part of the Teams SDK's `AppOptions` (see `toAppOptions`). */
export type TeamsAppCredentials = Pick<
  AppOptions<IPlugin>,
  "clientId" | "clientSecret" | "tenantId" | "token" | "managedIdentityClientId"
>;

/** An `IHttpServerAdapter` that listens nowhere: it keeps the route the SDK registers. */
class DetachedServer implements IHttpServerAdapter {
  route: HttpRouteHandler | undefined;
  registerRoute(_method: "POST", _path: string, handler: HttpRouteHandler): void {
    this.route = handler;
  }
}

/** The Teams SDK's `App`, with its bot-token source opened to the adapter. */
class HostedApp extends App {
  /** The bot's outbound access token (the SDK's token manager: MSAL, a factory, or MI). */
  async botToken(): Promise<string> {
    const token = await this.getBotToken();
    if (token === null || token === undefined) {
      throw new Error("the Teams SDK has no credentials to mint a bot token");
    }
    return token.toString();
  }

  /** An app-only token for the cloud's Graph scope (client credentials, tenant `tenantId`). */
  async graphToken(tenantId?: string): Promise<IToken> {
    const token = await this.getAppGraphToken(tenantId);
    if (token === null || token === undefined) {
      throw new Error("the Teams SDK has no credentials to mint a Graph token");
    }
    return token;
  }
}

/**
 * Microsoft's Teams SDK `App`, hosted without its own HTTP server: the SDK registers its
 * messaging route on a detached adapter and Baton calls that route with each request's parsed
 * body and headers. The SDK checks the Bot Framework JWT — RS256 signature from the cloud's JWKS,
 * audience (the app id), issuer, expiry, `serviceurl` claim = the activity's `serviceUrl` — and
 * only an accepted activity reaches `handle`'s callback; every refusal is the SDK's own 401,
 * logged as one rate-limited warning (`TokenRefusalLog`).
 * Baton parses and checks no token itself.
 */
export class TeamsHost {
  private readonly app: HostedApp;
  private readonly server = new DetachedServer();
  /** Warns (rate-limited) about each request whose token the SDK refused. */
  private readonly refusals: TokenRefusalLog;
  private ready: Promise<void> | undefined;
  /** The handler of each request in flight, keyed by its body (the object the SDK hands back). */
  private readonly pending = new WeakMap<
    object,
    (activity: VerifiedActivity) => Promise<InvokeResponse>
  >();

  constructor(
    credentials: TeamsAppCredentials,
    cloud: CloudEnvironment | undefined,
    log: SdkLogger,
    refusals?: TokenRefusalLog,
  ) {
    this.refusals = refusals ?? new TokenRefusalLog(systemClock, () => log);
    this.app = new HostedApp({
      ...credentials,
      ...(cloud === undefined ? {} : { cloud }),
      logger: log,
      httpServerAdapter: this.server,
    });
  }

  /** The bot's outbound access token, from the SDK. */
  botToken(): Promise<string> {
    return this.app.botToken();
  }

  /** An app-only Graph token from the SDK's token manager (see `HostedApp.graphToken`). */
  graphToken(tenantId?: string): Promise<IToken> {
    return this.app.graphToken(tenantId);
  }

  /** Graph's origin for the configured cloud (from its `graphScope`), if it names one. */
  get graphBaseUrl(): string | undefined {
    return this.app.graphBaseUrl;
  }

  /**
   * Checks the request's token through the SDK's HTTP front; only when the SDK accepts it does
   * `run` get the activity, and its answer becomes the request's.
   */
  async process(
    body: object,
    headers: Record<string, string>,
    run: (activity: VerifiedActivity) => Promise<InvokeResponse>,
  ): Promise<TeamsHostAnswer> {
    // A failed start (a plugin, the SDK's validator setup) is retried by the next request.
    this.ready ??= this.start().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    await this.ready;
    const route = this.server.route;
    if (route === undefined) throw new Error("the Teams SDK registered no messaging route");
    this.pending.set(body, run);
    try {
      const {
        value: answer,
        reason,
        detail,
      } = await withRefusalScope(() => route({ body, headers }));
      if (answer.status === 401) this.refusals.refused(reason, detail);
      return answer;
    } finally {
      this.pending.delete(body);
    }
  }

  private async start(): Promise<void> {
    await this.app.initialize();
    // The SDK calls onRequest only after its JWT check passed; Baton routes the activity itself
    // (the SDK's router would otherwise build a context and reply channel Baton does not use).
    this.app.server.onRequest = async (event: IActivityEvent) => {
      const run = this.pending.get(event.body as object);
      if (run === undefined) return { status: 500 } as InvokeResponse;
      return run({
        body: event.body as unknown as Record<string, unknown>,
        serviceUrl: event.token.serviceUrl,
      });
    };
  }
}
