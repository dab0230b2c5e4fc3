import type {
  AdapterCapabilities,
  AdapterPostableMessage,
  ChannelInfo,
  Clock,
  EphemeralMessage,
  FetchMessagesOptions,
  FetchMessagesResult,
  ListThreadsOptions,
  ListThreadsResult,
  Message,
  RawMessage,
  ScheduledMessage,
  ScheduleOptions,
  StreamChunk,
  StreamOptions,
  ThreadInfo,
  UserInfo,
} from "@baton/core";
import type { MockPost, ResolvedMockAdapterOptions } from "./mock-adapter-options.js";
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
import { mockPosts } from "./mock-posts.js";
import { MockRecorder } from "./mock-recorder.js";
import { MockSchedule, type MockScheduledPost } from "./mock-scheduling.js";
import { mockStream } from "./mock-stream.js";
import { decodeMockThreadId } from "./mock-thread-id.js";

/**
 * The outbound half of {@link MockAdapter}: every platform call of the adapter contract, each a
 * one-line delegation to its concern's module, and what a test reads and steers afterwards (the
 * call log, posts, scheduled posts, seeded history, users and names, injected failures).
 */
export abstract class MockOutbound {
  /** The adapter's key in `new Chat({ adapters })` and the prefix of its thread ids. */
  readonly name: string;
  /** What this mock stands in for: every feature unless `options.capabilities` switched some off. */
  readonly capabilities: AdapterCapabilities;

  protected readonly clock: Pick<Clock, "now">;
  protected readonly recorder: MockRecorder;
  protected readonly core: MockCore;
  protected readonly history: MockHistory;
  protected readonly users = new MockUsers();
  protected readonly schedule: MockSchedule;
  protected readonly channels: MockChannels;

  protected constructor(name: string, resolved: ResolvedMockAdapterOptions) {
    this.name = name;
    this.capabilities = resolved.capabilities;
    this.clock = resolved.clock;
    this.recorder = new MockRecorder(name, this.clock);
    this.core = new MockCore(name, this.capabilities, this.recorder);
    this.history = new MockHistory(resolved.pageSize);
    this.schedule = new MockSchedule(this.clock);
    this.channels = new MockChannels(this.history, resolved.pageSize);
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

  /** Records the call and returns the direct thread `{name}:D{userId}:dm` (capability `openDM`). */
  openDM(userId: string): Promise<string> {
    return mockOpenDM(this.core, userId);
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
    decodeMockThreadId(this.name, threadId);
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

  /** Forgets what the outbound half keeps: calls, seeded data, scheduled posts, failures, ids. */
  protected resetOutbound(): void {
    this.recorder.clear();
    this.history.clear();
    this.users.clear();
    this.schedule.clear();
    this.channels.clear();
    this.core.resetIds();
  }
}
