import type { Adapter } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import type { AdapterPostableMessage } from "../contracts/postable-message.js";
import { NotSupportedError, ValidationError } from "../errors/index.js";
import type { Author } from "../model/author.js";
import { Message } from "../model/message.js";
import type { Poster } from "./poster.js";
import type { SentMessage } from "./sent-message.js";
import { isStreamInput } from "./stream-message.js";
import { collectStreamMarkdown } from "./stream-sent.js";

/** What the thread actions below read from their thread. */
export interface ThreadView {
  readonly id: string;
  readonly adapter: Adapter;
  /** The message being handled, when there is one. */
  readonly currentMessage: Message | undefined;
  readonly recentMessages: readonly Message[];
}

/**
 * `thread.reply(target, message)`: a native reply to one message (capability `replies`, else a
 * `NotSupportedError` with feature `replies`). A `Message` target must belong to the thread (a
 * `ValidationError` otherwise) and becomes the result's `replyTo`; an id is looked up among the
 * messages the thread holds (the current one and `recentMessages`) without a fetch, and leaves
 * `replyTo` undefined when unknown. A stream is read to its end and sent as one markdown reply
 * (`" "` when it produced no text).
 */
export async function replyTo(
  thread: ThreadView,
  poster: Poster,
  target: string | Message,
  message: unknown,
): Promise<SentMessage> {
  const step = `reply in ${thread.id}`;
  const { adapter } = thread;
  const { reply } = adapter;
  if (!capabilitiesOf(adapter).replies || typeof reply !== "function") {
    throw new NotSupportedError(adapter.name, "replies", { step });
  }
  const known = target instanceof Message ? target : findKnown(thread, target);
  const targetId = target instanceof Message ? target.id : target;
  if (typeof targetId !== "string" || targetId === "") {
    throw new ValidationError("target must be a Message or a non-empty message id", { step });
  }
  if (known !== undefined && known.threadId !== thread.id) {
    throw new ValidationError(
      `message ${known.id} belongs to ${known.threadId}, not ${thread.id}`,
      { step },
    );
  }
  const content = isStreamInput(message) ? await collectStreamMarkdown(message) : message;
  const postable: AdapterPostableMessage = await poster.prepare(content, step);
  const sent = await poster.call(step, () => reply.call(adapter, thread.id, targetId, postable));
  return poster.sentFrom(sent, postable, known);
}

/**
 * `thread.markAsRead(message?)`: a read receipt for `message` (default: the message being handled)
 * where the adapter has `readReceipts` (else a `NotSupportedError`, feature `readReceipts`). A
 * `ValidationError` when there is no message to mark, or the `Message` belongs to another thread.
 */
export async function markAsRead(
  thread: ThreadView,
  poster: Poster,
  message: string | Message | undefined,
): Promise<void> {
  const step = `mark as read in ${thread.id}`;
  const { adapter } = thread;
  const { markAsRead: mark } = adapter;
  if (!capabilitiesOf(adapter).readReceipts || typeof mark !== "function") {
    throw new NotSupportedError(adapter.name, "readReceipts", { step });
  }
  const target = message ?? thread.currentMessage;
  if (target === undefined) {
    throw new ValidationError(
      "a message (or its id) is required outside a message handler, where there is no current one",
      { step },
    );
  }
  if (typeof target === "string") {
    if (target === "") throw new ValidationError("message id must not be empty", { step });
    await poster.call(step, () => mark.call(adapter, thread.id, target));
    return;
  }
  if (target.threadId !== thread.id) {
    throw new ValidationError(
      `message ${target.id} belongs to ${target.threadId}, not ${thread.id}`,
      { step },
    );
  }
  await poster.call(step, () => mark.call(adapter, thread.id, target.id, target));
}

/**
 * `thread.getParticipants()`: the distinct human authors of the thread — the current message's
 * author first, then everyone in `history` (oldest first) — leaving out the bot itself (`isMe`)
 * and other bots (`isBot`). Deduplicated by `userId`, first appearance kept.
 */
export async function participantsOf(
  current: Message | undefined,
  history: AsyncIterable<Message>,
): Promise<Author[]> {
  const seen = new Map<string, Author>();
  const consider = (author: Author) => {
    if (author.isMe || author.isBot || seen.has(author.userId)) return;
    seen.set(author.userId, author);
  };
  if (current !== undefined) consider(current.author);
  for await (const message of history) consider(message.author);
  return [...seen.values()];
}

function findKnown(thread: ThreadView, id: string): Message | undefined {
  if (thread.currentMessage?.id === id) return thread.currentMessage;
  return thread.recentMessages.find((message) => message.id === id);
}
