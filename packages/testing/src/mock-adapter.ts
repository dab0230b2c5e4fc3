import {
  type Adapter,
  AdapterError,
  type Attachment,
  type ChatHost,
  type Clock,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type LockScope,
  type Message,
  type PostableMessage,
  type SentMessage,
  ValidationError,
  type WebhookOptions,
} from "@baton/core";
import {
  type MockAdapterOptions,
  type MockDeliverOptions,
  type MockPost,
  resolveMockAdapterOptions,
} from "./mock-adapter-options.js";
import {
  assertPostable,
  cloneArg,
  copyCall,
  isMockMethod,
  MOCK_METHODS,
  type MockCall,
  type MockMethod,
  postableText,
  trimArgs,
} from "./mock-call.js";
import { MockHistory } from "./mock-history.js";
import { assertOwnMockId } from "./mock-own-id.js";
import { decodeMockThreadId, encodeMockThreadId, type MockThreadData } from "./mock-thread-id.js";
import {
  createMockWebhookRequest,
  handleMockWebhook,
  type MockWebhookMessage,
} from "./mock-webhook.js";
import { parseMockMessage } from "./parse-mock-message.js";

interface CallRecord {
  method: MockMethod;
  threadId: string;
  args: unknown[];
  at: number;
  error?: unknown;
  done: boolean;
}

