import type { ModalElement } from "../content/modals/index.js";
import type { Attachment } from "../model/attachment.js";
import type { Message } from "../model/message.js";
import type { MessageSubject } from "../model/message-subject.js";
import type { AdapterStreaming } from "./adapter-streaming.js";
import type { AdapterCapabilities } from "./capabilities.js";
import type { ChatHost, WebhookOptions } from "./chat-host.js";
import type { AdapterPostableMessage } from "./postable-message.js";
import type {
  ChannelInfo,
  EphemeralMessage,
  ListThreadsOptions,
  ListThreadsResult,
  ScheduledMessage,
  ScheduleOptions,
  ThreadInfo,
  UserInfo,
} from "./thread-surface-types.js";

/** The lock scope an adapter or user chooses: one lock per thread, or per channel. */
export type LockScope = "thread" | "channel";

export type {
  ChatHost,
  DeliveryResult,
  InteractionOptions,
  ProcessOptions,
  ReceiveResult,
  WebhookOptions,
} from "./chat-host.js";

/**
 * A message the bot sent, as the platform acknowledged it (upstream's `RawMessage`): what
 * `postMessage`, `editMessage`, `stream` and `postChannelMessage` resolve with. The runtime turns
 * it into a `SentMessage` the handler can edit, delete and react to.
 */
export interface RawMessage<TRaw = unknown> {
  /** The platform's message id; must be non-empty. */
  id: string;
  /** The thread the message landed in; empty or absent means the thread it was posted to. */
  threadId: string;
  /** The platform's response. */
  raw?: TRaw;
}

/** @deprecated The adapter's answer is a {@link RawMessage}; kept for adapters written before. */
export type AdapterSentMessage = RawMessage;

/**
 * Which end of the history a walk starts at: `backward` (the default) from the newest message
 * towards older ones, `forward` from the oldest towards newer ones (upstream's names).
 */
export type FetchDirection = "backward" | "forward";

/** Options of {@link Adapter.fetchMessages}. */
export interface FetchMessagesOptions {
  /** Page size; adapters cap it at the platform's limit. */
  limit?: number;
  /** Continue after this cursor from a previous page (of the same direction). */
  cursor?: string;
  /**
   * Default `backward`. Pages list their messages in the order of the walk: newest first going
   * backward, oldest first going forward; `nextCursor` continues the walk.
   */
  direction?: FetchDirection;
}

