import { LogLevel, WebClient, type WebClientOptions } from "@slack/web-api";
import { slackApiError } from "../errors.js";

/** A Web API answer: Slack's JSON, `ok` always present. */
export type SlackApiResult = Record<string, unknown> & { ok: boolean };

/** The bot token, or a function that fetches it (a vault, a per-workspace store). */
export type SlackTokenSource = string | (() => string | Promise<string>);

/**
 * Where and how a helper calls Slack. Every call goes through `@slack/web-api`'s `WebClient`, so
 * it keeps WebClient's retries and rate-limit waits; pass `client` to reuse one (for example
 * `adapter.webClient`), or `token` (plus the transport fields) to have one built for the call.
 */
export interface SlackApiTarget {
  /** A ready WebClient; when set, `token`, `apiUrl`, `fetch` and the retry fields are ignored. */
  readonly client?: WebClient;
  readonly token?: SlackTokenSource;
  /** Slack's Web API origin, `https://slack.com/api/` by default (a proxy, the test fake). */
  readonly apiUrl?: string;
  /** The fetch WebClient sends with (a proxy agent, a test transport). */
  readonly fetch?: typeof globalThis.fetch;
  /** WebClient's retry policy (`retries`, `factor`, …); WebClient's default when unset. */
  readonly retryConfig?: WebClientOptions["retryConfig"];
  /** True: a 429 rejects at once with a `RateLimitError` instead of waiting for `Retry-After`. */
  readonly rejectRateLimitedCalls?: boolean;
}

/** Slack's API body media type, as WebClient sends it. */
export const SLACK_API_CONTENT_TYPE = "application/x-www-form-urlencoded";

/**
 * A Web API body as Slack takes it over a form post (the rule WebClient follows): strings,
 * numbers and booleans as text, objects and arrays as JSON, `undefined` and `null` left out.
 * For callers that sign, queue or proxy the request themselves; the helpers here let WebClient
 * encode.
 */
export function encodeSlackApiBody(args: Readonly<Record<string, unknown>>): {
  readonly contentType: typeof SLACK_API_CONTENT_TYPE;
  readonly body: string;
} {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const scalar =
      typeof value === "string" || typeof value === "number" || typeof value === "boolean";
    form.append(key, scalar ? String(value) : JSON.stringify(value));
  }
  return { contentType: SLACK_API_CONTENT_TYPE, body: form.toString() };
}

// WebClient logs every retry and rate limit at info level; a helper reports through its errors.
const QUIET = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

async function tokenOf(source: SlackTokenSource | undefined): Promise<string | undefined> {
  return typeof source === "function" ? await source() : source;
}

/** The WebClient a helper call goes through (the caller's, or one built from `target`). */
export async function slackClientFor(target: SlackApiTarget): Promise<WebClient> {
  if (target.client !== undefined) return target.client;
  return new WebClient(await tokenOf(target.token), {
    ...(target.apiUrl === undefined
      ? {}
      : { slackApiUrl: target.apiUrl.endsWith("/") ? target.apiUrl : `${target.apiUrl}/` }),
    // The DOM typings of Response lack Headers.entries, which WebClient reads: the runtime has it.
    ...(target.fetch === undefined
      ? {}
      : { fetch: target.fetch as unknown as WebClientOptions["fetch"] }),
    ...(target.retryConfig === undefined ? {} : { retryConfig: { ...target.retryConfig } }),
    ...(target.rejectRateLimitedCalls === undefined
      ? {}
      : { rejectRateLimitedCalls: target.rejectRateLimitedCalls }),
    logger: QUIET,
  });
}

/**
 * Calls the Web API `method` with `args` through WebClient. Resolves with Slack's answer when it
 * is `ok`; otherwise rejects with a `SlackApiError` carrying Slack's code as `slackError`, or a
 * `RateLimitError` (core) with Slack's `Retry-After` once WebClient stops waiting on a 429.
 */
export async function callSlackApi(
  method: string,
  args: Readonly<Record<string, unknown>>,
  target: SlackApiTarget,
): Promise<SlackApiResult> {
  const client = await slackClientFor(target);
  try {
    return (await client.apiCall(method, { ...args })) as SlackApiResult;
  } catch (error) {
    throw slackApiError(method, error);
  }
}
