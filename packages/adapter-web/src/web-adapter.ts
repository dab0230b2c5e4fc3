import {
  type Adapter,
  type AdapterCapabilities,
  type AdapterPostableMessage,
  type ChatHost,
  defineCapabilities,
  type EphemeralMessage,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type LockScope,
  type Message,
  type RawMessage,
  ValidationError,
  type WebhookOptions,
} from "@baton/core";
import { WebPlatform } from "./api.js";
import { WebEventHub } from "./event-stream.js";
import { WebHistory } from "./history.js";
import {
  type ResolvedWebAdapterOptions,
  resolveWebAdapterOptions,
  type WebAdapterOptions,
} from "./options.js";
import { parseWebMessage } from "./parse.js";
import {
  assertPart,
  DM_THREAD_NAME,
  decodeWebThreadId,
  encodeWebThreadId,
  type WebThreadData,
  webChannelId,
} from "./thread-id.js";
import { handleWebRequest } from "./webhook.js";

/** What the web platform can do; see `WebAdapter.capabilities`. */
const WEB_CAPABILITIES = defineCapabilities({
  streaming: "native",
  reactions: true,
  editMessage: true,
  deleteMessage: true,
  typing: true,
  history: true,
  ephemeral: true,
  openDM: true,
});

/**
 * A browser chat as a Baton platform, over plain HTTP on the host's own server. Browsers post
 * messages to `POST …/messages` and receive the bot's posts, edits, deletes, reactions and
 * typing on `GET …/events` (server-sent events); the host says who each request is from with
 * `identify`. Each user has any number of threads, `{name}:{userId}:{threadName}`; the thread
 * named `dm` is the user's direct conversation with the bot. The adapter keeps the last
 * messages of each thread in memory: they serve `fetchMessages` and the snapshot a (re)connecting
 * page starts from. It verifies, parses and hands messages to the runtime; it never locks,
 * dedupes or routes.
 */
export class WebAdapter implements Adapter<WebThreadData> {
  readonly name: string;
  readonly userName: string;
  readonly botUserId: string;
  readonly lockScope?: LockScope;
  /**
   * What a browser page can show: text (no cards, modals or uploads), edits, deletes, reactions,
   * typing, history, ephemeral messages, DMs, and streams (posted, then edited as they grow).
   */
  readonly capabilities: AdapterCapabilities = WEB_CAPABILITIES;

  private readonly options: ResolvedWebAdapterOptions;
  private readonly hub = new WebEventHub();
  private readonly platform: WebPlatform;
  private host: ChatHost | undefined;

  constructor(options: WebAdapterOptions) {
    this.options = resolveWebAdapterOptions(options);
    this.name = this.options.name;
    this.userName = this.options.userName;
    this.botUserId = this.options.botUserId;
    if (this.options.lockScope !== undefined) this.lockScope = this.options.lockScope;
    const userOf = (threadId: string) => this.decodeThreadId(threadId).userId;
    this.platform = new WebPlatform({
      adapterName: this.name,
      bot: {
        userId: this.botUserId,
        userName: this.userName,
        fullName: this.userName,
        isBot: true,
        isMe: true,
      },
      history: new WebHistory(this.options.historyLimit, this.options.maxThreads, userOf),
      hub: this.hub,
      now: () => this.options.clock.now(),
      userOf,
    });
  }

  /** Attaches the runtime that receives messages; a later call (a restarted `Chat`) replaces it. */
  async initialize(chat: ChatHost): Promise<void> {
    this.host = chat;
  }

  /**
   * Detaches from the runtime (new posts get 503 until the next `initialize`) and ends every
   * open event stream, so the host's HTTP server can close. Browsers reconnect on their own and
   * resume from a snapshot; kept history survives. Idempotent.
   */
  async disconnect(): Promise<void> {
    this.host = undefined;
    this.hub.closeAll();
  }

  /** The number of open event streams; for health pages and tests. */
  get openStreams(): number {
    return this.hub.openStreams;
  }

