import { AdapterError, type BatonErrorOptions, isBatonError, RateLimitError } from "@baton/core";
import { SLACK_ADAPTER_NAME } from "./thread-id.js";

/** A Web API call Slack refused; `slackError` is Slack's own code (`channel_not_found`, …). */
export class SlackApiError extends AdapterError {
  /** Slack's error string (`channel_not_found`, `not_in_channel`, `invalid_auth`, `ratelimited`). */
  readonly slackError: string | undefined;
  /** The Web API method that failed (`chat.postMessage`). */
  readonly method: string;

  constructor(
    method: string,
    message: string,
    slackError: string | undefined,
    options: BatonErrorOptions = {},
  ) {
    super(SLACK_ADAPTER_NAME, message, options);
    this.name = "SlackApiError";
    this.method = method;
    this.slackError = slackError;
  }
}

interface WebApiFailure {
  code?: unknown;
  retryAfter?: unknown;
  original?: { message?: unknown };
  data?: { error?: unknown };
  message?: unknown;
}

/**
 * The Baton error for a failed WebClient call: Baton errors pass through; a rate limit WebClient
 * gave up on is a `RateLimitError` with Slack's `Retry-After`; Slack's platform
 * errors keep Slack's code as `slackError`; transport errors keep their message. The original is
 * the `cause`.
 */
export function slackApiError(method: string, error: unknown): Error {
  if (isBatonError(error)) return error as Error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as WebApiFailure;
  // WebClient waits out each 429 itself; when its retries run out it reports the last one as a
  // request error whose message carries Slack's Retry-After.
  const exhausted =
    typeof failure.original?.message === "string" &&
    /rate limit was exceeded/i.test(failure.original.message);
  if (
    exhausted ||
    failure.code === "slack_webapi_rate_limited_error" ||
    failure.data?.error === "ratelimited"
  ) {
    const fromMessage = exhausted
      ? /retry-after: (\d+)/.exec(String(failure.original?.message))?.[1]
      : undefined;
    const seconds =
      typeof failure.retryAfter === "number"
        ? failure.retryAfter
        : fromMessage === undefined
          ? undefined
          : Number(fromMessage);
    return new RateLimitError(
      `${method} was rate limited by Slack`,
      seconds === undefined ? undefined : seconds * 1_000,
      { cause: error, step: `slack: ${method}` },
    );
  }
  const slackError =
    typeof failure.data?.error === "string"
      ? failure.data.error
      : failure.code === "slack_webapi_rate_limited_error"
        ? "ratelimited"
        : undefined;
  const detail =
    slackError ?? (typeof failure.message === "string" ? failure.message : String(error));
  return new SlackApiError(method, `${method} failed: ${detail}`, slackError, {
    cause: error,
    step: `slack: ${method}`,
  });
}
