import type { Adapter, FetchMessagesOptions } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { PostableMessage } from "../contracts/postable-message.js";
import type { StateAdapter } from "../contracts/state.js";
import type {
  ChannelInfo,
  ChannelVisibility,
  EphemeralMessage,
  ScheduledMessage,
  ScheduleOptions,
  ThreadSummary,
} from "../contracts/thread-surface-types.js";
import type { Author } from "../model/author.js";
import type { Message } from "../model/message.js";
import { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "../model/workflow-serde.js";
import { callAdapter } from "./adapter-call.js";
import { channelMetadata, channelThreads } from "./channel-directory.js";
import { messagePages } from "./message-pages.js";
import { isPostableObject, type PostableObject, postPostableObject } from "./postable-object.js";
import type { PostableSurface, PostContent } from "./postable-surface.js";
import { type PostEphemeralOptions, Poster } from "./poster.js";
import { LazyBinding } from "./runtime-binding.js";
import { ScopedState, type SetStateOptions } from "./scoped-state.js";
import { assertNonEmpty, requireCapability, type SentMessage } from "./sent-message.js";
import {
  CHANNEL_JSON_TYPE,
  type RevivedChannelInit,
  revivedChannelInit,
  type SerializedChannel,
} from "./serialization.js";
import { isStreamInput, type StreamInput } from "./stream-message.js";
import { collectStreamMarkdown } from "./stream-sent.js";

/** The State key prefix of channel state, upstream's: `channel-state:{channelId}`. */
export const CHANNEL_STATE_KEY_PREFIX = "channel-state:";

/**
 * The place on the platform that contains threads, as handlers see it (upstream's `Channel`).
 * Channel state is one JSON object per channel, shared by all its threads.
 */
export interface Channel<TState = Record<string, unknown>> extends PostableSurface {
  /** The channel id, as `adapter.channelIdFromThreadId` returns it. */
  readonly id: string;
  readonly adapter: Adapter;
  /** True when the channel is a direct conversation with the bot. */
  readonly isDM: boolean;
  /** Who may see the channel, where the adapter said; `"unknown"` otherwise. */
  readonly channelVisibility: ChannelVisibility;
  /** The channel's state, or `null` when none was set or it expired. Read on every access. */
  readonly state: Promise<TState | null>;
  /**
   * Merges `partial` into the channel's state atomically (concurrent calls lose no key), or
   * replaces it with `{ replace: true }`. Every write keeps the state 30 days from now.
   */
  setState(partial: Partial<TState>, options?: SetStateOptions): Promise<void>;
  /**
   * The channel's messages, newest first, fetched lazily page by page: through the adapter's
   * `fetchChannelMessages` when it has one, else `fetchMessages(channelId)`.
   */
  readonly messages: AsyncIterable<Message>;
  /** The JSON form; see `ChannelImpl.fromJSON` and `chat.reviver()`. */
  toJSON(): SerializedChannel;
  /**
   * Posts at the top level of the channel: through the adapter's `postChannelMessage` when it
   * has one, else `postMessage(channelId, …)` (upstream's rule). Rejects with a
   * `ValidationError` for empty content, before any platform call. A stream is read to its end
   * and posted once; a postable object (a `Plan`) is posted and resolves with itself.
   */
  post<T extends PostableObject>(message: T): Promise<T>;
  post(message: PostableMessage | PostContent | StreamInput): Promise<SentMessage>;
  /** Shows the typing indicator in the channel, with an optional status text. */
  startTyping(status?: string): Promise<void>;
  /** The channel's name once `fetchMetadata()` found one; `null` before. */
  readonly name: string | null;
  /**
   * The channel's metadata from `adapter.fetchChannelInfo` (and sets `name`), or `{ id, isDM,
   * metadata: {} }` where the adapter has no such call.
   */
  fetchMetadata(): Promise<ChannelInfo>;
  /**
   * The channel's threads through `adapter.listThreads`, page by page as iteration reaches them;
   * an empty iteration where the adapter cannot list threads.
   */
  threads(): AsyncIterable<ThreadSummary>;
}

/** What a {@link ChannelImpl} is built from. */
export interface ChannelOptions {
  adapter: Adapter;
  state: StateAdapter;
  channelId: string;
  /** Default false; a thread's channel inherits the thread's value. */
  isDM?: boolean;
  /** Default `"unknown"`; a thread's channel inherits the thread's value. */
  channelVisibility?: ChannelVisibility;
  /** Receives debug lines about failed platform calls. Default: silent. */
  logger?: Logger;
}

/** The runtime's {@link Channel}. Holds no cache of state or messages: every read is fresh. */
export class ChannelImpl<TState = Record<string, unknown>> implements Channel<TState> {
  readonly id: string;
  readonly isDM: boolean;
  readonly channelVisibility: ChannelVisibility;
  /** Adapter, State and logger: given at construction, or found on first use when revived. */
  private readonly binding: LazyBinding;
  private readonly adapterName: string;
  private cachedStore: ScopedState<TState> | undefined;
  private cachedPoster: Poster | undefined;
  private knownName: string | null = null;

  constructor(options: ChannelOptions | RevivedChannelInit) {
    this.id = assertNonEmpty(options.channelId, "channelId", "create channel");
    this.isDM = options.isDM ?? false;
    this.channelVisibility = options.channelVisibility ?? "unknown";
    if ("revived" in options) {
      this.binding = options.binding;
      this.adapterName = options.adapterName;
      return;
    }
    this.adapterName = options.adapter.name;
    this.binding = LazyBinding.of({
      adapter: options.adapter,
      state: options.state,
      logger: options.logger ?? silentLogger,
    });
  }

  /**
   * Rebuilds a channel from its JSON form, bound like `ThreadImpl.fromJSON`: to `adapter` when
   * given, else to the Chat singleton on first use.
   */
  static fromJSON<TState = Record<string, unknown>>(
    json: SerializedChannel,
    adapter?: Adapter,
  ): ChannelImpl<TState> {
    return new ChannelImpl<TState>(revivedChannelInit(json, adapter));
  }

  /** The Workflow SDK's serializer (`@workflow/serde`): {@link toJSON}. */
  static [WORKFLOW_SERIALIZE](channel: ChannelImpl<unknown>): SerializedChannel {
    return channel.toJSON();
  }

  /** The Workflow SDK's deserializer: {@link ChannelImpl.fromJSON}, bound to the Chat singleton. */
  static [WORKFLOW_DESERIALIZE](json: SerializedChannel): ChannelImpl {
    return ChannelImpl.fromJSON(json);
  }

  /** The adapter; on a revived channel, looked up on first access (throws when not found). */
  get adapter(): Adapter {
    return this.binding.adapter;
  }

  private get logger(): Logger {
    return this.binding.logger;
  }

  private get store(): ScopedState<TState> {
    this.cachedStore ??= new ScopedState(
      this.binding.state,
      `${CHANNEL_STATE_KEY_PREFIX}${this.id}`,
    );
    return this.cachedStore;
  }

  /** The JSON form; never touches the adapter or the State. */
  toJSON(): SerializedChannel {
    return {
      _type: CHANNEL_JSON_TYPE,
      id: this.id,
      adapterName: this.adapterName,
      channelVisibility: this.channelVisibility,
      isDM: this.isDM,
    };
  }

  get state(): Promise<TState | null> {
    return this.store.get();
  }

  setState(partial: Partial<TState>, options?: SetStateOptions): Promise<void> {
    return this.store.update(partial, options, `set state of channel ${this.id}`);
  }

  get messages(): AsyncIterable<Message> {
    const { adapter } = this;
    const channelPage = adapter.fetchChannelMessages;
    // Upstream's rule: the channel's own messages where the adapter can list them, else the
    // channel id through fetchMessages.
    const fetchPage =
      typeof channelPage === "function"
        ? (id: string, options: FetchMessagesOptions) => channelPage.call(adapter, id, options)
        : undefined;
    return messagePages(adapter, this.id, this.logger, {
      direction: "backward",
      ...(fetchPage ? { fetchPage } : {}),
    });
  }

  post<T extends PostableObject>(message: T): Promise<T>;
  post(message: PostableMessage | PostContent | StreamInput): Promise<SentMessage>;
  async post(message: unknown): Promise<unknown> {
    if (isPostableObject(message)) {
      const adapter = this.adapter;
      const post = (text: string) =>
        typeof adapter.postChannelMessage === "function"
          ? adapter.postChannelMessage(this.id, text)
          : adapter.postMessage(this.id, text);
      return postPostableObject(message, adapter, this.id, post, this.logger);
    }
    // A stream is read to its end and posted once (upstream's channel rule).
    const postable = isStreamInput(message) ? await collectStreamMarkdown(message) : message;
    return this.poster.post(postable, (adapter, content) =>
      typeof adapter.postChannelMessage === "function"
        ? adapter.postChannelMessage(this.id, content)
        : adapter.postMessage(this.id, content),
    );
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

  mentionUser(userId: string): string {
    return this.poster.mentionUser(userId);
  }

  get name(): string | null {
    return this.knownName;
  }

  async fetchMetadata(): Promise<ChannelInfo> {
    const info = await channelMetadata(this.adapter, this.id, this.isDM, this.logger);
    if (typeof this.adapter.fetchChannelInfo === "function") this.knownName = info.name ?? null;
    return info;
  }

  threads(): AsyncIterable<ThreadSummary> {
    return channelThreads(this.adapter, this.id, this.logger);
  }

  private get poster(): Poster {
    this.cachedPoster ??= new Poster({
      kind: "channel",
      id: this.id,
      adapter: () => this.adapter,
      state: () => this.binding.state,
      logger: () => this.logger,
    });
    return this.cachedPoster;
  }

  async startTyping(status?: string): Promise<void> {
    const step = `start typing in ${this.id}`;
    requireCapability(this.adapter, "typing", step);
    await callAdapter(
      this.adapter,
      step,
      () => this.adapter.startTyping(this.id, status),
      this.logger,
    );
  }
}
