import { ValidationError } from "@baton/core";

/** The adapter's name, the prefix of every Teams thread id. */
export const TEAMS_ADAPTER_NAME = "teams";

/**
 * What a Teams thread id holds (upstream's `TeamsThreadId`): the Bot Framework conversation id
 * — for a channel reply chain `19:…@thread.tacv2;messageid=<root>` — and the service URL the
 * conversation is served from.
 */
export interface TeamsThreadData {
  conversationId: string;
  serviceUrl: string;
}

const step = "decode teams thread id";

/** `teams:<base64url conversation id>:<base64url service URL>`, as upstream encodes it. */
export function encodeTeamsThreadId(data: TeamsThreadData): string {
  const conversation = Buffer.from(data.conversationId).toString("base64url");
  const service = Buffer.from(data.serviceUrl).toString("base64url");
  return `${TEAMS_ADAPTER_NAME}:${conversation}:${service}`;
}

/** The inverse of {@link encodeTeamsThreadId}; a malformed id throws a `ValidationError`. */
export function decodeTeamsThreadId(threadId: string): TeamsThreadData {
  const parts = threadId.split(":");
  if (parts.length !== 3 || parts[0] !== TEAMS_ADAPTER_NAME || !parts[1] || !parts[2]) {
    throw new ValidationError(`Invalid Teams thread ID: ${threadId}`, { step });
  }
  const conversationId = Buffer.from(parts[1], "base64url").toString("utf8");
  const serviceUrl = Buffer.from(parts[2], "base64url").toString("utf8");
  if (conversationId === "" || !/^https?:\/\//.test(serviceUrl)) {
    throw new ValidationError(`Invalid Teams thread ID: ${threadId}`, { step });
  }
  return { conversationId, serviceUrl };
}

/** The conversation id without its reply-chain suffix (`;messageid=…`). */
export function baseConversationId(conversationId: string): string {
  return conversationId.replace(/;messageid=[^;]*$/, "");
}

/** The root message of a channel reply chain, when the conversation id names one. */
export function replyChainRoot(conversationId: string): string | undefined {
  return /;messageid=([^;]+)$/.exec(conversationId)?.[1];
}

/** A thread's channel: the conversation without its reply chain, on the same service URL. */
export function teamsChannelIdFromThreadId(threadId: string): string {
  const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
  return encodeTeamsThreadId({ conversationId: baseConversationId(conversationId), serviceUrl });
}

/** Personal (1:1) chats are the conversations whose id does not start with `19:` (upstream). */
export function isTeamsDM(threadId: string): boolean {
  return !decodeTeamsThreadId(threadId).conversationId.startsWith("19:");
}
