import type { Adapter, LockScope } from "../contracts/adapter.js";
import { ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { lockKeyFor } from "../thread-id/index.js";

/** Chooses the lock scope of a message: the user's option, else the adapter's, else thread. */
export type LockScopeResolver = (context: {
  adapter: Adapter;
  threadId: string;
  channelId: string;
  isDM: boolean;
}) => LockScope | Promise<LockScope>;

/**
 * The lock key of a thread: the `lockScope` option (value or resolver), else the adapter's
 * `lockScope`, else `"thread"`. Rejects when a resolver fails or returns something else.
 */
export async function resolveLockKey(
  option: LockScopeResolver | LockScope | undefined,
  adapter: Adapter,
  threadId: string,
): Promise<string> {
  const channelId = adapter.channelIdFromThreadId(threadId);
  const scope =
    typeof option === "function"
      ? await option({ adapter, threadId, channelId, isDM: adapter.isDM?.(threadId) ?? false })
      : (option ?? adapter.lockScope ?? "thread");
  return lockKeyOfScope(scope, threadId, channelId);
}

/**
 * The lock key as {@link resolveLockKey} finds it, without a promise, when the scope is known
 * without asking a resolver (a value, the adapter's, or the default); `undefined` when `option`
 * is a resolver. Throws where `resolveLockKey` rejects.
 */
export function lockKeyWithoutResolver(
  option: LockScopeResolver | LockScope | undefined,
  adapter: Adapter,
  threadId: string,
): string | undefined {
  if (typeof option === "function") return undefined;
  const channelId = adapter.channelIdFromThreadId(threadId);
  return lockKeyOfScope(option ?? adapter.lockScope ?? "thread", threadId, channelId);
}

function lockKeyOfScope(scope: unknown, threadId: string, channelId: string): string {
  if (scope !== "thread" && scope !== "channel") {
    throw new ValidationError(`lockScope resolver returned ${JSON.stringify(scope)}`, {
      step: "resolve lock scope",
    });
  }
  return lockKeyFor(scope, threadId, channelId);
}

/** Rejects a message the pipeline cannot key or route, naming every problem. */
export function assertMessage(message: Message, threadId: string): void {
  // Checked once without building anything: the list of problems is made only for a bad message.
  if (
    typeof threadId === "string" &&
    threadId.length > 0 &&
    typeof message?.id === "string" &&
    message.id.length > 0 &&
    typeof message.text === "string" &&
    typeof message.author === "object" &&
    message.author !== null
  ) {
    return;
  }
  const problems: string[] = [];
  if (typeof threadId !== "string" || threadId.length === 0) problems.push("threadId is empty");
  if (typeof message?.id !== "string" || message.id.length === 0)
    problems.push("message.id is empty");
  if (typeof message?.text !== "string") problems.push("message.text is not a string");
  if (typeof message?.author !== "object" || message.author === null) {
    problems.push("message.author is missing");
  }
  if (problems.length > 0) {
    throw new ValidationError(problems.join("; "), { step: "validate incoming message" });
  }
}
