import type { Adapter, RawMessage } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import type { Logger } from "../contracts/logger.js";
import type { AdapterPostableMessage } from "../contracts/postable-message.js";
import type { StateAdapter } from "../contracts/state.js";
import type {
  EphemeralMessage,
  ScheduledMessage,
  ScheduleOptions,
} from "../contracts/thread-surface-types.js";
import { NotSupportedError, ValidationError } from "../errors/index.js";
import type { Author } from "../model/author.js";
import type { Message } from "../model/message.js";
import { callAdapter } from "./adapter-call.js";
import type { CallbackScope } from "./callback-urls.js";
import { preparePostable } from "./prepare-postable.js";
import {
  assertNonEmpty,
  createSentMessage,
  createSentMessageFromMessage,
  type SentMessage,
  type SentMessageContext,
} from "./sent-message.js";

/** Options of `postEphemeral` (upstream's `PostEphemeralOptions`). */
export interface PostEphemeralOptions {
  /**
   * What to do where the platform has no ephemeral messages: `true` sends the message to the
   * user's DM instead (`usedFallback: true`); `false` sends nothing and resolves `null`.
   */
  fallbackToDM: boolean;
}

/** The thread or channel a {@link Poster} posts to. Accessors, since a revived one binds late. */
export interface PostTarget {
  readonly kind: "thread" | "channel";
  /** The thread id or channel id posts go to. */
  readonly id: string;
  adapter(): Adapter;
  state(): StateAdapter;
  logger(): Logger;
}

/**
 * What Thread and Channel share to post: preparing content (cards, JSX, callback URLs, the card →
 * text fallback, files), sending, ephemeral messages with their DM fallback, scheduling, and
 * building sent messages. Every call checks its input and the adapter's capabilities before the
 * platform is called, and wraps a non-Baton failure in an `AdapterError` naming the step.
 */
export class Poster {
  constructor(private readonly target: PostTarget) {}

  /** Sent messages' context: edits are prepared like posts, scoped to the message's thread. */
  get context(): SentMessageContext {
    return {
      adapter: this.target.adapter(),
      logger: this.target.logger(),
      prepare: (content, step, threadId) =>
        this.prepare(content, step, { type: "thread", id: threadId }),
    };
  }

  /** Content made ready for the adapter; see `preparePostable`. */
  prepare(
    input: unknown,
    step: string,
    scope: CallbackScope = { type: this.target.kind, id: this.target.id },
  ): Promise<AdapterPostableMessage> {
    const adapter = this.target.adapter();
    return preparePostable(input, { adapter, state: this.target.state(), scope, step });
  }

  /** Posts `input` (not a stream) with `send` and returns the sent message. */
  async post(
    input: unknown,
    send: (adapter: Adapter, postable: AdapterPostableMessage) => Promise<RawMessage>,
  ): Promise<SentMessage> {
    const step = `post message to ${this.target.id}`;
    const postable = await this.prepare(input, step);
    const adapter = this.target.adapter();
    const sent = await this.call(step, () => send(adapter, postable));
    return createSentMessage(this.context, sent, postable, this.target.id);
  }

  /**
   * Posts a message only `user` sees: natively where the adapter has `ephemeral`; else, with
   * `fallbackToDM`, in the user's DM (`usedFallback: true`); else resolves `null` and sends nothing
   * (upstream's answer, which tells the caller nothing was shown). `null` also when neither
   * ephemeral messages nor DMs are possible.
   */
  async postEphemeral(
    user: string | Author,
    message: unknown,
    options: PostEphemeralOptions,
  ): Promise<EphemeralMessage | null> {
    const step = `post ephemeral message to ${this.target.id}`;
    const userId = assertNonEmpty(typeof user === "string" ? user : user?.userId, "user", step);
    if (typeof options?.fallbackToDM !== "boolean") {
      throw new ValidationError("options.fallbackToDM must be true or false", { step });
    }
    const adapter = this.target.adapter();
    const capabilities = capabilitiesOf(adapter);
    const { postEphemeral, openDM } = adapter;
    if (capabilities.ephemeral && typeof postEphemeral === "function") {
      const postable = await this.prepare(message, step);
      return this.call(step, () => postEphemeral.call(adapter, this.target.id, userId, postable));
    }
    if (!options.fallbackToDM || !capabilities.openDM || typeof openDM !== "function") {
      return null;
    }
    const dmStep = `post ephemeral message to ${userId} by DM`;
    const dmThreadId = await this.call(dmStep, () => openDM.call(adapter, userId));
    const scope: CallbackScope = { type: "channel", id: adapter.channelIdFromThreadId(dmThreadId) };
    const postable = await this.prepare(message, dmStep, scope);
    const sent = await this.call(dmStep, () => adapter.postMessage(dmThreadId, postable));
    return { id: sent.id, threadId: dmThreadId, usedFallback: true, raw: sent.raw };
  }

  /**
   * Schedules `message` for `options.postAt` where the adapter has `scheduling`, and returns the
   * platform's `ScheduledMessage` (with `cancel()`) as it is; elsewhere a `NotSupportedError`
   * (feature `scheduling`), before anything is written. A `ValidationError` for a `postAt` that is
   * not a valid Date, or for a stream.
   */
  async schedule(message: unknown, options: ScheduleOptions): Promise<ScheduledMessage> {
    const step = `schedule message in ${this.target.id}`;
    const adapter = this.target.adapter();
    const { scheduleMessage } = adapter;
    if (!capabilitiesOf(adapter).scheduling || typeof scheduleMessage !== "function") {
      throw new NotSupportedError(adapter.name, "scheduling", { step });
    }
    const postAt = options?.postAt;
    if (!(postAt instanceof Date) || Number.isNaN(postAt.getTime())) {
      throw new ValidationError("postAt must be a valid Date", { step });
    }
    const postable = await this.prepare(message, step);
    return this.call(step, () => scheduleMessage.call(adapter, this.target.id, postable, options));
  }

  /** The platform's mention markup for `userId`: the adapter's, else upstream's `<@userId>`. */
  mentionUser(userId: string): string {
    const id = assertNonEmpty(userId, "userId", "mention user");
    const adapter = this.target.adapter();
    return typeof adapter.mentionUser === "function" ? adapter.mentionUser(id) : `<@${id}>`;
  }

  /** `message` as a sent message of this target (see `createSentMessageFromMessage`). */
  fromMessage(message: Message): SentMessage {
    return createSentMessageFromMessage(this.context, message, this.target.id);
  }

  /** A sent message for the adapter's answer `sent` to posting `postable`. */
  sentFrom(sent: RawMessage, postable: AdapterPostableMessage, replyTo?: Message): SentMessage {
    return createSentMessage(this.context, sent, postable, this.target.id, replyTo);
  }

  /** Runs one platform call of this target's adapter (see `callAdapter`). */
  call<T>(step: string, run: () => Promise<T>): Promise<T> {
    return callAdapter(this.target.adapter(), step, run, this.target.logger());
  }
}
