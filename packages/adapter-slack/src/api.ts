import { ConfigError, type Logger } from "@baton/core";
import { LogLevel, WebClient } from "@slack/web-api";
import { slackApiError } from "./errors.js";
import type { SlackRetryConfig } from "./options.js";

/** What {@link SlackApi} is built from. */
export interface SlackApiOptions {
  readonly botToken: string | undefined;
  readonly apiUrl: string | undefined;
  readonly retryConfig: SlackRetryConfig | undefined;
  readonly logger: () => Logger;
}

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
  private client: WebClient | undefined;

  constructor(private readonly options: SlackApiOptions) {}

  /** The WebClient (upstream exposes it as `adapter.client`). */
  get webClient(): WebClient {
    if (this.client === undefined) {
      this.client = new WebClient(this.options.botToken, {
        ...(this.options.apiUrl === undefined
          ? {}
          : { slackApiUrl: slackApiUrlOf(this.options.apiUrl) }),
        ...(this.options.retryConfig === undefined
          ? {}
          : { retryConfig: { ...this.options.retryConfig } }),
        logger: webClientLogger(this.options.logger),
      });
    }
    return this.client;
  }

  /** Calls `method` with `args`; resolves with Slack's answer or rejects with a SlackApiError. */
  async call(method: string, args: Record<string, unknown> = {}): Promise<SlackResponse> {
    if (this.options.botToken === undefined) {
      throw new ConfigError([
        `slack adapter: botToken is required to call ${method} (or set SLACK_BOT_TOKEN)`,
      ]);
    }
    try {
      return (await this.webClient.apiCall(method, args)) as SlackResponse;
    } catch (error) {
      throw slackApiError(method, error);
    }
  }
}
