import type { Adapter, PostableMessage } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import type { HoldHandle, HoldOptions } from "../coordination/hold.js";
import {
  type OnceOptions,
  type OnceResult,
  type OnceWork,
  threadOnceKey,
} from "../coordination/once.js";
import { ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { adapterNameOf } from "../thread-id/index.js";
import { callAdapter } from "./adapter-call.js";
import { type Channel, ChannelImpl } from "./channel.js";
import { messagePages } from "./message-pages.js";
import { assertPostable } from "./postable.js";
import { ScopedState, type SetStateOptions } from "./scoped-state.js";
import { assertNonEmpty, createSentMessageHandle, type SentMessageHandle } from "./sent-message.js";
import { standaloneThreadCoordination, type ThreadCoordination } from "./thread-coordination.js";

/** The State key prefix of thread state, upstream's: `thread-state:{threadId}`. */
export const THREAD_STATE_KEY_PREFIX = "thread-state:";

/** How many messages `refresh()` loads into `recentMessages`: upstream's 50. */
export const RECENT_MESSAGES_LIMIT = 50;

/**
 * A conversation as handlers see it (upstream's `Thread`): post into it, react, follow it, keep
 * state on it, read its history. Every platform call validates its input first and wraps a
 * non-Baton failure in an `AdapterError` whose `step` names the call; Baton errors (such as a
 * `RateLimitError`) pass through unchanged.
 */
export interface Thread<TState = Record<string, unknown>> {
  /** The thread id, `{adapter}:{…}`. */
  readonly id: string;
  readonly adapter: Adapter;
  /** The id of the channel that contains the thread. */
  readonly channelId: string;
  /** True when the thread is a direct conversation with the bot. */
  readonly isDM: boolean;
  /** The containing channel; the same object on every access. */
  readonly channel: Channel<TState>;
  /** Posts into this thread. Rejects with a `ValidationError` for empty content. */
  post(message: PostableMessage): Promise<SentMessageHandle>;
  /** Adds the bot's `emoji` reaction to any message of this thread. */
  addReaction(messageId: string, emoji: string): Promise<void>;
  /** Removes the bot's `emoji` reaction from any message of this thread. */
  removeReaction(messageId: string, emoji: string): Promise<void>;
  /** Shows the typing indicator, with an optional status text where the platform has one. */
  startTyping(status?: string): Promise<void>;
  /** Follows the thread: its later messages route to `onSubscribedMessage`. Idempotent. */
  subscribe(): Promise<void>;
  /** Stops following the thread. Idempotent. */
  unsubscribe(): Promise<void>;
  /** True while the thread is followed. */
  isSubscribed(): Promise<boolean>;
  /** The thread's state, or `null` when none was set or it expired. Read on every access. */
  readonly state: Promise<TState | null>;
  /**
   * Merges `partial` into the thread's state atomically (concurrent calls lose no key), or
   * replaces it with `{ replace: true }`. Every write keeps the state 30 days from now.
   */
  setState(partial: Partial<TState>, options?: SetStateOptions): Promise<void>;
  /**
   * The thread's history, newest first, fetched lazily: a page is requested only when iteration
   * reaches it. Each `for await` walks independently.
   */
  readonly messages: AsyncIterable<Message>;
  /**
   * Messages the thread object knows without a platform call, oldest first (upstream's order):
   * the triggering message at first, the latest {@link RECENT_MESSAGES_LIMIT} after `refresh()`.
   */
  recentMessages: Message[];
  /** Loads the latest {@link RECENT_MESSAGES_LIMIT} messages into `recentMessages`. */
  refresh(): Promise<void>;
  /**
   * Runs `work` at most once to completion for this thread and `name`, across every instance
   * sharing the State (e.g. "summarize this thread once"). Of concurrent callers one runs it, the
   * others get `{ ran: false, reason: "in-progress" }`; after success every call gets
   * `{ ran: false, reason: "completed" }` (without the value). A failure re-arms the claim and
   * rethrows, so a later call retries; an attempt whose process died is taken over after
   * `ttlMs`. Claim key: `once:thread:{encodeURIComponent(threadId)}:{name}`.
   */
  once<T>(name: string, work: OnceWork<T>, options: OnceOptions): Promise<OnceResult<T>>;
  /**
   * Takes a hold on this thread's lock key — the key the strategies lock, so under channel lock
   * scope the whole channel — for `ttlMs`, or resolves `null` when it is busy. While held,
   * incoming messages follow the strategy: dropped under `drop`, waiting in the State queue under
   * `queue`/`debounce`/`burst` until `chat.releaseHold(handle)` drains them (`concurrent` takes
   * no lock and ignores holds). Called inside a handler run that holds this key, the run's own
   * lock is handed over to the hold: the rest of the run continues, and the drain after it stops.
   * The handle is plain JSON; nothing is written to thread state. Holds are not renewed: extend
   * them with `chat.extendHold`, or let expiry recover from a holder that went away.
   */
  hold(options: HoldOptions): Promise<HoldHandle | null>;
}

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
  /** The message being handled; `recentMessages` starts with it. */
  initialMessage?: Message;
  /**
   * True when the dispatcher already knows the thread is followed (a subscribed-message
   * handler), so `isSubscribed()` answers without a State call until `unsubscribe()`.
   */
  isSubscribedContext?: boolean;
  /** Runs `once` and `hold`; default: the State alone, with the adapter's lock scope. */
  coordination?: ThreadCoordination;
}

