import type { MockMethod } from "./mock-call.js";
import { decodeMockThreadId } from "./mock-thread-id.js";

/** Outbound calls that also take a channel id, since `Channel` posts through them. */
const CHANNEL_METHODS: readonly MockMethod[] = ["postMessage", "startTyping", "fetchMessages"];

/**
 * Rejects an id that is not this adapter's: thread ids must decode, and `postMessage`,
 * `startTyping` and `fetchMessages` also take a channel id (`{name}:{channel}`), as a platform
 * adapter without `postChannelMessage` does.
 */
export function assertOwnMockId(name: string, method: MockMethod, id: string): void {
  const parts = id.split(":");
  const isChannelId = parts.length === 2 && parts[0] === name && (parts[1] ?? "") !== "";
  if (isChannelId && CHANNEL_METHODS.includes(method)) return;
  decodeMockThreadId(name, id);
}