  /**
   * Serves `POST …/messages` and `GET …/events` (any path prefix). See the package README for
   * the request and event formats and every status code.
   */
  handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    return handleWebRequest(
      {
        adapter: this,
        host: this.host,
        options: this.options,
        platform: this.platform,
        hub: this.hub,
        parse: (raw) => this.parseMessage(raw),
      },
      request,
      options,
    );
  }

  /** `{name}:{userId}:{threadName}`; a `ValidationError` for a part outside `[A-Za-z0-9_.-]{1,64}`. */
  encodeThreadId(data: WebThreadData): string {
    return encodeWebThreadId(this.name, data);
  }

  /** The inverse of `encodeThreadId`; a `ValidationError` for another adapter's or a malformed id. */
  decodeThreadId(threadId: string): WebThreadData {
    return decodeWebThreadId(this.name, threadId);
  }

  /** `{name}:{userId}`: under channel lock scope, one handler at a time per user. */
  channelIdFromThreadId(threadId: string): string {
    return webChannelId(this.name, threadId);
  }

  /** True for the thread named `dm`, the user's direct conversation with the bot. */
  isDM(threadId: string): boolean {
    return this.decodeThreadId(threadId).threadName === DM_THREAD_NAME;
  }

  /**
   * Builds a `Message` from a web payload `{ id, threadId, text, userId, userName?, dateSentMs? }`
   * or a message's JSON form. The bot's own user id makes `isMe` true. Throws a
   * `ValidationError` for a malformed payload or another adapter's thread id.
   */
  parseMessage(raw: unknown): Message {
    const message = parseWebMessage(raw, {
      botUserId: this.botUserId,
      now: () => this.options.clock.now(),
    });
    this.decodeThreadId(message.threadId);
    return message;
  }

  /** Posts as the bot; open pages of the thread's user show it at once. */
  async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    return this.platform.post(threadId, message);
  }

  /** Replaces the text of one of the bot's kept messages; an `AdapterError` for any other. */
  async editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    return this.platform.edit(threadId, messageId, message);
  }

  /** Deletes a kept message (the bot's or a user's); an `AdapterError` when none is kept. */
  async deleteMessage(threadId: string, messageId: string): Promise<void> {
    this.platform.remove(threadId, messageId);
  }

  /** Adds the bot's `emoji` reaction to a kept message. */
  async addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    this.platform.react(threadId, messageId, emoji, true);
  }

  /** Removes the bot's `emoji` reaction from a kept message. */
  async removeReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    this.platform.react(threadId, messageId, emoji, false);
  }

  /** Shows "typing" (with `status`, e.g. "thinking") until the bot's next message or a timeout in the page. */
  async startTyping(threadId: string, status?: string): Promise<void> {
    this.platform.typing(threadId, status);
  }

  /**
   * The thread's kept messages (users' and the bot's), newest first, `limit` (default 50, at
   * most 100) at a time. Only the last `historyLimit` messages per thread are kept.
   */
  async fetchMessages(
    threadId: string,
    options?: FetchMessagesOptions,
  ): Promise<FetchMessagesResult> {
    return this.platform.page(threadId, options);
  }

  /**
   * Posts the first chunk, then edits the message as chunks arrive (at most once per
   * `streamEditIntervalMs`) and once more at the end. A `ValidationError` when the stream
   * yields no text.
   */
  async stream(threadId: string, chunks: AsyncIterable<string>): Promise<RawMessage> {
    const { clock, streamEditIntervalMs } = this.options;
    let text = "";
    let sent: RawMessage | undefined;
    let shown = "";
    let lastEditMs = 0;
    for await (const chunk of chunks) {
      text += String(chunk);
      if (text === "") continue;
      if (!sent) {
        sent = this.platform.post(threadId, text);
        shown = text;
        lastEditMs = clock.now();
      } else if (clock.now() - lastEditMs >= streamEditIntervalMs) {
        this.platform.edit(threadId, sent.id, text);
        shown = text;
        lastEditMs = clock.now();
      }
    }
    if (!sent) {
      throw new ValidationError("the stream produced no text", { step: `stream to ${threadId}` });
    }
    if (shown !== text) this.platform.edit(threadId, sent.id, text);
    return sent;
  }

  /** The user's direct thread, `{name}:{userId}:dm`. */
  async openDM(userId: string): Promise<string> {
    assertPart(userId, "userId", "open DM");
    return this.encodeThreadId({ userId, threadName: DM_THREAD_NAME });
  }

  /**
   * Shows a message only now, to open pages of the thread's user: it is not kept, so a reload
   * or `fetchMessages` does not show it. Every web thread has one user, who must be `userId`.
   */
  async postEphemeral(
    threadId: string,
    userId: string,
    message: AdapterPostableMessage,
  ): Promise<EphemeralMessage> {
    const owner = this.decodeThreadId(threadId).userId;
    if (userId !== owner) {
      throw new ValidationError(`thread ${threadId} belongs to ${owner}, not ${userId}`, {
        step: "post ephemeral message",
      });
    }
    return { ...this.platform.post(threadId, message, true), usedFallback: false };
  }
}

/** Creates a {@link WebAdapter}; `identify` is the one required option. */
export function createWebAdapter(options: WebAdapterOptions): WebAdapter {
  return new WebAdapter(options);
}
