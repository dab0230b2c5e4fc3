import {
  type AdapterPostableMessage,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type RawMessage,
  ValidationError,
} from "@baton/core";
import { trimArgs } from "./mock-call.js";
import type { MockCore } from "./mock-core.js";
import type { MockHistory } from "./mock-history.js";

/** `postMessage`: records the call and answers `{ id: "mock-msg-<n>", threadId }`. */
export function mockPostMessage(
  core: MockCore,
  threadId: string,
  message: AdapterPostableMessage,
): Promise<RawMessage> {
  return core.call("postMessage", threadId, [threadId, message], undefined, () => {
    core.checkPostable(message, "post message");
    return core.sent(threadId);
  });
}

/** `editMessage` (capability `editMessage`): answers the edited message's id. */
export function mockEditMessage(
  core: MockCore,
  threadId: string,
  messageId: string,
  message: AdapterPostableMessage,
): Promise<RawMessage> {
  const args = [threadId, messageId, message];
  return core.call("editMessage", threadId, args, "editMessage", () => {
    core.checkPostable(message, "edit message");
    return { id: messageId, threadId };
  });
}

/** `deleteMessage` (capability `deleteMessage`). */
export function mockDeleteMessage(
  core: MockCore,
  threadId: string,
  messageId: string,
): Promise<void> {
  const args = [threadId, messageId];
  return core.call("deleteMessage", threadId, args, "deleteMessage", () => undefined);
}

/** `addReaction` / `removeReaction` (capability `reactions`). */
export function mockReaction(
  core: MockCore,
  method: "addReaction" | "removeReaction",
  threadId: string,
  messageId: string,
  emoji: string,
): Promise<void> {
  return core.call(method, threadId, [threadId, messageId, emoji], "reactions", () => undefined);
}

/** `startTyping` (capability `typing`). */
export function mockStartTyping(core: MockCore, threadId: string, status?: string): Promise<void> {
  const args = trimArgs([threadId, status]);
  return core.call("startTyping", threadId, args, "typing", () => undefined);
}

/** `fetchMessages` (capability `history`): a page of the seeded history. */
export function mockFetchMessages(
  core: MockCore,
  history: MockHistory,
  threadId: string,
  options?: FetchMessagesOptions,
): Promise<FetchMessagesResult> {
  const args = trimArgs([threadId, options]);
  return core.call("fetchMessages", threadId, args, "history", () =>
    history.page(threadId, options),
  );
}

/** `reply` (capability `replies`): a native reply to `messageId`, a new message id. */
export function mockReply(
  core: MockCore,
  threadId: string,
  messageId: string,
  message: AdapterPostableMessage,
): Promise<RawMessage> {
  return core.call("reply", threadId, [threadId, messageId, message], "replies", () => {
    if (typeof messageId !== "string" || messageId === "") {
      throw new ValidationError("messageId must be a non-empty string", { step: "reply" });
    }
    core.checkPostable(message, "reply");
    return core.sent(threadId);
  });
}
