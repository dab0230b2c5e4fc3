import type { Adapter } from "../contracts/adapter.js";
import type { StateAdapter } from "../contracts/state.js";
import type { ResolvedCallback } from "../dispatch/callback-post.js";
import type { ActionEvent } from "../model/events.js";
import { CALLBACK_KEY_PREFIX, decodeCallbackValue, type StoredCallback } from "./callback-urls.js";

/**
 * Resolves the token a clicked button carries (written by `encodeCardCallbackUrls` when its card
 * was posted) to the button's callback. A click counts only for the button the token was made
 * for and where its card was posted — the same action id, and the same thread (or channel) —
 * so a token copied into another card or conversation does not reach the URL. `null` for a value
 * without a token, an unknown or expired token, or a click that does not match.
 */
export function callbackResolver(state: StateAdapter) {
  return async (adapter: Adapter, event: ActionEvent): Promise<ResolvedCallback | null> => {
    const token = decodeCallbackValue(event.value);
    if (token === undefined || token === "") return null;
    const stored = (await state.get(
      `${CALLBACK_KEY_PREFIX}${token}`,
    )) as Partial<StoredCallback> | null;
    if (typeof stored?.url !== "string" || !clickMatches(adapter, event, stored)) return null;
    return typeof stored.originalValue === "string"
      ? { url: stored.url, originalValue: stored.originalValue }
      : { url: stored.url };
  };
}

function clickMatches(
  adapter: Adapter,
  event: ActionEvent,
  stored: Partial<StoredCallback>,
): boolean {
  if (stored.actionId !== undefined && stored.actionId !== event.actionId) return false;
  const scope = stored.scope;
  if (scope === undefined) return true;
  if (scope.type === "thread") return event.threadId === scope.id;
  // A card posted to a channel: the click comes from the channel or from a thread in it.
  if (event.threadId === scope.id) return true;
  try {
    return event.threadId !== "" && adapter.channelIdFromThreadId(event.threadId) === scope.id;
  } catch {
    return false;
  }
}
