import type { EmojiValue } from "../content/emoji/emoji-value.js";
import type { Adapter, FetchDirection } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { PostableMessage } from "../contracts/postable-message.js";
import type { StateAdapter } from "../contracts/state.js";
import type {
  ChannelVisibility,
  EphemeralMessage,
  ScheduledMessage,
  ScheduleOptions,
} from "../contracts/thread-surface-types.js";
import type { HoldHandle, HoldOptions } from "../coordination/hold.js";
import {
  type OnceOptions,
  type OnceResult,
  type OnceWork,
  threadOnceKey,
} from "../coordination/once.js";
import { ValidationError } from "../errors/index.js";
import type { Author } from "../model/author.js";
import type { Message } from "../model/message.js";
import { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "../model/workflow-serde.js";
import { adapterNameOf } from "../thread-id/index.js";
import { callAdapter } from "./adapter-call.js";
import { type Channel, ChannelImpl } from "./channel.js";
import { messagePages } from "./message-pages.js";
import { isPostableObject, type PostableObject, postPostableObject } from "./postable-object.js";
import type { PostContent } from "./postable-surface.js";
import { type PostEphemeralOptions, Poster } from "./poster.js";
import { LazyBinding } from "./runtime-binding.js";
import { ScopedState, type SetStateOptions } from "./scoped-state.js";
import { assertNonEmpty, emojiName, requireCapability, type SentMessage } from "./sent-message.js";
import {
  type RevivedThreadInit,
  revivedThreadInit,
  type SerializedThread,
  THREAD_JSON_TYPE,
} from "./serialization.js";
import { isStreamInput, type StreamInput } from "./stream-message.js";
import type { StreamingSettings } from "./stream-post.js";
import { postStreamFrom } from "./stream-sent.js";
import { markAsRead, participantsOf, replyTo } from "./thread-actions.js";
import { standaloneThreadCoordination, type ThreadCoordination } from "./thread-coordination.js";
import {
  persistedMessages,
  persistsThreadHistory,
  type ThreadHistoryCache,
} from "./thread-history.js";
import type { Thread } from "./thread-interface.js";

/** The State key prefix of thread state, upstream's: `thread-state:{threadId}`. */
export const THREAD_STATE_KEY_PREFIX = "thread-state:";

/** How many messages `refresh()` loads into `recentMessages`: upstream's 50. */
export const RECENT_MESSAGES_LIMIT = 50;

export type { Thread } from "./thread-interface.js";

/** What a {@link ThreadImpl} is built from. */
export interface ThreadOptions {
  adapter: Adapter;
  state: StateAdapter;
  /** Must start with `{adapter.name}:`. */
  threadId: string;
  /** Receives debug lines about failed platform calls. Default: silent. */
  logger?: Logger;
  /** Overrides `adapter.isDM(threadId)`; default: the adapter's answer, else false. */
  isDM?: boolean;
  /** Who may see the thread's channel, when the adapter knows. Default `"unknown"`. */
  channelVisibility?: ChannelVisibility;
  /** The message being handled; `recentMessages` starts with it, `toJSON()` keeps it. */
  initialMessage?: Message;
  /**
   * True when the dispatcher already knows the thread is followed (a subscribed-message
   * handler), so `isSubscribed()` answers without a State call until `unsubscribe()`.
   */
  isSubscribedContext?: boolean;
  /** Runs `once` and `hold`; default: the State alone, with the adapter's lock scope. */
  coordination?: ThreadCoordination;
  /** The Chat's persisted history, read by `messages` when the adapter `persistThreadHistory`. */
  history?: ThreadHistoryCache;
  /** Streaming settings from the Chat config (interval, placeholder, clock). Default: upstream's. */
  streaming?: StreamingSettings;
  /** `context.signal`, or a function making it once a stream starts; aborting stops the stream. */
  signal?: AbortSignal | (() => AbortSignal);
}

/** The runtime's {@link Thread}. */
export class ThreadImpl<TState = Record<string, unknown>> implements Thread<TState> {
  readonly id: string;
  readonly channelId: string;
  readonly isDM: boolean;
  readonly channelVisibility: ChannelVisibility;
  recentMessages: Message[];
  private knownSubscribed: boolean;
  private cachedChannel: Channel<TState> | undefined;
  /** Adapter, State and logger: given at construction, or found on first use when revived. */
  private readonly binding: LazyBinding;
  private readonly currentMessage: Message | undefined;
  private cachedStore: ScopedState<TState> | undefined;
  private ownCoordination: ThreadCoordination | undefined;
  private streaming: StreamingSettings = {};
  private cachedPoster: Poster | undefined;
  private streamSignal: AbortSignal | (() => AbortSignal) | undefined;

  constructor(options: ThreadOptions | RevivedThreadInit) {
    this.knownSubscribed = false;
    if ("revived" in options) {
      this.binding = options.binding;
      this.id = options.threadId;
      this.channelId = options.channelId;
      this.isDM = options.isDM;
      this.channelVisibility = options.channelVisibility;
      this.currentMessage = options.initialMessage;
      this.recentMessages = options.initialMessage ? [options.initialMessage] : [];
      return;
    }
    const step = "create thread";
    const { adapter } = options;
    this.id = assertNonEmpty(options.threadId, "threadId", step);
    // A thread id of another adapter here means a wiring bug; every call would go astray.
    if (adapterNameOf(this.id) !== adapter.name) {
      throw new ValidationError(
        `thread id ${JSON.stringify(this.id)} does not belong to adapter "${adapter.name}"`,
        { step },
      );
    }
    this.binding = LazyBinding.of({
      adapter,
      state: options.state,
      logger: options.logger ?? silentLogger,
      ...(options.coordination ? { coordination: options.coordination } : {}),
      ...(options.history ? { history: options.history } : {}),
    });
    this.channelId = adapter.channelIdFromThreadId(this.id);
    this.isDM = options.isDM ?? adapter.isDM?.(this.id) ?? false;
    this.channelVisibility = options.channelVisibility ?? "unknown";
    this.currentMessage = options.initialMessage;
    this.recentMessages = options.initialMessage ? [options.initialMessage] : [];
    this.knownSubscribed = options.isSubscribedContext ?? false;
    this.streaming = options.streaming ?? {};
    this.streamSignal = options.signal;
  }

  /**
   * Rebuilds a thread from its JSON form (`toJSON()`), bound to `adapter` when given, else to the
   * process's Chat singleton (`chat.registerSingleton()`) — looked up on first use, not here, so
   * reviving needs no Chat yet. Throws a `ValidationError` naming the bad field for bad JSON; a
   * missing adapter throws when the handle is first used.
   */
  static fromJSON<TState = Record<string, unknown>>(
    json: SerializedThread,
    adapter?: Adapter,
  ): ThreadImpl<TState> {
    return new ThreadImpl<TState>(revivedThreadInit(json, adapter));
  }

  /** The Workflow SDK's serializer (`@workflow/serde`): {@link toJSON}. */
  static [WORKFLOW_SERIALIZE](thread: ThreadImpl<unknown>): SerializedThread {
    return thread.toJSON();
  }

  /** The Workflow SDK's deserializer: {@link ThreadImpl.fromJSON}, bound to the Chat singleton. */
  static [WORKFLOW_DESERIALIZE](json: SerializedThread): ThreadImpl {
    return ThreadImpl.fromJSON(json);
  }

  /** The adapter; on a revived thread, looked up on first access (throws when not found). */
  get adapter(): Adapter {
    return this.binding.adapter;
  }

  private get stateAdapter(): StateAdapter {
    return this.binding.state;
  }

  private get logger(): Logger {
    return this.binding.logger;
  }

  private get store(): ScopedState<TState> {
    this.cachedStore ??= new ScopedState(this.stateAdapter, `${THREAD_STATE_KEY_PREFIX}${this.id}`);
    return this.cachedStore;
  }

  private get coordination(): ThreadCoordination {
    const given = this.binding.coordination;
    if (given) return given;
    this.ownCoordination ??= standaloneThreadCoordination(this.stateAdapter, this.logger);
    return this.ownCoordination;
  }

  /**
   * The JSON form: id, channel, visibility, the adapter's name and the message being handled.
   * Never touches the adapter or the State, so an unbound revived thread serializes too.
   */
  toJSON(): SerializedThread {
    const json: SerializedThread = {
      _type: THREAD_JSON_TYPE,
      id: this.id,
      channelId: this.channelId,
      channelVisibility: this.channelVisibility,
      isDM: this.isDM,
      adapterName: adapterNameOf(this.id),
    };
    if (this.currentMessage) json.currentMessage = this.currentMessage.toJSON();
    return json;
  }

  get channel(): Channel<TState> {
    this.cachedChannel ??= new ChannelImpl<TState>({
      revived: true,
      binding: this.binding,
      adapterName: adapterNameOf(this.id),
      channelId: this.channelId,
      isDM: this.isDM,
      channelVisibility: this.channelVisibility,
    });
    return this.cachedChannel;
  }

  post<T extends PostableObject>(message: T): Promise<T>;
  post(message: PostableMessage | PostContent | StreamInput): Promise<SentMessage>;
  async post(message: unknown): Promise<unknown> {
    if (isPostableObject(message)) {
      const post = (text: string) => this.adapter.postMessage(this.id, text);
      return postPostableObject(message, this.adapter, this.id, post, this.logger);
    }
    if (isStreamInput(message)) return this.postStreamed(message);
    return this.poster.post(message, (adapter, content) => adapter.postMessage(this.id, content));
  }

  postEphemeral(
    user: string | Author,
    message: PostContent,
    options: PostEphemeralOptions,
  ): Promise<EphemeralMessage | null> {
    return this.poster.postEphemeral(user, message, options);
  }

  schedule(message: PostContent, options: ScheduleOptions): Promise<ScheduledMessage> {
    return this.poster.schedule(message, options);
  }

  reply(
    target: string | Message,
    message: PostContent | AsyncIterable<unknown>,
  ): Promise<SentMessage> {
    return replyTo(this.view, this.poster, target, message);
  }

  markAsRead(message?: string | Message): Promise<void> {
    return markAsRead(this.view, this.poster, message);
  }

  mentionUser(userId: string): string {
    return this.poster.mentionUser(userId);
  }

  getParticipants(): Promise<Author[]> {
    return participantsOf(this.currentMessage, this.allMessages);
  }

  createSentMessageFromMessage(message: Message): SentMessage {
    return this.poster.fromMessage(message);
  }

  async addReaction(messageId: string, emoji: string | EmojiValue): Promise<void> {
    const step = `add reaction to message ${messageId} in ${this.id}`;
    const id = assertNonEmpty(messageId, "messageId", step);
    const name = emojiName(emoji, step);
    requireCapability(this.adapter, "reactions", step);
    await this.call(step, () => this.adapter.addReaction(this.id, id, name));
  }

  async removeReaction(messageId: string, emoji: string | EmojiValue): Promise<void> {
    const step = `remove reaction from message ${messageId} in ${this.id}`;
    const id = assertNonEmpty(messageId, "messageId", step);
    const name = emojiName(emoji, step);
    requireCapability(this.adapter, "reactions", step);
    await this.call(step, () => this.adapter.removeReaction(this.id, id, name));
  }

  async startTyping(status?: string): Promise<void> {
    const step = `start typing in ${this.id}`;
    requireCapability(this.adapter, "typing", step);
    await this.call(step, () => this.adapter.startTyping(this.id, status));
  }

  /** Records the subscription, then calls the adapter's `onThreadSubscribe` hook if it has one. */
  async subscribe(): Promise<void> {
    await this.stateAdapter.subscribe(this.id);
    const { onThreadSubscribe } = this.adapter;
    if (typeof onThreadSubscribe !== "function") return;
    await this.call(`subscribe to ${this.id}`, () => onThreadSubscribe.call(this.adapter, this.id));
  }

  async unsubscribe(): Promise<void> {
    this.knownSubscribed = false;
    await this.stateAdapter.unsubscribe(this.id);
  }

  async isSubscribed(): Promise<boolean> {
    if (this.knownSubscribed) return true;
    return this.stateAdapter.isSubscribed(this.id);
  }

  get state(): Promise<TState | null> {
    return this.store.get();
  }

  setState(partial: Partial<TState>, options?: SetStateOptions): Promise<void> {
    return this.store.update(partial, options, `set state of thread ${this.id}`);
  }

  get messages(): AsyncIterable<Message> {
    return this.history("backward");
  }

  get allMessages(): AsyncIterable<Message> {
    return this.history("forward");
  }

  private history(direction: FetchDirection): AsyncIterable<Message> {
    const { adapter } = this;
    const persisted = this.binding.history;
    if (persisted && persistsThreadHistory(adapter)) {
      return persistedMessages(persisted, this.id, direction);
    }
    return messagePages(adapter, this.id, this.logger, { direction });
  }

  async refresh(): Promise<void> {
    const persisted = this.binding.history;
    if (persisted && persistsThreadHistory(this.adapter)) {
      this.recentMessages = await persisted.getMessages(this.id, RECENT_MESSAGES_LIMIT);
      return;
    }
    const page = await this.call(`fetch messages of ${this.id}`, () =>
      this.adapter.fetchMessages(this.id, { limit: RECENT_MESSAGES_LIMIT }),
    );
    // Pages come newest first; recentMessages keeps upstream's oldest-first order.
    this.recentMessages = [...page.messages].reverse();
  }

  async once<T>(name: string, work: OnceWork<T>, options: OnceOptions): Promise<OnceResult<T>> {
    const checked = assertNonEmpty(name, "name", `run once in ${this.id}`);
    return this.coordination.once(threadOnceKey(this.id, checked), work, options);
  }

  hold(options: HoldOptions): Promise<HoldHandle | null> {
    return this.coordination.hold(this.adapter, this.id, options);
  }

  /** Streams into this thread (docs/streaming.md): native, post + edit, or one post at the end. */
  private postStreamed(input: StreamInput): Promise<SentMessage> {
    return postStreamFrom(
      {
        adapter: this.adapter,
        id: this.id,
        logger: this.logger,
        streaming: this.streaming,
        ...(this.streamSignal ? { signal: streamSignalOf(this.streamSignal) } : {}),
        ...(this.currentMessage ? { currentMessage: this.currentMessage } : {}),
        post: (content) => this.adapter.postMessage(this.id, content),
      },
      input,
    );
  }

  private get poster(): Poster {
    this.cachedPoster ??= new Poster({
      kind: "thread",
      id: this.id,
      adapter: () => this.adapter,
      state: () => this.stateAdapter,
      logger: () => this.logger,
    });
    return this.cachedPoster;
  }

  private get view() {
    return {
      id: this.id,
      adapter: this.adapter,
      currentMessage: this.currentMessage,
      recentMessages: this.recentMessages,
    };
  }

  private call<T>(step: string, run: () => Promise<T>): Promise<T> {
    return callAdapter(this.adapter, step, run, this.logger);
  }
}

/** The run's signal, made now if the run left only a way to make it (`ThreadOptions.signal`). */
function streamSignalOf(signal: AbortSignal | (() => AbortSignal)): AbortSignal {
  return typeof signal === "function" ? signal() : signal;
}
