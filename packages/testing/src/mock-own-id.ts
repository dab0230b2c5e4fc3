import { ValidationError } from "@baton/core";
import type { MockMethod } from "./mock-call.js";
import { decodeMockThreadId } from "./mock-thread-id.js";

/**
 * Outbound calls that also take a channel id, since `Channel` posts and reads through them, and a
 * message posted at a channel's top level is edited, deleted and reacted to there.
 */
const CHANNEL_METHODS: readonly MockMethod[] = [
  "postMessage",
  "editMessage",
  "deleteMessage",
  "addReaction",
  "removeReaction",
  "startTyping",
  "fetchMessages",
  "postEphemeral",
  "scheduleMessage",
];

/** Outbound calls that take only a channel id. */
const CHANNEL_ONLY_METHODS: readonly MockMethod[] = ["fetchChannelInfo", "listThreads"];

/** Outbound calls that take a user id, not a thread or channel id. */
const USER_METHODS: readonly MockMethod[] = ["openDM", "getUser"];

/** True when `id` is a channel id `{name}:{channel}` of this adapter. */
export function isMockChannelId(name: string, id: string): boolean {
  const parts = typeof id === "string" ? id.split(":") : [];
  return parts.length === 2 && parts[0] === name && (parts[1] ?? "") !== "";
}

/**
 * Rejects an id that is not this adapter's: thread ids must decode; the methods a `Channel`
 * calls also take a channel id (`{name}:{channel}`), as a platform adapter without
 * `postChannelMessage` does; `fetchChannelInfo` and `listThreads` take only a channel id.
 * `openDM` and `getUser` take a user id, checked by the method itself.
 */
export function assertOwnMockId(name: string, method: MockMethod, id: string): void {
  if (USER_METHODS.includes(method)) return;
  const isChannelId = isMockChannelId(name, id);
  if (CHANNEL_ONLY_METHODS.includes(method)) {
    if (isChannelId) return;
    throw new ValidationError(
      `${JSON.stringify(id)} is not a channel id of adapter "${name}"; expected "${name}:{channel}"`,
      { step: `call ${method}` },
    );
  }
  if (isChannelId && CHANNEL_METHODS.includes(method)) return;
  decodeMockThreadId(name, id);
}
