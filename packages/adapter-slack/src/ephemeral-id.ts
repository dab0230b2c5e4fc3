import { Buffer } from "node:buffer";

/** What an ephemeral message id carries: enough to replace or delete the message later. */
export interface SlackEphemeralMessageRef {
  /** The ephemeral message's `ts` (Slack keeps no copy of it: it cannot be fetched). */
  readonly messageTs: string;
  /** The `response_url` of the interaction on the message, which edits and deletes it. */
  readonly responseUrl: string;
  /** The one user who sees the message; empty in the legacy form, which did not carry it. */
  readonly userId: string;
}

const PREFIX = "ephemeral:";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The message id of an ephemeral message a user acted on: `ephemeral:{ts}:{base64 JSON}` with
 * the interaction's `response_url` and the user's id (upstream's format, so ids stored by
 * upstream bots keep working). Slack edits and deletes an ephemeral message only through that
 * URL, so the id carries it, and no State is needed to find it again (ADR 0022).
 */
export function encodeSlackEphemeralMessageId(
  messageTs: string,
  responseUrl: string,
  userId: string,
): string {
  const data = Buffer.from(JSON.stringify({ responseUrl, userId }), "utf8").toString("base64");
  return `${PREFIX}${messageTs}:${data}`;
}

function decodeBase64(text: string): string | undefined {
  // Buffer skips characters that are not base64; an id that holds any is not one of ours.
  if (!BASE64.test(text)) return undefined;
  return Buffer.from(text, "base64").toString("utf8");
}

/**
 * The inverse of {@link encodeSlackEphemeralMessageId}; `null` for any other message id, for an
 * id with nothing after its `ts`, for empty data or data that is not base64, and for JSON without a
 * `responseUrl` and `userId`. Data that is base64 but not JSON is upstream's older form, the bare
 * `response_url`: it decodes with an empty `userId`.
 */
export function decodeSlackEphemeralMessageId(messageId: string): SlackEphemeralMessageRef | null {
  if (typeof messageId !== "string" || !messageId.startsWith(PREFIX)) return null;
  const rest = messageId.slice(PREFIX.length);
  const colon = rest.indexOf(":");
  if (colon < 0) return null;
  const messageTs = rest.slice(0, colon);
  const decoded = decodeBase64(rest.slice(colon + 1));
  if (decoded === undefined || decoded === "") return null;
  let data: unknown;
  try {
    data = JSON.parse(decoded);
  } catch {
    return { messageTs, responseUrl: decoded, userId: "" };
  }
  const fields = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const { responseUrl, userId } = fields;
  if (typeof responseUrl !== "string" || responseUrl === "") return null;
  if (typeof userId !== "string" || userId === "") return null;
  return { messageTs, responseUrl, userId };
}
