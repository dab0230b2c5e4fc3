import type {
  Adapter,
  AdapterCapabilities,
  AdapterPostableMessage,
  Attachment,
  ChannelInfo,
  ChatHost,
  Clock,
  EphemeralMessage,
  FetchMessagesOptions,
  FetchMessagesResult,
  ListThreadsOptions,
  ListThreadsResult,
  LockScope,
  Message,
  RawMessage,
  ScheduledMessage,
  ScheduleOptions,
  StreamChunk,
  StreamOptions,
  ThreadInfo,
  UserInfo,
  WebhookOptions,
} from "@baton/core";
import {
  type MockAdapterOptions,
  type MockDeliverOptions,
  type MockPost,
  resolveMockAdapterOptions,
} from "./mock-adapter-options.js";
import type { MockCall, MockMethod } from "./mock-call.js";
import { MockChannels } from "./mock-channels.js";
import { MockUsers, mockMarkAsRead, mockOpenDM, mockPostEphemeral } from "./mock-conversations.js";
import { MockCore } from "./mock-core.js";
import { MockHistory } from "./mock-history.js";
import {
  mockDeleteMessage,
  mockEditMessage,
  mockFetchMessages,
  mockPostMessage,
  mockReaction,
  mockReply,
  mockStartTyping,
} from "./mock-messaging.js";
import { MockModals } from "./mock-modals.js";
import { mockPosts } from "./mock-posts.js";
import { MockRecorder } from "./mock-recorder.js";
import { MockSchedule, type MockScheduledPost } from "./mock-scheduling.js";
import { mockStream } from "./mock-stream.js";
import { decodeMockThreadId, encodeMockThreadId, type MockThreadData } from "./mock-thread-id.js";
import { mockMatchesUserId } from "./mock-users.js";
import {
  createMockWebhookRequest,
  handleMockWebhook,
  type MockWebhookMessage,
} from "./mock-webhook.js";
import { parseMockMessage } from "./parse-mock-message.js";

type ModalElement = Parameters<NonNullable<Adapter["openModal"]>>[1];

/**
 * A platform adapter that talks to no platform: it implements the whole `Adapter` contract and
 * every capability (each can be switched off per test through `options.capabilities`), records
 * every outbound call in order, answers with plausible results (`mock-msg-1`, `mock-msg-2`, …),
 * serves seeded history, users and channel names, and fails on request. Thread ids are
 * `{name}:{channel}:{thread}`. Each concern lives in its own module (`mock-messaging`,
 * `mock-conversations`, `mock-scheduling`, `mock-channels`, `mock-stream`, …); the methods here
 * only delegate.
 */
export class MockAdapter implements Adapter<MockThreadData> {
  /** The adapter's key in `new Chat({ adapters })` and the prefix of its thread ids. */
  readonly name: string;
  /** The bot's handle. */
  readonly userName: string;
  /** The bot's user id. */
  readonly botUserId: string;
  /** The natural lock scope given in the options, if any. */
  readonly lockScope?: LockScope;
  /** What this mock stands in for: every feature unless `options.capabilities` switched some off. */
  readonly capabilities: AdapterCapabilities;

  private readonly clock: Pick<Clock, "now">;
  private host: ChatHost | undefined;
  private isDisconnected = false;
  private readonly recorder: MockRecorder;
  private readonly core: MockCore;
  private readonly history: MockHistory;
  private readonly users = new MockUsers();
  private readonly userIds: RegExp;
  private readonly schedule: MockSchedule;
  private readonly channels: MockChannels;
  /** The user's side of modals and interactions: submit, close, type into selects, click. */
  readonly modals: MockModals;

  constructor(name = "mock", options: MockAdapterOptions = {}) {
    const resolved = resolveMockAdapterOptions(name, options);
    this.name = name;
    this.userName = resolved.userName;
    this.botUserId = resolved.botUserId;
    if (resolved.lockScope !== undefined) this.lockScope = resolved.lockScope;
    this.capabilities = resolved.capabilities;
    this.userIds = resolved.userIds;
    this.clock = resolved.clock;
    this.recorder = new MockRecorder(name, this.clock);
    this.core = new MockCore(name, this.capabilities, this.recorder);
    this.history = new MockHistory(resolved.pageSize);
    this.schedule = new MockSchedule(this.clock);
    this.channels = new MockChannels(this.history, resolved.pageSize);
    this.modals = new MockModals(
      this.core,
      () => this,
      () => this.host,
    );
  }

  /** The host given to `initialize`, or `undefined` before it. */
  get chat(): ChatHost | undefined {
    return this.host;
  }

  /** True after `disconnect()` and until the next `initialize()`. */
  get disconnected(): boolean {
    return this.isDisconnected;
  }

  /** Keeps `chat` for webhook dispatch. A later call replaces the host. */
  async initialize(chat: ChatHost): Promise<void> {
    this.host = chat;
    this.isDisconnected = false;
  }

  /** Marks the adapter disconnected; idempotent. */
  async disconnect(): Promise<void> {
    this.isDisconnected = true;
  }