/** One page of history, in the order of its walk (newest first by default). */
export interface FetchMessagesResult {
  messages: Message[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/**
 * A platform adapter (upstream's shape). Thread ids are strings `{name}:{…}` that the adapter
 * alone encodes and decodes; `decodeThreadId(encodeThreadId(x))` equals `x`. How it takes a
 * streamed reply (`stream`, and the pace of post + edit) is in {@link AdapterStreaming}.
 */
export interface Adapter<TThreadData = unknown> extends AdapterStreaming {
  /** The key of this adapter in `new Chat({ adapters })`, and the prefix of its thread ids. */
  readonly name: string;
  /** The bot's handle on this platform. */
  readonly userName: string;
  /** The bot's platform user id, once known (after `initialize`). */
  readonly botUserId?: string;
  /** The platform's natural lock scope; the user's `lockScope` option overrides it. */
  readonly lockScope?: LockScope;

  /** Called once by `chat.initialize()`; keeps the host for later dispatch. */
  initialize(chat: ChatHost): Promise<void>;
  /**
   * Verifies (before parsing), parses and hands the request's events to the host, and answers
   * the platform: 401 forged or stale, 400 malformed, 413 oversized, 503 on admission rejection.
   */
  handleWebhook(request: Request, options?: WebhookOptions): Promise<Response>;
  /** Starts a socket or polling transport, for platforms without webhooks. */
  listen?(): Promise<void>;
  /** Stops listeners and releases connections; called by `chat.shutdown()`. */
  disconnect?(): Promise<void>;

  encodeThreadId(data: TThreadData): string;
  decodeThreadId(threadId: string): TThreadData;
  /** The channel a thread belongs to; used for channel lock scope. */
  channelIdFromThreadId(threadId: string): string;
  /** True when the thread is a direct conversation with the bot. */
  isDM?(threadId: string): boolean;
  /** Normalizes a platform message payload. */
  parseMessage(raw: unknown): Message;
  /** Restores fetchers of an attachment that came back from JSON (queues). */
  rehydrateAttachment?(attachment: Attachment): Attachment;

  /**
   * What the platform can do. The runtime reads it before each call: an undeclared feature takes
   * its documented fallback or fails with a `NotSupportedError` without calling the adapter. When
   * absent (an adapter ported from upstream), `capabilitiesOf` infers it from the optional methods.
   */
  readonly capabilities?: AdapterCapabilities;

  /** Posts into a thread. `message` was validated by the core; see `AdapterPostableMessage`. */
  postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage>;
  /** Replaces a posted message's content (capability `editMessage`). */
  editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage>;
  /** Deletes a posted message (capability `deleteMessage`). */
  deleteMessage(threadId: string, messageId: string): Promise<void>;
  /** Adds the bot's reaction, a normalized emoji name (capability `reactions`). */
  addReaction(threadId: string, messageId: string, emoji: string): Promise<void>;
  /** Removes the bot's reaction (capability `reactions`). */
  removeReaction(threadId: string, messageId: string, emoji: string): Promise<void>;
  /** Shows a typing indicator, with a status text where the platform has one (`typing`). */
  startTyping(threadId: string, status?: string): Promise<void>;
  /** One page of history (capability `history`). */
  fetchMessages(threadId: string, options?: FetchMessagesOptions): Promise<FetchMessagesResult>;
  /**
   * One message by its id, in the thread's conversation (upstream's optional method); `null`
   * when the platform has no such message the bot can read. The runtime never calls it: a bot
   * reaches it through `thread.adapter.fetchMessage?.(…)`, and an adapter may use it behind a
   * link's `LinkPreview.fetchMessage`.
   */
  fetchMessage?(threadId: string, messageId: string): Promise<Message | null>;
  /**
   * Opens `modal` for the user whose interaction carried `triggerId` (capability `modals`) and
   * resolves with the platform's view id. Keeps `contextId` with the view and passes it back to
   * `processModalSubmit` / `processModalClose`.
   */
  openModal?(
    triggerId: string,
    modal: ModalElement,
    contextId?: string,
  ): Promise<{ viewId: string }>;
  /** Opens (or finds) the direct conversation with a user; returns its thread id (`openDM`). */
  openDM?(userId: string): Promise<string>;
  /** Looks a user up; `null` when the platform knows no such user (capability `getUser`). */
  getUser?(userId: string): Promise<UserInfo | null>;
  /**
   * The installation the work in progress runs for, when one adapter serves several (a
   * multi-workspace Slack app): `chat.getUser` caches users under it, so one installation's
   * answer (its names, its email scope) never serves another installation's lookup. Called
   * inside the work's own async context. Undefined, or not implemented: one cache per adapter.
   */
  userCacheScope?(): string | undefined;
  /**
   * Runs one handler run of `tenant` (its delivery's `ProcessOptions.tenantId`) inside what the
   * adapter needs for that tenant — a multi-workspace app's installation token — for runs that
   * happen outside the delivery that brought the message: a queued message drained by the
   * sweeper, by another instance or after a restart. `message` is the run's latest message.
   * Called around every run; returns `fn()` when it has nothing to add. Should not reject: a
   * rejection ends the run as `error` with no handler run (logged).
   */
  runForTenant?<T>(tenant: string | undefined, message: Message, fn: () => Promise<T>): Promise<T>;
  /** Posts a message only `userId` sees (capability `ephemeral`). */
  postEphemeral?(
    threadId: string,
    userId: string,
    message: AdapterPostableMessage,
  ): Promise<EphemeralMessage>;
  /** Schedules a post for `options.postAt` (capability `scheduling`). */
  scheduleMessage?(
    threadId: string,
    message: AdapterPostableMessage,
    options: ScheduleOptions,
  ): Promise<ScheduledMessage>;
  /**
   * Posts at the top level of a channel (upstream's optional method). Without it the runtime
   * posts with `postMessage(channelId, …)`.
   */
  postChannelMessage?(channelId: string, message: AdapterPostableMessage): Promise<RawMessage>;
  /**
   * Called by `thread.subscribe()` after the State recorded the subscription, for platforms that
   * must register for a thread's events (upstream's hook). A failure rejects `subscribe()`.
   */
  onThreadSubscribe?(threadId: string): Promise<void>;
  /**
   * Sends a read receipt for `messageId`, which platforms may treat as a watermark for earlier
   * messages too (capability `readReceipts`). `message` is the full message when the caller had it.
   */
  markAsRead?(threadId: string, messageId: string, message?: Message): Promise<void>;
  /** Replies to one message natively: a quote or a threaded reply (capability `replies`). */
  reply?(threadId: string, messageId: string, message: AdapterPostableMessage): Promise<RawMessage>;
  /**
   * The platform's mention markup for a user (`<@U123>` on Slack). Without it the runtime writes
   * upstream's `<@{userId}>`.
   */
  mentionUser?(userId: string): string;
  /**
   * Shows a postable object natively, e.g. a plan as a live task list (upstream's optional
   * method); `kind` names it, `data` is its model. Without it the runtime posts the object's text.
   */
  postObject?(threadId: string, kind: string, data: unknown): Promise<RawMessage>;
  /** Updates an object `postObject` showed. Needed, with `postObject`, for native plans. */
  editObject?(threadId: string, messageId: string, kind: string, data: unknown): Promise<void>;
  /** A channel's name and metadata, for `channel.fetchMetadata()`. */
  fetchChannelInfo?(channelId: string): Promise<ChannelInfo>;
  /** One page of a channel's threads, for `channel.threads`. */
  listThreads?(channelId: string, options?: ListThreadsOptions): Promise<ListThreadsResult>;
  /** A thread's metadata, for `thread.fetchMetadata()`. */
  fetchThread?(threadId: string): Promise<ThreadInfo>;

  // history, people
  /**
   * True when `userId` has the shape of this platform's user ids (Slack's `U…`, a Telegram
   * number). `chat.getUser(userId)` and `chat.openDM(userId)` pick the one registered adapter
   * that claims the id, so the core holds no platform's id patterns.
   */
  matchesUserId?(userId: string): boolean;
  /**
   * One page of a channel's own (top-level) messages, for `channel.messages`; pages follow
   * `options.direction` like `fetchMessages`. Without it `channel.messages` reads
   * `fetchMessages(channelId)`.
   */
  fetchChannelMessages?(
    channelId: string,
    options?: FetchMessagesOptions,
  ): Promise<FetchMessagesResult>;
  /** What a conversation is about (an issue, a pull request), for `message.subject`. */
  fetchSubject?(threadId: string): Promise<MessageSubject | null>;
  /**
   * True on platforms that keep no history the bot can read (Telegram, SMS): the runtime then
   * appends every accepted message to a bounded list in the State (`threadHistory` options), and
   * `thread.messages` / `allMessages` read that list.
   */
  readonly persistThreadHistory?: boolean;
  /** @deprecated Upstream's old name of {@link persistThreadHistory}; either flag turns it on. */
  readonly persistMessageHistory?: boolean;
}
