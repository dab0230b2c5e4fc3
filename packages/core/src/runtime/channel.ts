import type { Adapter, PostableMessage, SentMessage } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import type { Message } from "../model/message.js";
import { callAdapter } from "./adapter-call.js";
import { messagePages } from "./message-pages.js";
import { assertPostable } from "./postable.js";
import { ScopedState, type SetStateOptions } from "./scoped-state.js";
import { assertNonEmpty, createSentMessageHandle, type SentMessageHandle } from "./sent-message.js";

/** The State key prefix of channel state, upstream's: `channel-state:{channelId}`. */
export const CHANNEL_STATE_KEY_PREFIX = "channel-state:";

/**
 * Upstream's optional adapter method for posting at the top level of a channel. Not part of
 * Baton's Adapter contract yet; an adapter that has it (one ported from upstream) is used
 * through it, as upstream does.
 */
interface ChannelPostingAdapter {
  postChannelMessage?(channelId: string, message: PostableMessage): Promise<SentMessage>;
}

/**
 * The place on the platform that contains threads, as handlers see it (upstream's `Channel`).
 * Channel state is one JSON object per channel, shared by all its threads.
 */
export interface Channel<TState = Record<string, unknown>> {
  /** The channel id, as `adapter.channelIdFromThreadId` returns it. */
  readonly id: string;
  readonly adapter: Adapter;
  /** True when the channel is a direct conversation with the bot. */
  readonly isDM: boolean;
  /** The channel's state, or `null` when none was set or it expired. Read on every access. */
  readonly state: Promise<TState | null>;
  /**
   * Merges `partial` into the channel's state atomically (concurrent calls lose no key), or
   * replaces it with `{ replace: true }`. Every write keeps the state 30 days from now.
   */
  setState(partial: Partial<TState>, options?: SetStateOptions): Promise<void>;
  /** The channel's messages, newest first, fetched lazily page by page. */
  readonly messages: AsyncIterable<Message>;
  /**
   * Posts at the top level of the channel: through the adapter's `postChannelMessage` when it
   * has one, else `postMessage(channelId, …)` (upstream's rule). Rejects with a
   * `ValidationError` for empty content, before any platform call.
   */
  post(message: PostableMessage): Promise<SentMessageHandle>;
  /** Shows the typing indicator in the channel, with an optional status text. */
  startTyping(status?: string): Promise<void>;
}

/** What a {@link ChannelImpl} is built from. */
export interface ChannelOptions {
  adapter: Adapter;
  state: StateAdapter;
  channelId: string;
  /** Default false; a thread's channel inherits the thread's value. */
  isDM?: boolean;
  /** Receives debug lines about failed platform calls. Default: silent. */
  logger?: Logger;
}

/** The runtime's {@link Channel}. Holds no cache of state or messages: every read is fresh. */
export class ChannelImpl<TState = Record<string, unknown>> implements Channel<TState> {
  readonly id: string;
  readonly adapter: Adapter;
  readonly isDM: boolean;
  private readonly store: ScopedState<TState>;
  private readonly logger: Logger;

  constructor(options: ChannelOptions) {
    this.id = assertNonEmpty(options.channelId, "channelId", "create channel");
    this.adapter = options.adapter;
    this.isDM = options.isDM ?? false;
    this.logger = options.logger ?? silentLogger;
    this.store = new ScopedState(options.state, `${CHANNEL_STATE_KEY_PREFIX}${this.id}`);
  }

  get state(): Promise<TState | null> {
    return this.store.get();
  }

  setState(partial: Partial<TState>, options?: SetStateOptions): Promise<void> {
    return this.store.update(partial, options, `set state of channel ${this.id}`);
  }

  get messages(): AsyncIterable<Message> {
    return messagePages(this.adapter, this.id, this.logger);
  }

  async post(message: PostableMessage): Promise<SentMessageHandle> {
    const step = `post message to ${this.id}`;
    const content = assertPostable(message, step);
    const adapter = this.adapter as Adapter & ChannelPostingAdapter;
    const sent = await callAdapter(
      adapter,
      step,
      () =>
        typeof adapter.postChannelMessage === "function"
          ? adapter.postChannelMessage(this.id, content)
          : adapter.postMessage(this.id, content),
      this.logger,
    );
    return createSentMessageHandle(adapter, sent, this.id, this.logger);
  }

  async startTyping(status?: string): Promise<void> {
    const step = `start typing in ${this.id}`;
    await callAdapter(
      this.adapter,
      step,
      () => this.adapter.startTyping(this.id, status),
      this.logger,
    );
  }
}
