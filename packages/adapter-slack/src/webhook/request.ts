import { readWebhookBody } from "@baton/core";
import {
  parseSlackWebhookBody,
  type SlackEventCallback,
  type SlackWebhookPayload,
} from "../parse.js";
import { SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER, verifySlackSignature } from "../verify.js";

/** The body size {@link verifySlackRequest} reads at most unless told otherwise: 1 MiB. */
export const SLACK_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** Why a request was not taken as Slack's. */
export type SlackWebhookRefusal = "too_large" | "no_secret" | "bad_signature";

/** A request that is not verifiably Slack's; answer it 401 (413 for `too_large`). */
export class SlackWebhookVerificationError extends Error {
  override readonly name = "SlackWebhookVerificationError";

  constructor(
    /** What failed: the size limit, a missing signing secret, or the signature and timestamp. */
    readonly reason: SlackWebhookRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Request headers as `Headers` or a plain object whose names may be in any case. */
export type SlackHeaderSource =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** One header, looked up case-insensitively; repeated values are joined as fetch joins them. */
export function slackHeader(headers: SlackHeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === "string" ? value : value.join(", ");
  }
  return null;
}

/** Slack's signature and timestamp headers, ready for `verifySlackSignature`. */
export function slackSignatureHeaders(headers: SlackHeaderSource): {
  readonly signature: string | null;
  readonly timestamp: string | null;
} {
  return {
    signature: slackHeader(headers, SLACK_SIGNATURE_HEADER),
    timestamp: slackHeader(headers, SLACK_TIMESTAMP_HEADER),
  };
}

/**
 * A check that replaces the signing secret (a gateway that verified upstream, a test): true
 * accepts the body as read, a string accepts and replaces it, false refuses.
 */
export type SlackWebhookVerifier = (request: {
  readonly body: string;
  readonly headers: Headers;
}) => boolean | string | Promise<boolean | string>;

/** How {@link verifySlackRequest} checks a request. */
export interface VerifySlackRequestOptions {
  /** The app's signing secret; checked with bolt's `isValidSlackRequest` (and a ±5 min window). */
  readonly signingSecret?: string;
  /** Used instead of the signing secret when set. */
  readonly webhookVerifier?: SlackWebhookVerifier;
  /** Now, in ms since the epoch (an injected clock); default `Date.now`. */
  readonly now?: () => number;
  /** Larger bodies are refused before any check; default {@link SLACK_WEBHOOK_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
}

/**
 * Reads the raw body of `request` and resolves with it once it is verified as Slack's: by
 * `webhookVerifier` when given, else by the signing secret over the exact bytes received. Rejects
 * with a {@link SlackWebhookVerificationError} otherwise; nothing is parsed before that.
 */
export async function verifySlackRequest(
  request: Request,
  options: VerifySlackRequestOptions,
): Promise<string> {
  const body = await readWebhookBody(request, options.maxBodyBytes ?? SLACK_WEBHOOK_MAX_BODY_BYTES);
  if (body === undefined) {
    throw new SlackWebhookVerificationError("too_large", "the Slack request body is too large");
  }
  if (options.webhookVerifier !== undefined) {
    const verdict = await options.webhookVerifier({ body, headers: request.headers });
    if (verdict === false) {
      throw new SlackWebhookVerificationError(
        "bad_signature",
        "the webhook verifier refused the request",
      );
    }
    return typeof verdict === "string" ? verdict : body;
  }
  if (options.signingSecret === undefined || options.signingSecret === "") {
    throw new SlackWebhookVerificationError(
      "no_secret",
      "no signing secret to verify the Slack request",
    );
  }
  const verified = verifySlackSignature({
    signingSecret: options.signingSecret,
    body,
    ...slackSignatureHeaders(request.headers),
    nowMs: (options.now ?? Date.now)(),
  });
  if (!verified) {
    throw new SlackWebhookVerificationError(
      "bad_signature",
      "the Slack signature or timestamp does not match",
    );
  }
  return body;
}

/**
 * Verifies `request` ({@link verifySlackRequest}), then parses the verified body by its media
 * type (`parseSlackWebhookBody`). Rejects with a `SlackWebhookVerificationError` or a
 * `SlackWebhookParseError`.
 */
export async function readSlackWebhook(
  request: Request,
  options: VerifySlackRequestOptions,
): Promise<SlackWebhookPayload> {
  const body = await verifySlackRequest(request, options);
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  return parseSlackWebhookBody(body, type);
}

/** Slack's redelivery headers: which retry this is and why (`http_timeout`, …). */
export function slackRetryOf(
  headers: SlackHeaderSource,
): { readonly num: number; readonly reason: string | undefined } | undefined {
  const num = slackHeader(headers, "x-slack-retry-num");
  if (num === null || !/^\d+$/.test(num)) return undefined;
  return { num: Number(num), reason: slackHeader(headers, "x-slack-retry-reason") ?? undefined };
}

/** Where a reply to an event goes: its channel, workspace and thread. */
export interface SlackContinuation {
  readonly teamId: string;
  readonly channelId: string;
  /** The event's thread, or its own ts for a top-level message (a reply starts a thread there). */
  readonly threadTs: string;
}

/**
 * The reply target of a message-like event (`message`, `app_mention`), or undefined when the
 * event names no channel or ts.
 */
export function slackContinuationOf(payload: SlackEventCallback): SlackContinuation | undefined {
  const { channel, thread_ts: threadTs, ts } = payload.event;
  const thread = threadTs ?? ts;
  if (channel === undefined || thread === undefined) return undefined;
  return {
    teamId: payload.teamId || (payload.event.team ?? ""),
    channelId: channel,
    threadTs: thread,
  };
}
