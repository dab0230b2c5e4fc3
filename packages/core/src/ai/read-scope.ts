import { activeConversation } from "../dispatch/active-conversation.js";
import { ValidationError } from "../errors/index.js";
import { adapterNameOf } from "../thread-id/index.js";
import type { ChatBinding } from "./chat-binding.js";

/**
 * The conversation a toolset is confined to (upstream's `ReadScope`): a `Thread` or `Channel`
 * (anything with an `id`), or a thread or channel id.
 */
export type ReadScope = string | { readonly id: string };

/** Throws when `id` (a thread or channel id) lies outside the toolset's scope. */
export type ScopeGuard = (id: string) => void;

const STEP = "check tool scope";

/**
 * The channel `id` belongs to: the adapter's channel of a thread id, or `id` itself when it is
 * not a thread id of a registered adapter (a channel id, or an id nobody can resolve). The
 * fallback fails closed: an id that cannot be placed equals no scoped channel but itself.
 */
function channelOf(chat: ChatBinding, id: string): string {
  let adapterName: string;
  try {
    adapterName = adapterNameOf(id);
  } catch {
    return id;
  }
  const adapter = chat.getAdapter(adapterName);
  if (!adapter) return id;
  try {
    return adapter.channelIdFromThreadId(id);
  } catch {
    return id;
  }
}

/**
 * The guard the tools call with their target id before touching the platform (upstream's rules):
 *
 * - the scope is the explicit `scope`, else — per call — the conversation whose handler is
 *   running ({@link activeConversation}); `false` turns the guard off;
 * - a target is in scope when it resolves to the scoped conversation's channel, so a thread
 *   scope admits sibling threads and the channel itself; under `strict` a thread scope admits
 *   that thread alone (a channel scope still admits every thread in it);
 * - ids of another adapter never share a channel, so they are always out of scope;
 * - with no scope at all (outside a handler, none given) every target is allowed and one
 *   warning per toolset is logged, so an unconfined agent does not go unnoticed.
 *
 * Out of scope throws a `ValidationError` whose message starts with "Tool call blocked".
 */
export function createScopeGuard(
  chat: ChatBinding,
  scope: ReadScope | false | undefined,
  strict = false,
): ScopeGuard | undefined {
  if (scope === false) return undefined;
  const explicit = scope === undefined ? undefined : scopeId(scope);
  let warned = false;
  return (id) => {
    const active = explicit ?? activeConversation();
    if (active === undefined) {
      if (!warned) {
        warned = true;
        chat
          .getLogger("ai")
          .warn(
            `AI tool reached ${JSON.stringify(id)} unscoped: no conversation is being handled ` +
              "and createChatTools got no `scope`; pass `scope` to confine the tools",
          );
      }
      return;
    }
    const scopedChannel = channelOf(chat, active);
    const scopeIsChannel = active === scopedChannel;
    const inScope =
      channelOf(chat, id) === scopedChannel && (!strict || scopeIsChannel || id === active);
    if (!inScope) {
      throw new ValidationError(
        `Tool call blocked: tools are scoped to ${JSON.stringify(active)}, and ` +
          `${JSON.stringify(id)} lies outside it`,
        { step: STEP },
      );
    }
  };
}

function scopeId(scope: ReadScope): string {
  const id = typeof scope === "string" ? scope : scope?.id;
  if (typeof id !== "string" || id === "") {
    throw new ValidationError("scope must be a thread, a channel, or a non-empty id", {
      step: "create chat tools",
    });
  }
  return id;
}