/** The runtime's {@link Thread}. */
export class ThreadImpl<TState = Record<string, unknown>> implements Thread<TState> {
  readonly id: string;
  readonly adapter: Adapter;
  readonly channelId: string;
  readonly isDM: boolean;
  recentMessages: Message[];
  private readonly stateAdapter: StateAdapter;
  private readonly store: ScopedState<TState>;
  private readonly logger: Logger;
  private knownSubscribed: boolean;
  private cachedChannel: Channel<TState> | undefined;
  private readonly coordination: ThreadCoordination;

  constructor(options: ThreadOptions) {
    const step = "create thread";
    this.adapter = options.adapter;
    this.id = assertNonEmpty(options.threadId, "threadId", step);
    // A thread id of another adapter here means a wiring bug; every call would go astray.
    if (adapterNameOf(this.id) !== this.adapter.name) {
      throw new ValidationError(
        `thread id ${JSON.stringify(this.id)} does not belong to adapter "${this.adapter.name}"`,
        { step },
      );
    }
    this.channelId = this.adapter.channelIdFromThreadId(this.id);
    this.isDM = options.isDM ?? this.adapter.isDM?.(this.id) ?? false;
    this.stateAdapter = options.state;
    this.logger = options.logger ?? silentLogger;
    this.store = new ScopedState(options.state, `${THREAD_STATE_KEY_PREFIX}${this.id}`);
    this.recentMessages = options.initialMessage ? [options.initialMessage] : [];
    this.knownSubscribed = options.isSubscribedContext ?? false;
    this.coordination =
      options.coordination ?? standaloneThreadCoordination(options.state, this.logger);
  }

  get channel(): Channel<TState> {
    this.cachedChannel ??= new ChannelImpl<TState>({
      adapter: this.adapter,
      state: this.stateAdapter,
      channelId: this.channelId,
      isDM: this.isDM,
      logger: this.logger,
    });
    return this.cachedChannel;
  }

  async post(message: PostableMessage): Promise<SentMessageHandle> {
    const step = `post message to ${this.id}`;
    const content = assertPostable(message, step);
    const sent = await this.call(step, () => this.adapter.postMessage(this.id, content));
    return createSentMessageHandle(this.adapter, sent, this.id, this.logger);
  }

  async addReaction(messageId: string, emoji: string): Promise<void> {
    const step = `add reaction to message ${messageId} in ${this.id}`;
    const id = assertNonEmpty(messageId, "messageId", step);
    const name = assertNonEmpty(emoji, "emoji", step);
    await this.call(step, () => this.adapter.addReaction(this.id, id, name));
  }

  async removeReaction(messageId: string, emoji: string): Promise<void> {
    const step = `remove reaction from message ${messageId} in ${this.id}`;
    const id = assertNonEmpty(messageId, "messageId", step);
    const name = assertNonEmpty(emoji, "emoji", step);
    await this.call(step, () => this.adapter.removeReaction(this.id, id, name));
  }

  async startTyping(status?: string): Promise<void> {
    await this.call(`start typing in ${this.id}`, () => this.adapter.startTyping(this.id, status));
  }

  async subscribe(): Promise<void> {
    await this.stateAdapter.subscribe(this.id);
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
    return messagePages(this.adapter, this.id, this.logger);
  }

  async refresh(): Promise<void> {
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

  private call<T>(step: string, run: () => Promise<T>): Promise<T> {
    return callAdapter(this.adapter, step, run, this.logger);
  }
}
