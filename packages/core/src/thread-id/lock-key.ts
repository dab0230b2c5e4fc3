import type { LockScope } from "../contracts/adapter.js";

/**
 * The lock key of a thread or a channel. The scope is part of the key, so a thread key and a
 * channel key are never the same string, whatever the ids look like (keys are injective).
 */
export function lockKeyFor(scope: LockScope, threadId: string, channelId: string): string {
  return scope === "channel" ? `channel:${channelId}` : `thread:${threadId}`;
}
