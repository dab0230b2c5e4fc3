import type { Root } from "mdast";
import type { EmojiValue } from "../content/emoji/emoji-value.js";
import type { Adapter, RawMessage } from "../contracts/adapter.js";
import { type AdapterFeature, capabilitiesOf } from "../contracts/capabilities.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { AdapterPostableMessage } from "../contracts/postable-message.js";
import { AdapterError, NotSupportedError, ValidationError } from "../errors/index.js";
import type { Attachment } from "../model/attachment.js";
import type { Author } from "../model/author.js";
import type { JsonValue } from "../model/json.js";
import type { LinkPreview } from "../model/link-preview.js";
import { Message, type MessageMetadata, type SerializedMessage } from "../model/message.js";
import { callAdapter } from "./adapter-call.js";
import { assertPostable } from "./postable.js";
import { postedContent } from "./postable-content.js";

/**
 * A message the bot posted (upstream's `SentMessage`): the fields of a `Message` — `text` and
 * `formatted` derived from what was posted, the bot as `author` (`userId: "self"`, `isMe` and
 * `isBot` true) — and the actions a handler takes on it afterwards. Every action targets the
 * thread the platform reported for the message (which may differ from the one posted to, e.g.
 * when posting to a channel opens a thread), checks the adapter's capability and its input before
 * calling the platform, and wraps non-Baton platform failures in an `AdapterError` naming the step.
 */
export interface SentMessage {
  /** The platform's id of the message. */
  readonly id: string;
  /** The thread the message lives in, as the platform reported it. */
  readonly threadId: string;
  /** Plain text of what was posted (markdown and cards as their plain text). */
  readonly text: string;
  /** The posted content as an mdast tree. */
  readonly formatted: Root;
  /** The platform's response to the post or latest edit, when the adapter returned one. */
  readonly raw: unknown;
  /** The bot: `{ userId: "self", userName: adapter.userName, isBot: true, isMe: true }`. */
  readonly author: Author;
  /** When the post was made (this process's clock) and whether it was edited. */
  readonly metadata: MessageMetadata;
  /** Attachments posted with `{ raw }`, `{ markdown }` or `{ ast }`. */
  readonly attachments: Attachment[];
  readonly links: LinkPreview[];
  /** Kept from the message a `createSentMessageFromMessage` wrapped. */
  readonly isMention?: boolean;
  /** The message this one replies to (`thread.reply`), when the thread knew it. */
  readonly replyTo?: Message;
  /**
   * Replaces the message's content (capability `editMessage`); resolves to the edited message.
   * Content is prepared as a post is (cards, JSX, callback URLs, card → text fallback).
   */
  edit(newContent: unknown): Promise<SentMessage>;
  /** Deletes the message (capability `deleteMessage`). */
  delete(): Promise<void>;
  /**
   * Adds `emoji` as the bot's reaction: a normalized name (`thumbs_up`), an `EmojiValue`
   * (`emoji.thumbs_up`) or its placeholder (`{{emoji:thumbs_up}}`); the adapter gets the name.
   */
  addReaction(emoji: string | EmojiValue): Promise<void>;
  /** Removes the bot's `emoji` reaction (same forms as `addReaction`). */
  removeReaction(emoji: string | EmojiValue): Promise<void>;
  /** The JSON form of the message (a `Message`'s), for queues and workflow steps. */
  toJSON(): SerializedMessage;
}

/** @deprecated Renamed {@link SentMessage}, upstream's name. */
export type SentMessageHandle = SentMessage;

/** What sent messages of one thread or channel share. */
export interface SentMessageContext {
  readonly adapter: Adapter;
  readonly logger?: Logger;
  /** Prepares an edit's content for the adapter (see `preparePostable`); `threadId` is the target. */
  prepare(content: unknown, step: string, threadId: string): Promise<AdapterPostableMessage>;
  /** The time stamped as `dateSent`; default: now. */
  now?(): Date;
}

/** Throws a `ValidationError` unless `value` is a non-empty string; `what` names it. */
export function assertNonEmpty(value: unknown, what: string, step: string): string {
  if (typeof value !== "string" || value === "") {
    throw new ValidationError(`${what} must be a non-empty string`, { step });
  }
  return value;
}

const PLACEHOLDER = /^\{\{emoji:([^{}]+)\}\}$/;

/**
 * The normalized name of a reaction given as a name, an `EmojiValue` or its `{{emoji:name}}`
 * placeholder (upstream's `EmojiValue | string`); a `ValidationError` for anything else or empty.
 */
export function emojiName(emoji: unknown, step: string): string {
  const given =
    typeof emoji === "object" && emoji !== null ? (emoji as { name?: unknown }).name : emoji;
  const name = assertNonEmpty(given, "emoji", step);
  return PLACEHOLDER.exec(name)?.[1] ?? name;
}

/** Throws a `NotSupportedError` unless the adapter declares `feature`. */
export function requireCapability(adapter: Adapter, feature: AdapterFeature, step: string): void {
  const capabilities = capabilitiesOf(adapter);
  const supported =
    feature === "streaming" ? capabilities.streaming === "native" : capabilities[feature];
  if (!supported) throw new NotSupportedError(adapter.name, feature, { step });
}

