import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The conversation (thread or channel id) whose handler is running in the current async context.
 * The dispatcher enters it around every handler call, so code a handler calls — the AI tools of
 * `@baton/core/ai` in particular — can confine itself to that conversation without being handed
 * the thread. Concurrent handlers each see their own id: the store follows async context, not a
 * global variable.
 */
const conversations = new AsyncLocalStorage<string>();

/**
 * Runs `fn` with `conversationId` as the active conversation and returns its result. With
 * `undefined` it runs `fn` in the caller's context unchanged, for events that belong to no
 * conversation.
 */
export function runInConversation<T>(conversationId: string | undefined, fn: () => T): T {
  return conversationId === undefined ? fn() : conversations.run(conversationId, fn);
}

/** The conversation being handled in the current async context, or `undefined` outside one. */
export function activeConversation(): string | undefined {
  return conversations.getStore();
}
