import { isValidSlackRequest } from "@slack/bolt";

/** Slack's signature headers. */
export const SLACK_SIGNATURE_HEADER = "x-slack-signature";
export const SLACK_TIMESTAMP_HEADER = "x-slack-request-timestamp";

/** How far a request's timestamp may be from now, either way: Slack's 5 minutes. */
export const SLACK_MAX_SKEW_SECONDS = 300;

/** What a request is checked against. */
export interface SlackSignatureCheck {
  readonly signingSecret: string;
  /** The raw body, exactly as received. */
  readonly body: string;
  /** The `X-Slack-Signature` header, or null. */
  readonly signature: string | null;
  /** The `X-Slack-Request-Timestamp` header, or null. */
  readonly timestamp: string | null;
  /** Now, in ms since the epoch. */
  readonly nowMs: number;
}

/**
 * True when the request is Slack's, signed now: the timestamp is an integer within
 * {@link SLACK_MAX_SKEW_SECONDS} of `nowMs` in either direction (checked here: bolt accepts any
 * future timestamp), then the `v0=` HMAC-SHA256 over `v0:{ts}:{body}` checked by bolt's own
 * `isValidSlackRequest` in constant time. Missing headers fail.
 */
export function verifySlackSignature(check: SlackSignatureCheck): boolean {
  const { signature, timestamp } = check;
  if (!signature || !timestamp || check.signingSecret === "") return false;
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  const seconds = Number(timestamp);
  if (Math.abs(check.nowMs / 1_000 - seconds) > SLACK_MAX_SKEW_SECONDS) return false;
  return isValidSlackRequest({
    signingSecret: check.signingSecret,
    body: check.body,
    headers: { "x-slack-signature": signature, "x-slack-request-timestamp": seconds },
    nowMilliseconds: check.nowMs,
    // bolt logs every refusal at info level; the adapter answers 401 and logs once itself.
    logger: QUIET_LOGGER,
  });
}

const noop = () => undefined;
const QUIET_LOGGER = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  setLevel: noop,
  getLevel: () => "error",
  setName: noop,
} as unknown as Parameters<typeof isValidSlackRequest>[0]["logger"];