/**
 * A sent message for `sent`, the adapter's answer to posting `postable` to `fallbackThreadId`,
 * which is used when the adapter reported no thread id (upstream's rule: the returned one wins).
 * An answer without a message id is an adapter bug and raises an `AdapterError` here, not later
 * at the first edit.
 */
export function createSentMessage(
  context: SentMessageContext,
  sent: RawMessage,
  postable: AdapterPostableMessage,
  fallbackThreadId: string,
  replyTo?: Message,
): SentMessage {
  const { adapter } = context;
  if (typeof sent?.id !== "string" || sent.id === "") {
    throw new AdapterError(adapter.name, "the adapter answered without a message id", {
      step: `post message to ${fallbackThreadId}`,
    });
  }
  const threadId = sent.threadId || fallbackThreadId;
  const content = postedContent(postable);
  const fields: MessageFields = {
    id: sent.id,
    threadId,
    text: content.text,
    formatted: content.formatted,
    raw: sent.raw ?? null,
    author: {
      userId: "self",
      userName: adapter.userName,
      fullName: adapter.userName,
      isBot: true,
      isMe: true,
    },
    metadata: { dateSent: context.now?.() ?? new Date(), edited: false },
    attachments: content.attachments,
    links: [],
  };
  if (replyTo !== undefined) fields.replyTo = replyTo;
  return withActions(context, fields, () => new Message(asInit(fields)).toJSON());
}

/**
 * `message` (one the bot sent earlier, e.g. from history or JSON) as a sent message of
 * `threadId`, with its own fields kept as they are (upstream's `createSentMessageFromMessage`);
 * `toJSON` is the message's own.
 */
export function createSentMessageFromMessage(
  context: SentMessageContext,
  message: Message,
  threadId: string,
): SentMessage {
  const fields: MessageFields = {
    id: message.id,
    threadId: message.threadId,
    text: message.text,
    formatted: message.formatted,
    raw: message.raw,
    author: message.author,
    metadata: message.metadata,
    attachments: message.attachments,
    links: message.links,
  };
  if (message.isMention !== undefined) fields.isMention = message.isMention;
  if (message.replyTo !== undefined) fields.replyTo = message.replyTo;
  return withActions(context, fields, () => message.toJSON(), threadId);
}

type MessageFields = { -readonly [K in keyof Omit<SentMessage, Actions>]: SentMessage[K] };
type Actions = "edit" | "delete" | "addReaction" | "removeReaction" | "toJSON";

function asInit(fields: MessageFields): ConstructorParameters<typeof Message>[0] {
  const init: ConstructorParameters<typeof Message>[0] = {
    id: fields.id,
    threadId: fields.threadId,
    text: fields.text,
    formatted: fields.formatted,
    author: fields.author,
    metadata: fields.metadata,
    attachments: fields.attachments,
    links: fields.links,
    raw: fields.raw as JsonValue,
  };
  if (fields.replyTo !== undefined) init.replyTo = fields.replyTo;
  return init;
}

function withActions(
  context: SentMessageContext,
  fields: MessageFields,
  toJSON: () => SerializedMessage,
  actionThreadId: string = fields.threadId,
): SentMessage {
  const { adapter } = context;
  const logger = context.logger ?? silentLogger;
  const id = fields.id;
  const threadId = actionThreadId;
  const where = `message ${id} in ${threadId}`;
  const call = <T>(step: string, run: () => Promise<T>) => callAdapter(adapter, step, run, logger);
  const sent: SentMessage = {
    ...fields,
    async edit(newContent) {
      const step = `edit ${where}`;
      requireCapability(adapter, "editMessage", step);
      const content = await context.prepare(newContent, step, threadId);
      const edited = await call(step, () => adapter.editMessage(threadId, id, content));
      // An edit never moves a message: the id and thread stay, only content and raw change.
      const raw = { id, threadId, raw: edited?.raw ?? fields.raw };
      return createSentMessage(context, raw, content, threadId, fields.replyTo);
    },
    async delete() {
      const step = `delete ${where}`;
      requireCapability(adapter, "deleteMessage", step);
      await call(step, () => adapter.deleteMessage(threadId, id));
    },
    async addReaction(emoji) {
      const step = `add reaction to ${where}`;
      const name = emojiName(emoji, step);
      requireCapability(adapter, "reactions", step);
      await call(step, () => adapter.addReaction(threadId, id, name));
    },
    async removeReaction(emoji) {
      const step = `remove reaction from ${where}`;
      const name = emojiName(emoji, step);
      requireCapability(adapter, "reactions", step);
      await call(step, () => adapter.removeReaction(threadId, id, name));
    },
    toJSON,
  };
  return Object.freeze(sent);
}

/**
 * A sent message for code that has only the adapter's answer (an action's message, a stream's
 * result): content defaults to none (`text` is empty), and edits are checked as posts are, without
 * card preparation. Prefer {@link createSentMessage} with the content that was posted.
 */
export function createSentMessageHandle(
  adapter: Adapter,
  sent: RawMessage,
  fallbackThreadId: string,
  logger: Logger = silentLogger,
  content: AdapterPostableMessage = { raw: "" },
): SentMessage {
  const context: SentMessageContext = {
    adapter,
    logger,
    prepare: async (next, step) => assertPostable(next, step),
  };
  return createSentMessage(context, sent, content, fallbackThreadId);
}
