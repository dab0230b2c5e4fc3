import type { Attachment } from "../model/attachment.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";
import type { Logger } from "./logger.js";
import type { DispatchOutcome } from "./observer.js";
import type { StateAdapter } from "./state.js";

/** What a handler can post: plain text, markdown, or text the platform takes verbatim. */
export type PostableMessage = string | { markdown: string } | { raw: string };

/** A message the bot sent, as the platform acknowledged it. */
export interface SentMessage {
  id: string;
  threadId: string;
  raw?: unknown;
}

/** Options of {@link Adapter.fetchMessages}. */
export interface FetchMessagesOptions {
  /** Page size; adapters cap it at the platform's limit. */
  limit?: number;
  /** Continue after this cursor from a previous page. */
  cursor?: string;
}

/** One page of history, newest first. */
export interface FetchMessagesResult {
  messages: Message[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/** Options passed to a webhook entry point. */
export interface WebhookOptions {
  /**
   * The host's hook to keep the process alive for detached work (serverless `waitUntil`). Receives
   * a promise that never rejects.
   */
  waitUntil?: (task: Promise<unknown>) => void;
}

/** Options of the runtime's message entry point. */
export interface ProcessOptions extends WebhookOptions {
  /** The installation the event belongs to (workspace, tenant), for per-tenant admission. */
  tenantId?: string;
}

/**
 * How a delivery ended, as `processMessage` reports it: a terminal {@link DispatchOutcome}, or
 * `queued` when the message waits in the State queue for a holder in another process.
 */
export interface DeliveryResult {
  readonly outcome: DispatchOutcome | "queued";
  /** A short fixed phrase saying why, e.g. "lock held"; never user content. */
  readonly reason?: string;
}

/**
 * When a webhook may answer, as `receiveMessage` reports it: `accepted` under deferred dispatch
 * (the handler runs detached), or the delivery's final result (sync dispatch, duplicates, self
 * messages).
 */
export interface ReceiveResult {
  readonly outcome: DeliveryResult["outcome"] | "accepted";
  readonly reason?: string;
}

/** The lock scope an adapter or user chooses: one lock per thread, or per channel. */
export type LockScope = "thread" | "channel";

/**
 * What the runtime offers an adapter. An adapter verifies, parses and normalizes, then hands
 * events here; it never locks, dedupes or routes itself.
 */
export interface ChatHost {
  /**
   * Dispatches an inbound message and resolves with its disposition once it is final (handled,
   * skipped, dropped, errored, expired, preempted, ignored, duplicate) — or `queued` when a
   * holder in another process will run it. A factory is called after admission, so a rejected
   * delivery costs no parsing. Rejects with `AdmissionRejectedError` at the admission bound.
   */
  processMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options?: ProcessOptions,
  ): Promise<DeliveryResult>;
  /**
   * The entry point for webhook adapters: admits and accepts the message, then resolves when the
   * webhook may answer — after acceptance under `deferred` dispatch (the handler runs detached
   * and is handed to `options.waitUntil`), after the handler under `sync`. Rejects with
   * `AdmissionRejectedError` (answer 503 with Retry-After; nothing was written) or a State error
   * (answer 503 so the platform retries; no dedupe mark was left).
   */
  receiveMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options?: ProcessOptions,
  ): Promise<ReceiveResult>;
  processAction(adapter: Adapter, event: ActionEvent, options?: ProcessOptions): Promise<void>;
  processReaction(adapter: Adapter, event: ReactionEvent, options?: ProcessOptions): Promise<void>;
  processSlashCommand(
    adapter: Adapter,
    event: SlashCommandEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  processMessageUpdated(
    adapter: Adapter,
    message: Message,
    options?: ProcessOptions,
  ): Promise<void>;
  processMessageDeleted(
    adapter: Adapter,
    event: MessageDeletedEvent,
    options?: ProcessOptions,
  ): Promise<void>;
  getState(): StateAdapter;
  getUserName(): string;
  getLogger(component: string): Logger;
}

/**
 * A platform adapter (upstream's shape). Thread ids are strings `{name}:{…}` that the adapter
 * alone encodes and decodes; `decodeThreadId(encodeThreadId(x))` equals `x`.
 */
export interface Adapter<TThreadData = unknown> {
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

  postMessage(threadId: string, message: PostableMessage): Promise<SentMessage>;
  editMessage(threadId: string, messageId: string, message: PostableMessage): Promise<SentMessage>;
  deleteMessage(threadId: string, messageId: string): Promise<void>;
  addReaction(threadId: string, messageId: string, emoji: string): Promise<void>;
  removeReaction(threadId: string, messageId: string, emoji: string): Promise<void>;
  startTyping(threadId: string, status?: string): Promise<void>;
  fetchMessages(threadId: string, options?: FetchMessagesOptions): Promise<FetchMessagesResult>;
  /** Streams a reply as it is produced, where the platform can edit in place. */
  stream?(threadId: string, chunks: AsyncIterable<string>): Promise<SentMessage>;
  /** Opens (or finds) the direct conversation with a user; returns its thread id. */
  openDM?(userId: string): Promise<string>;
  /** Posts a message only `userId` sees. */
  postEphemeral?(threadId: string, userId: string, message: PostableMessage): Promise<SentMessage>;
}
