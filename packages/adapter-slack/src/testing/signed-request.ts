import { createHmac } from "node:crypto";

/** What {@link createSlackWebhookRequest} builds a request from. */
export interface SlackWebhookRequestInit {
  /** The app's signing secret: the signing key. */
  readonly signingSecret: string;
  /** A JSON body (Events API); or use `form`. */
  readonly json?: unknown;
  /** A form body (slash commands; interactivity as `{ payload: JSON.stringify(…) }`). */
  readonly form?: Readonly<Record<string, string>>;
  /** The request timestamp in seconds. Default: now (`nowMs` or the system clock). */
  readonly timestampSeconds?: number;
  readonly nowMs?: number;
  /** Replaces the computed signature (forged-request tests); `null` sends none. */
  readonly signature?: string | null;
  /** `null` sends no timestamp header. */
  readonly omitTimestamp?: boolean;
  /** Extra headers (`x-slack-retry-num`, …). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default `https://bot.example.com/api/slack`. */
  readonly url?: string;
}

/** Slack's `v0=` signature of `body` at `timestampSeconds`: HMAC-SHA256 over `v0:{ts}:{body}`. */
export function slackSignature(signingSecret: string, timestampSeconds: number, body: string) {
  const digest = createHmac("sha256", signingSecret)
    .update(`v0:${timestampSeconds}:${body}`)
    .digest("hex");
  return `v0=${digest}`;
}

/**
 * A web-standard `Request` exactly as Slack sends one: JSON or form body, signed with
 * `X-Slack-Signature` and `X-Slack-Request-Timestamp`. The test kit signs with Node's crypto,
 * playing Slack's part; the adapter verifies with bolt.
 */
export function createSlackWebhookRequest(init: SlackWebhookRequestInit): Request {
  const body =
    init.form !== undefined
      ? new URLSearchParams({ ...init.form }).toString()
      : JSON.stringify(init.json ?? {});
  const seconds = init.timestampSeconds ?? Math.floor((init.nowMs ?? Date.now()) / 1_000);
  const signature =
    init.signature === undefined
      ? slackSignature(init.signingSecret, seconds, body)
      : init.signature;
  const headers: Record<string, string> = {
    "content-type":
      init.form !== undefined ? "application/x-www-form-urlencoded" : "application/json",
    ...init.headers,
  };
  if (!init.omitTimestamp) headers["x-slack-request-timestamp"] = String(seconds);
  if (signature !== null) headers["x-slack-signature"] = signature;
  return new Request(init.url ?? "https://bot.example.com/api/slack", {
    method: "POST",
    headers,
    body,
  });
}