  /**
   * Accepts `POST` with a JSON body `{ threadId, message, tenantId? }` and hands the message to
   * `chat.processMessage`: 200 `{ ok: true, messageId }`, 400 on a malformed body, 503 with
   * `Retry-After` on admission rejection, 500 before `initialize` or on another rejection.
   */
  handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    const target = {
      adapter: this,
      host: this.host,
      parse: (raw: unknown) => this.parseMessage(raw),
    };
    return handleMockWebhook(target, request, options);
  }

  /**
   * Sends `message` to its own `threadId` through `handleWebhook`, as the platform would, and
   * returns the webhook's response. A shortcut for `handleWebhook(createMockWebhookRequest(…))`.
   */
  deliver(
    message: MockWebhookMessage & { threadId: string },
    options: MockDeliverOptions = {},
  ): Promise<Response> {
    const { tenantId, ...webhookOptions } = options;
    const body = {
      threadId: message.threadId,
      message,
      ...(tenantId === undefined ? {} : { tenantId }),
    };
    return this.handleWebhook(createMockWebhookRequest(body), webhookOptions);
  }

  /** `{name}:{channel}:{thread}`. Throws a `ValidationError` for an empty part or one with `:`. */
  encodeThreadId(data: MockThreadData): string {
    return encodeMockThreadId(this.name, data);
  }

  /** The inverse of `encodeThreadId`; a `ValidationError` for another prefix or missing parts. */
  decodeThreadId(threadId: string): MockThreadData {
    return decodeMockThreadId(this.name, threadId);
  }

  /** `{name}:{channel}`; validates like `decodeThreadId`. */
  channelIdFromThreadId(threadId: string): string {
    return `${this.name}:${this.decodeThreadId(threadId).channel}`;
  }

  /** True when the thread's channel starts with `D`; validates like `decodeThreadId`. */
  isDM(threadId: string): boolean {
    return this.decodeThreadId(threadId).channel.startsWith("D");
  }

  /**
   * Builds a `Message` from a `MockRawMessage` or a message's JSON form. Author defaults to
   * `U_USER`; the bot's own user id makes `isMe` (and `isBot`) true; `isMention` stays `undefined`
   * unless given. Throws a `ValidationError` for a malformed payload or a foreign thread id.
   */
  parseMessage(raw: unknown): Message {
    const message = parseMockMessage(raw, {
      botUserId: this.botUserId,
      now: () => this.clock.now(),
    });
    this.decodeThreadId(message.threadId);
    return message;
  }

  /** Restores `fetchData` of an attachment whose `fetchMetadata.content` holds its UTF-8 text. */
  rehydrateAttachment(attachment: Attachment): Attachment {
    const content = attachment.fetchMetadata?.content;
    if (content === undefined) return { ...attachment };
    return { ...attachment, fetchData: async () => new TextEncoder().encode(content) };
  }

  /** Records the call and returns `{ id: "mock-msg-<n>", threadId }`. */
  postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    return mockPostMessage(this.core, threadId, message);
  }

  /** Records the call and returns the edited message's id (capability `editMessage`). */
  editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    return mockEditMessage(this.core, threadId, messageId, message);
  }

  /** Records the call (capability `deleteMessage`). */
  deleteMessage(threadId: string, messageId: string): Promise<void> {
    return mockDeleteMessage(this.core, threadId, messageId);
  }

  /** Records the call (capability `reactions`). */
  addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    return mockReaction(this.core, "addReaction", threadId, messageId, emoji);
  }

  /** Records the call (capability `reactions`). */
  removeReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    return mockReaction(this.core, "removeReaction", threadId, messageId, emoji);
  }

  /** Records the call (capability `typing`). */
  startTyping(threadId: string, status?: string): Promise<void> {
    return mockStartTyping(this.core, threadId, status);
  }

  /**
   * Records the call and returns a page of the thread's seeded messages, newest first (or oldest
   * first with `direction: "forward"`), `limit` (default `defaultPageSize`) at a time;
   * `nextCursor` is absent on the last page. A `ValidationError` for a limit that is not a
   * positive integer or a cursor this adapter did not issue. Capability `history`.
   */
  fetchMessages(threadId: string, options?: FetchMessagesOptions): Promise<FetchMessagesResult> {
    return mockFetchMessages(this.core, this.history, threadId, options);
  }

  /**
   * Records the call (its args hold the chunks read so far), reads `chunks` to the end and returns
   * `{ id: "mock-msg-<n>", threadId }`. The joined text counts as posted once the stream ends.
   * Capability `streaming: "native"`.
   */
  stream(
    threadId: string,
    chunks: AsyncIterable<string | StreamChunk>,
    options?: StreamOptions,
  ): Promise<RawMessage> {
    return mockStream(this.core, threadId, chunks, options);
  }

  /** Records the call and shows the modal as view `mock-view-<n>` (capability `modals`). */
  openModal(
    triggerId: string,
    modal: ModalElement,
    contextId?: string,
  ): Promise<{ viewId: string }> {
    return this.modals.open(triggerId, modal, contextId);
  }

  /** Records the call and returns the direct thread `{name}:D{userId}:dm` (capability `openDM`). */
  openDM(userId: string): Promise<string> {
    return mockOpenDM(this.core, userId);
  }

  /** True when `userId` matches the `userIds` option (default: Slack-like `U…` ids). Not recorded. */
  matchesUserId(userId: string): boolean {
    return mockMatchesUserId(this.userIds, userId);
  }

  /** Records the call; a seeded user (see `seedUsers`) or `null` (capability `getUser`). */
  getUser(userId: string): Promise<UserInfo | null> {
    return this.users.get(this.core, userId);
  }

  /** Records the call and returns `{ id: "mock-msg-<n>", threadId, usedFallback: false }`. */
  postEphemeral(
    threadId: string,
    userId: string,
    message: AdapterPostableMessage,
  ): Promise<EphemeralMessage> {
    return mockPostEphemeral(this.core, threadId, userId, message);
  }

  /**
   * Records the call and keeps the post in `scheduled` until its `cancel()` (capability
   * `scheduling`). A `ValidationError` unless `postAt` lies in the future of the adapter's clock.
   */
  scheduleMessage(
    threadId: string,
    message: AdapterPostableMessage,
    options: ScheduleOptions,
  ): Promise<ScheduledMessage> {
    return this.schedule.schedule(this.core, threadId, message, options);
  }

  /** Records the call and returns `{ id: "mock-msg-<n>", threadId }` (capability `replies`). */
  reply(threadId: string, messageId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    return mockReply(this.core, threadId, messageId, message);
  }

  /** Records the call (capability `readReceipts`). */
  markAsRead(threadId: string, messageId: string): Promise<void> {
    return mockMarkAsRead(this.core, threadId, messageId);
  }

  /** Records the call; `{ id, isDM, metadata: {} }` with the name given to `setChannelName`. */
  fetchChannelInfo(channelId: string): Promise<ChannelInfo> {
    return this.channels.channelInfo(this.core, channelId);
  }

  /** Records the call; `{ id, channelId, isDM, metadata: {} }` (and `channelName` when set). */
  fetchThread(threadId: string): Promise<ThreadInfo> {
    return this.channels.threadInfo(this.core, threadId);
  }

  /** Records the call; the channel's threads that have seeded history, in pages. */
  listThreads(channelId: string, options?: ListThreadsOptions): Promise<ListThreadsResult> {
    return this.channels.listThreads(this.core, channelId, options);
  }

  /** Every outbound call so far, in call order, failed ones included. A frozen copy. */
  get calls(): readonly MockCall[] {
    return this.recorder.calls();
  }

  /** The calls of one method, in call order. A frozen copy. */
  callsOf(method: MockMethod): readonly MockCall[] {
    return this.recorder.calls(method);
  }

  /** Successful `postMessage` and finished `stream` calls as `{ threadId, text, via }`, in order. */
  get posts(): readonly MockPost[] {
    return mockPosts(this.recorder);
  }

  /** Texts of successful `postMessage` and finished `stream` calls, in call order. */
  get posted(): readonly string[] {
    return Object.freeze(mockPosts(this.recorder).map((post) => post.text));
  }

  /** Like `posted`, restricted to one thread. */
  postedTo(threadId: string): readonly string[] {
    return Object.freeze(mockPosts(this.recorder, threadId).map((post) => post.text));
  }

  /** Scheduled posts not cancelled yet, in scheduling order. */
  get scheduled(): readonly MockScheduledPost[] {
    return this.schedule.list();
  }

  /**
   * Appends history that `fetchMessages(threadId)` serves, given oldest first. A `ValidationError`
   * when the thread id is not this adapter's or a message belongs to another thread.
   */
  seedMessages(threadId: string, messages: readonly Message[]): void {
    this.decodeThreadId(threadId);
    this.history.seed(threadId, messages);
  }

  /** Adds users that `getUser` finds, by `userId`. */
  seedUsers(users: readonly UserInfo[]): void {
    this.users.seed(users);
  }

  /** Names a channel (`{name}:{channel}`) for `fetchChannelInfo` and `fetchThread`. */
  setChannelName(channelId: string, channelName: string): void {
    this.channels.setName(channelId, channelName);
  }

  /**
   * Makes the next call of `method` reject with `error` (default: an `AdapterError`). Calling it
   * n times fails the next n calls, in order. The failed call is still recorded, with `error`.
   */
  failNext(method: MockMethod, error?: unknown): void {
    this.recorder.failNext(method, error);
  }

  /** Forgets recorded calls, seeded data, scheduled posts and pending failures; restarts ids. */
  reset(): void {
    this.recorder.clear();
    this.history.clear();
    this.users.clear();
    this.schedule.clear();
    this.channels.clear();
    this.modals.clear();
    this.core.resetIds();
  }
}

/** Creates a {@link MockAdapter}; see its options for the defaults. */
export function createMockAdapter(name = "mock", options?: MockAdapterOptions): MockAdapter {
  return new MockAdapter(name, options);
}
