import type { EmojiValue } from "../content/emoji/emoji-value.js";
import type { Adapter } from "../contracts/adapter.js";
import type { PostableMessage } from "../contracts/postable-message.js";
import type { ChannelVisibility } from "../contracts/thread-surface-types.js";
import type { HoldHandle, HoldOptions } from "../coordination/hold.js";
import type { OnceOptions, OnceResult, OnceWork } from "../coordination/once.js";
import type { Message } from "../model/message.js";
import type { Channel } from "./channel.js";
import type { PostableObject } from "./postable-object.js";
import type { PostContent, ThreadPostingSurface } from "./postable-surface.js";
import type { SetStateOptions } from "./scoped-state.js";
import type { SentMessage } from "./sent-message.js";
import type { SerializedThread } from "./serialization.js";
import type { StreamInput } from "./stream-message.js";

/**
 * A conversation as handlers see it (upstream's `Thread`): post into it, react, follow it, keep
 * state on it, read its history. Every platform call validates its input first and wraps a
 * non-Baton failure in an `AdapterError` whose `step` names the call; Baton errors (such as a
 * `RateLimitError`) pass through unchanged.
 */
export interface Thread<TState = Record<string, unknown>> extends ThreadPostingSurface {
  /** The thread id, `{adapter}:{…}`. */
  readonly id: string;
  readonly adapter: Adapter;
  /** The id of the channel that contains the thread. */
  readonly channelId: string;
  /** True when the thread is a direct conversation with the bot. */
  readonly isDM: boolean;
  /** The containing channel; the same object on every access. */
  readonly channel: Channel<TState>;
  /** Who may see the thread's channel, where the adapter said; `"unknown"` otherwise. */
  readonly channelVisibility: ChannelVisibility;
  /**
   * Posts a postable object such as a `Plan`, which then edits itself in place; resolves with it.
   */
  post<T extends PostableObject>(message: T): Promise<T>;
  /**
   * Posts into this thread: text, markdown, an mdast tree, raw text, a card (JSX too; its text
   * where the adapter has no cards) or a stream. Rejects with a `ValidationError` for empty or
   * malformed content, before any platform call.
   */
  post(message: PostableMessage | PostContent | StreamInput): Promise<SentMessage>;
  /** Adds the bot's `emoji` reaction to any message of this thread. */
  addReaction(messageId: string, emoji: string | EmojiValue): Promise<void>;
  /** Removes the bot's `emoji` reaction from any message of this thread. */
  removeReaction(messageId: string, emoji: string | EmojiValue): Promise<void>;
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
   * reaches it (`direction: "backward"`). Each `for await` walks independently. On an adapter
   * with `persistThreadHistory`, the bounded history the runtime keeps in the State.
   */
  readonly messages: AsyncIterable<Message>;
  /** The whole history oldest first (`direction: "forward"`), lazily like {@link messages}. */
  readonly allMessages: AsyncIterable<Message>;
  /** The JSON form, for queues and workflow steps; see `ThreadImpl.fromJSON` and `chat.reviver()`. */
  toJSON(): SerializedThread;
  /**
   * Messages the thread object knows without a platform call, oldest first (upstream's order):
   * the triggering message at first, the latest `RECENT_MESSAGES_LIMIT` (50) after `refresh()`.
   */
  recentMessages: Message[];
  /** Loads the latest `RECENT_MESSAGES_LIMIT` (50) messages into `recentMessages`. */
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