/**
 * A platform adapter that talks to no platform: it implements the whole `Adapter` contract,
 * records every outbound call in order, answers with plausible results (`mock-msg-1`, `mock-msg-2`,
 * …), serves seeded history, and fails on request. Thread ids are `{name}:{channel}:{thread}`.
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

  private readonly clock: Pick<Clock, "now">;
  private host: ChatHost | undefined;
  private isDisconnected = false;
  private records: CallRecord[] = [];
  private readonly history: MockHistory;
  private failures = new Map<MockMethod, unknown[]>();
  private sentCount = 0;

  constructor(name = "mock", options: MockAdapterOptions = {}) {
    const {
      userName,
      botUserId,
      lockScope: scope,
      clock,
      pageSize,
    } = resolveMockAdapterOptions(name, options);
    this.name = name;
    this.userName = userName;
    this.botUserId = botUserId;
    if (scope !== undefined) this.lockScope = scope;
    this.clock = clock;
    this.history = new MockHistory(pageSize);
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
  postMessage(threadId: string, message: PostableMessage): Promise<SentMessage> {
    return this.record("postMessage", threadId, [threadId, message], () => {
      assertPostable(message);
      return this.sent(threadId);
    });
  }

  /** Records the call and returns the edited message's id. */
  editMessage(threadId: string, messageId: string, message: PostableMessage): Promise<SentMessage> {
    return this.record("editMessage", threadId, [threadId, messageId, message], () => {
      assertPostable(message);
      return { id: messageId, threadId };
    });
  }

  /** Records the call. */
  deleteMessage(threadId: string, messageId: string): Promise<void> {
    return this.record("deleteMessage", threadId, [threadId, messageId], () => undefined);
  }

  /** Records the call. */
  addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    return this.record("addReaction", threadId, [threadId, messageId, emoji], () => undefined);
  }

  /** Records the call. */
  removeReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    return this.record("removeReaction", threadId, [threadId, messageId, emoji], () => undefined);
  }

  /** Records the call. */
  startTyping(threadId: string, status?: string): Promise<void> {
    return this.record("startTyping", threadId, trimArgs([threadId, status]), () => undefined);
  }

  /**
   * Records the call and returns the thread's seeded messages newest first, `limit` (default
   * `defaultPageSize`) at a time; `nextCursor` is absent on the last page. A `ValidationError` for
   * a limit that is not a positive integer or a cursor this adapter did not issue.
   */
  fetchMessages(threadId: string, options?: FetchMessagesOptions): Promise<FetchMessagesResult> {
    return this.record("fetchMessages", threadId, trimArgs([threadId, options]), () =>
      this.history.page(threadId, options),
    );
  }

  /**
   * Records the call (its args hold the chunks read so far), reads `chunks` to the end and returns
   * `{ id: "mock-msg-<n>", threadId }`. The joined text counts as posted once the stream ends.
   */
  stream(threadId: string, chunks: AsyncIterable<string>): Promise<SentMessage> {
    const read: string[] = [];
    return this.record("stream", threadId, [threadId, read], async () => {
      for await (const chunk of chunks) read.push(String(chunk));
      return this.sent(threadId);
    });
  }

  /** Records the call and returns the direct thread `{name}:D{userId}:dm`. */
  openDM(userId: string): Promise<string> {
    const ok = typeof userId === "string" && userId !== "" && !userId.includes(":");
    const threadId = ok ? `${this.name}:D${userId}:dm` : `${this.name}:D?:dm`;
    return this.record("openDM", threadId, [userId], () => {
      if (!ok)
        throw new ValidationError('userId must be a non-empty string without ":"', {
          step: "open DM",
        });
      return threadId;
    });
  }

  /** Records the call and returns `{ id: "mock-msg-<n>", threadId }`. */
  postEphemeral(threadId: string, userId: string, message: PostableMessage): Promise<SentMessage> {
    return this.record("postEphemeral", threadId, [threadId, userId, message], () => {
      assertPostable(message);
      return this.sent(threadId);
    });
  }

  /** Every outbound call so far, in call order, failed ones included. A frozen copy. */
  get calls(): readonly MockCall[] {
    return Object.freeze(this.records.map(toCall));
  }

  /** The calls of one method, in call order. A frozen copy. */
  callsOf(method: MockMethod): readonly MockCall[] {
    return Object.freeze(this.records.filter((r) => r.method === method).map(toCall));
  }

  /** Successful `postMessage` and finished `stream` calls as `{ threadId, text, via }`, in order. */
  get posts(): readonly MockPost[] {
    return Object.freeze(
      this.postedRecords().map((r) =>
        Object.freeze({
          threadId: r.threadId,
          text: postedText(r),
          via: r.method as MockPost["via"],
        }),
      ),
    );
  }

  /** Texts of successful `postMessage` and finished `stream` calls, in call order. */
  get posted(): readonly string[] {
    return Object.freeze(this.postedRecords().map(postedText));
  }

  /** Like `posted`, restricted to one thread. */
  postedTo(threadId: string): readonly string[] {
    return Object.freeze(
      this.postedRecords()
        .filter((r) => r.threadId === threadId)
        .map(postedText),
    );
  }

  /**
   * Appends history that `fetchMessages(threadId)` serves, given oldest first. A `ValidationError`
   * when the thread id is not this adapter's or a message belongs to another thread.
   */
  seedMessages(threadId: string, messages: readonly Message[]): void {
    this.decodeThreadId(threadId);
    this.history.seed(threadId, messages);
  }

  /**
   * Makes the next call of `method` reject with `error` (default: an `AdapterError`). Calling it
   * n times fails the next n calls, in order. The failed call is still recorded, with `error`.
   */
  failNext(method: MockMethod, error?: unknown): void {
    if (!isMockMethod(method)) {
      throw new ValidationError(
        `unknown method ${JSON.stringify(method)}; one of ${MOCK_METHODS.join(", ")}`,
        {
          step: "fail next call",
        },
      );
    }
    const failure = error ?? new AdapterError(this.name, `${method} failed (injected by failNext)`);
    this.failures.set(method, [...(this.failures.get(method) ?? []), failure]);
  }

  /** Forgets recorded calls, seeded messages and pending failures, and restarts ids at 1. */
  reset(): void {
    this.records = [];
    this.history.clear();
    this.failures = new Map();
    this.sentCount = 0;
  }

  private async record<T>(
    method: MockMethod,
    threadId: string,
    args: unknown[],
    run: () => T | Promise<T>,
  ): Promise<T> {
    const record: CallRecord = {
      method,
      threadId,
      args: cloneArgs(args),
      at: this.clock.now(),
      done: false,
    };
    this.records.push(record);
    try {
      if (method !== "openDM") assertOwnMockId(this.name, method, threadId);
      const queued = this.failures.get(method);
      if (queued && queued.length > 0) throw queued.shift();
      const result = await run();
      record.done = true;
      return result;
    } catch (error) {
      record.error = error;
      throw error;
    }
  }

  private sent(threadId: string): SentMessage {
    this.sentCount += 1;
    return { id: `mock-msg-${this.sentCount}`, threadId };
  }

  private postedRecords(): CallRecord[] {
    return this.records.filter(
      (r) => (r.method === "postMessage" || r.method === "stream") && r.done && !("error" in r),
    );
  }
}

/** Creates a {@link MockAdapter}; see its options for the defaults. */
export function createMockAdapter(name = "mock", options?: MockAdapterOptions): MockAdapter {
  return new MockAdapter(name, options);
}

function toCall(record: CallRecord): MockCall {
  const call: MockCall = {
    method: record.method,
    threadId: record.threadId,
    args: record.args,
    at: record.at,
  };
  return copyCall("error" in record ? { ...call, error: record.error } : call);
}

function postedText(record: CallRecord): string {
  if (record.method === "stream") return (record.args[1] as string[]).join("");
  return postableText(record.args[1] as PostableMessage);
}

/** Clones plain arguments; the stream's live chunk array is kept by reference until copied out. */
function cloneArgs(args: unknown[]): unknown[] {
  return args.map((arg) => (Array.isArray(arg) ? arg : cloneArg(arg)));
}
