import type { Adapter, RawMessage } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { PostableMessage } from "../contracts/postable-message.js";
import { AdapterError, ValidationError } from "../errors/index.js";
import { callAdapter } from "./adapter-call.js";
import { assertPostable } from "./postable.js";

/**
 * A message the bot posted, with the actions a handler takes on it afterwards. Every action
 * targets the thread the platform reported for the message (which may differ from the one
 * posted to, e.g. when posting to a channel opens a thread), validates its input before calling
 * the platform, and wraps non-Baton platform failures in an `AdapterError` naming the step.
 */
export interface SentMessage {
  /** The platform's id of the message. */
  readonly id: string;
  /** The thread the message lives in, as the platform reported it. */
  readonly threadId: string;
  /** The platform's response to the post or latest edit, when the adapter returned one. */
  readonly raw?: unknown;
  /** Replaces the message's content; resolves to a handle for the edited message. */
  edit(newContent: PostableMessage): Promise<SentMessage>;
  /** Deletes the message. */
  delete(): Promise<void>;
  /** Adds `emoji` (a normalized name such as `thumbs_up`) as the bot's reaction. */
  addReaction(emoji: string): Promise<void>;
  /** Removes the bot's `emoji` reaction. */
  removeReaction(emoji: string): Promise<void>;
}

/** @deprecated Renamed {@link SentMessage}, upstream's name. */
export type SentMessageHandle = SentMessage;

/** Throws a `ValidationError` unless `value` is a non-empty string; `what` names it. */
export function assertNonEmpty(value: unknown, what: string, step: string): string {
  if (typeof value !== "string" || value === "") {
    throw new ValidationError(`${what} must be a non-empty string`, { step });
  }
  return value;
}

/**
 * A handle for `sent`, the adapter's answer to a post to `fallbackThreadId`, which is used when
 * the adapter reported no thread id (upstream's rule: the returned one wins when present). An
 * answer without a message id is an adapter bug and raises an `AdapterError` here, not later at
 * the first edit.
 */
export function createSentMessageHandle(
  adapter: Adapter,
  sent: RawMessage,
  fallbackThreadId: string,
  logger: Logger = silentLogger,
): SentMessage {
  if (typeof sent?.id !== "string" || sent.id === "") {
    throw new AdapterError(adapter.name, "the adapter answered without a message id", {
      step: `post message to ${fallbackThreadId}`,
    });
  }
  const id = sent.id;
  const threadId = sent.threadId || fallbackThreadId;
  const where = `message ${id} in ${threadId}`;
  const handle: SentMessage = {
    id,
    threadId,
    async edit(newContent) {
      const step = `edit ${where}`;
      const content = assertPostable(newContent, step);
      const edited = await callAdapter(
        adapter,
        step,
        () => adapter.editMessage(threadId, id, content),
        logger,
      );
      // An edit never moves a message, so the id and thread stay; only `raw` is refreshed.
      return createSentMessageHandle(adapter, { id, threadId, raw: edited?.raw }, threadId, logger);
    },
    async delete() {
      const step = `delete ${where}`;
      await callAdapter(adapter, step, () => adapter.deleteMessage(threadId, id), logger);
    },
    async addReaction(emoji) {
      const step = `add reaction to ${where}`;
      const name = assertNonEmpty(emoji, "emoji", step);
      await callAdapter(adapter, step, () => adapter.addReaction(threadId, id, name), logger);
    },
    async removeReaction(emoji) {
      const step = `remove reaction from ${where}`;
      const name = assertNonEmpty(emoji, "emoji", step);
      await callAdapter(adapter, step, () => adapter.removeReaction(threadId, id, name), logger);
    },
  };
  if (sent.raw !== undefined) (handle as { raw?: unknown }).raw = sent.raw;
  return Object.freeze(handle);
}
