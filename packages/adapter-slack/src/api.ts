import { ConfigError, type Logger } from "@baton/core";
import { LogLevel, WebClient, type WebClientOptions } from "@slack/web-api";
import { currentBotToken, type SlackBotToken } from "./bot-token.js";
import { withEnterpriseContext } from "./enterprise-context.js";
import { SlackApiError, slackApiError } from "./errors.js";
import type { SlackRetryConfig } from "./options.js";
import { currentSlackToken } from "./token-context.js";

/** What {@link SlackApi} is built from. */
export interface SlackApiOptions {
  readonly botToken: SlackBotToken | undefined;
  readonly apiUrl: string | undefined;
  readonly retryConfig: SlackRetryConfig | undefined;
  /** Further WebClient options (the config's `webClientOptions`); the fields above win. */
  readonly webClientOptions?: WebClientOptions | undefined;
  readonly logger: () => Logger;
  /**
   * True for a multi-workspace app: outside a delivery or `withBotToken` there is no token to
   * fall back on, so asking for the WebClient there is an error instead of an unauthenticated
   * client.
   */
  readonly multiWorkspace?: boolean;
}

/** Slack's answers meaning the token itself is dead, not that the call was wrong. */
const TOKEN_REFUSALS = new Set(["invalid_auth", "token_revoked", "account_inactive"]);

/** How many token-bound WebClients are kept; the least recently used beyond it is dropped. */
const MAX_CLIENTS = 500;

/** A Web API response (Slack's JSON). */
export type SlackResponse = Record<string, unknown> & { ok: boolean };

/** `apiUrl` as WebClient's `slackApiUrl`: always ending in a slash, as it joins method names. */
export function slackApiUrlOf(apiUrl: string): string {
  return apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/`;
}

function webClientLogger(logger: () => Logger) {
  return {
    debug: (...args: unknown[]) => logger().debug(`slack web-api: ${args.join(" ")}`),
    info: (...args: unknown[]) => logger().info(`slack web-api: ${args.join(" ")}`),
    warn: (...args: unknown[]) => logger().warn(`slack web-api: ${args.join(" ")}`),
    error: (...args: unknown[]) => logger().error(`slack web-api: ${args.join(" ")}`),
    setLevel: () => undefined,
    getLevel: () => LogLevel.INFO,
    setName: () => undefined,
  };
}

/**
 * Every outbound call, through `@slack/web-api`'s `WebClient` (its retries and rate-limit
 * handling: a `ratelimited` answer waits for Slack's `Retry-After`). Failures become
 * `SlackApiError`s naming the method and Slack's error code.
 */
export class SlackApi {
  /** One WebClient per token, so each workspace keeps its own rate-limit queue and retries. */
  private readonly clients = new Map<string, WebClient>();

  /**
   * Called (with the method) when Slack refuses a call's token as dead (`invalid_auth`,
   * `token_revoked`, `account_inactive`), inside the caller's token context, so the
   * installation store can drop its cached copy of that workspace.
   */
  onTokenRefused: ((method: string) => void) | undefined;

  constructor(private readonly options: SlackApiOptions) {}

  /**
   * The WebClient of the current token (upstream exposes it as `adapter.client`): the delivery's
   * workspace or `withBotToken`'s token, else the configured `botToken`.
   */
  get webClient(): WebClient {
    const token = this.token();
    if (token === undefined && this.options.multiWorkspace === true) {
      throw new ConfigError([
        "slack adapter: no bot token here: a multi-workspace app has one only inside a webhook delivery or adapter.withBotToken(token, fn)",
      ]);
    }
    return this.clientFor(token);
  }

  /** The cached WebClient bound to `token` (undefined: unauthenticated, e.g. `oauth.v2.access`). */
  clientFor(token: string | undefined): WebClient {
    const id = token ?? "";
    const known = this.clients.get(id);
    if (known !== undefined) {
      // Re-inserted so the Map's order is least recently used first.
      this.clients.delete(id);
      this.clients.set(id, known);
      return known;
    }
    const extra = this.options.webClientOptions;
    const client = new WebClient(token, {
      ...extra,
      // A copy per client: one client's header change must not reach another workspace's.
      ...(extra?.headers === undefined ? {} : { headers: { ...extra.headers } }),
      ...(this.options.apiUrl === undefined
        ? {}
        : { slackApiUrl: slackApiUrlOf(this.options.apiUrl) }),
      ...(this.options.retryConfig === undefined
        ? {}
        : { retryConfig: { ...this.options.retryConfig } }),
      logger: extra?.logger ?? webClientLogger(this.options.logger),
    });
    this.clients.set(id, client);
    if (this.clients.size > MAX_CLIENTS) {
      const oldest = this.clients.keys().next().value;
      if (oldest !== undefined) this.clients.delete(oldest);
    }
    return client;
  }

  /** Calls `method` with `args`; resolves with Slack's answer or rejects with a SlackApiError. */
  async call(method: string, args: Record<string, unknown> = {}): Promise<SlackResponse> {
    const token = this.token();
    if (token === undefined) {
      throw new ConfigError([
        this.options.multiWorkspace === true
          ? `slack adapter: no bot token to call ${method}: a multi-workspace app (no botToken, another auth field given) calls Slack inside a webhook delivery or adapter.withBotToken(token, fn); give botToken for a single workspace`
          : `slack adapter: botToken is required to call ${method} (or set SLACK_BOT_TOKEN)`,
      ]);
    }
    return this.callWith(
      this.clientFor(token),
      method,
      withEnterpriseContext(args, currentSlackToken()),
    );
  }

  /** Calls a method that takes no bot token (`oauth.v2.access` authenticates with the client). */
  async callUnauthenticated(method: string, args: Record<string, unknown>): Promise<SlackResponse> {
    return this.callWith(this.clientFor(undefined), method, args);
  }

  private async callWith(
    client: WebClient,
    method: string,
    args: Record<string, unknown>,
  ): Promise<SlackResponse> {
    try {
      return (await client.apiCall(method, args)) as SlackResponse;
    } catch (error) {
      const failure = slackApiError(method, error);
      if (failure instanceof SlackApiError && TOKEN_REFUSALS.has(failure.slackError ?? "")) {
        this.onTokenRefused?.(method);
      }
      throw failure;
    }
  }

  private token(): string | undefined {
    return currentSlackToken()?.token ?? currentBotToken(this.options.botToken);
  }
}
