import { currentScope, enterScope } from "../coordination/async-scope.js";

/**
 * The conversation (thread or channel id) whose handler is running in the current async context.
 * The dispatcher enters it around every handler call, so code a handler calls — the AI tools of
 * `@baton/core/ai` in particular — can confine itself to that conversation without being handed
 * the thread. Concurrent handlers each see their own id: the store follows async context, not a
 * global variable. It lives in the same async scope as the turn gates' frames (one storage for
 * both), and a message's turn enters it together with the turn.
 */

/**
 * Runs `fn` with `conversationId` as the active conversation and returns its result. With
 * `undefined`, or when that conversation is already the active one, it runs `fn` in the caller's
 * context unchanged.
 */
export function runInConversation<T>(conversationId: string | undefined, fn: () => T): T {
  if (conversationId === undefined) return fn();
  const outer = currentScope();
  if (outer?.conversationId === conversationId) return fn();
  return enterScope({ gate: undefined, frame: undefined, conversationId, outer }, fn);
}

/** The conversation being handled in the current async context, or `undefined` outside one. */
export function activeConversation(): string | undefined {
  return currentScope()?.conversationId;
}
