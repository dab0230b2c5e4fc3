import type {
  Adapter,
  Attachment,
  ChatHost,
  LockScope,
  Message,
  WebhookOptions,
} from "@baton/core";
import {
  type MockAdapterOptions,
  type MockDeliverOptions,
  resolveMockAdapterOptions,
} from "./mock-adapter-options.js";
import { MockModals } from "./mock-modals.js";
import { MockOutbound } from "./mock-outbound.js";
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
export class MockAdapter extends MockOutbound implements Adapter<MockThreadData> {
  /** The bot's handle. */
  readonly userName: string;
  /** The bot's user id. */
  readonly botUserId: string;
  /** The natural lock scope given in the options, if any. */
  readonly lockScope?: LockScope;

  private host: ChatHost | undefined;
  private isDisconnected = false;
  private readonly userIds: RegExp;
  /** The user's side of modals and interactions: submit, close, type into selects, click. */
  readonly modals: MockModals;

  constructor(name = "mock", options: MockAdapterOptions = {}) {
    const resolved = resolveMockAdapterOptions(name, options);
    super(name, resolved);
    this.userName = resolved.userName;
    this.botUserId = resolved.botUserId;
    if (resolved.lockScope !== undefined) this.lockScope = resolved.lockScope;
    this.userIds = resolved.userIds;
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

  /** Records the call and shows the modal as view `mock-view-<n>` (capability `modals`). */
  openModal(
    triggerId: string,
    modal: ModalElement,
    contextId?: string,
  ): Promise<{ viewId: string }> {
    return this.modals.open(triggerId, modal, contextId);
  }

  /** True when `userId` matches the `userIds` option (default: Slack-like `U…` ids). Not recorded. */
  matchesUserId(userId: string): boolean {
    return mockMatchesUserId(this.userIds, userId);
  }

  /** Forgets recorded calls, seeded data, scheduled posts and pending failures; restarts ids. */
  reset(): void {
    this.resetOutbound();
    this.modals.clear();
  }
}

/** Creates a {@link MockAdapter}; see its options for the defaults. */
export function createMockAdapter(name = "mock", options?: MockAdapterOptions): MockAdapter {
  return new MockAdapter(name, options);
}
