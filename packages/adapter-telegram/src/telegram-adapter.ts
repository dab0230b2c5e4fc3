import {
  type Adapter,
  type AdapterPostableMessage,
  type Attachment,
  type ChatHost,
  ConfigError,
  defaultEmojiResolver,
  defineCapabilities,
  type FetchMessagesResult,
  type Logger,
  type Message,
  NotSupportedError,
  type RawMessage,
  silentLogger,
  type UserInfo,
  type WebhookOptions,
} from "@baton/core";
import { TelegramApi } from "./api.js";
import {
  decodeTelegramCallbackData,
  encodeTelegramCallbackData,
  newStoredCallbackData,
  STORED_CALLBACK_PREFIX,
  type TelegramCallbackPayload,
} from "./cards.js";
import { TelegramApiError } from "./errors.js";
import type { TelegramChatMemberEvent, TelegramEventHandler } from "./events.js";
import { messageFromTelegram, type TelegramBotIdentity } from "./message.js";
import type { ResolvedTelegramOptions } from "./options.js";
import { toTelegramUpdate } from "./parse.js";
import { TelegramPoller } from "./polling.js";
import {
  chatParams,
  renderTelegramPost,
  sendTelegramPost,
  sendWithFallback,
  type TelegramSentMessage,
} from "./post.js";
import {
  decodeTelegramThreadId,
  encodeTelegramMessageId,
  encodeTelegramThreadId,
  isTelegramPrivateChat,
  TELEGRAM_ADAPTER_NAME,
  type TelegramThreadData,
  telegramChannelIdFromThreadId,
  telegramMessageIdOf,
  telegramThreadDataOf,
} from "./thread-id.js";
import { TELEGRAM_MESSAGE_LIMIT, truncateForTelegram } from "./truncate.js";
import { dispatchTelegramUpdate, type TelegramUpdateTarget } from "./updates.js";
import { handleTelegramWebhook } from "./webhook.js";

/**
 * True on a serverless platform (Vercel, AWS Lambda, Netlify, Cloud Run/Functions): a function
 * that sleeps between requests cannot hold a long poll, so `auto` stays on webhooks there.
 */
export function isServerlessRuntime(env: Record<string, string | undefined>): boolean {
  return ["VERCEL", "AWS_LAMBDA_FUNCTION_NAME", "NETLIFY", "K_SERVICE", "FUNCTION_TARGET"].some(
    (name) => (env[name] ?? "") !== "",
  );
}

/** How long a button payload too long for `callback_data` is kept in the State. */
const STORED_CALLBACK_TTL_MS = 30 * 24 * 60 * 60 * 1_000;

/**
 * Telegram through the Bot API (upstream `@chat-adapter/telegram`'s shape), on telegraf's
 * `Telegram` client. One thread per chat, and one per forum topic; the default lock is per
 * thread, so topics of one forum run in parallel (ADR 0019). Updates arrive by webhook or by long
 * polling (one instance at a time, through a lease in the State). Telegram keeps no history a
 * bot can read, so the core keeps it (`persistThreadHistory`).
 */
export class TelegramAdapter implements Adapter<TelegramThreadData> {
  readonly name = TELEGRAM_ADAPTER_NAME;
  readonly capabilities = defineCapabilities({
    streaming: "edit",
    cards: true,
    reactions: true,
    editMessage: true,
    deleteMessage: true,
    typing: true,
    openDM: true,
    getUser: true,
    files: true,
    replies: true,
  });
  readonly persistThreadHistory = true;
  readonly streamingUpdateIntervalMs: number;
  readonly lockScope = "thread" as const;

  private host: ChatHost | undefined;
  private readonly api: TelegramApi;
  private readonly poller: TelegramPoller;
  private me: Promise<{ id: number; username?: string }> | undefined;
  private readonly memberHandlers: TelegramEventHandler<TelegramChatMemberEvent>[] = [];
  private knownUserName: string | undefined;

  constructor(readonly options: ResolvedTelegramOptions) {
    this.knownUserName = options.userName;
    this.streamingUpdateIntervalMs = options.streamingEditIntervalMs;
    this.api = new TelegramApi({ ...options, logger: () => this.logger() });
    this.poller = new TelegramPoller({
      api: this.api,
      state: () => this.chatHost("poll").getState(),
      settings: options.longPolling,
      clock: options.clock,
      logger: () => this.logger(),
      scope: async () => (await this.identity()).scope,
      handle: (update) => dispatchTelegramUpdate(this.updateTarget(this.chatHost("poll")), update),
    });
  }

  /** The bot's username (configured, else from `getMe` once known, else `"bot"`). */
  get userName(): string {
    return this.knownUserName ?? "bot";
  }

  /** The bot's numeric id: the part of the token before `:` (stable across token rotation). */
  get botUserId(): string | undefined {
    const token = this.options.botToken;
    return typeof token === "string" ? token.split(":")[0] : undefined;
  }

  /**
   * Keeps the host; in `polling` mode starts polling, and in `auto` mode polls when Telegram has
   * no webhook URL for the bot (`getWebhookInfo`), staying on webhooks when it has one or the
   * check fails.
   */
  async initialize(chat: ChatHost): Promise<void> {
    this.host = chat;
    if (this.options.mode === "polling") {
      await this.startPolling();
    } else if (this.options.mode === "auto" && !isServerlessRuntime(process.env)) {
      const info = await this.api
        .call<{ url?: string }>("getWebhookInfo")
        .catch(() => ({ url: "unknown" }));
      if (!info.url) await this.startPolling();
    }
  }

  handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    return handleTelegramWebhook(
      {
        options: this.options,
        host: this.host,
        logger: () => this.logger(),
        updateTarget: (host) => this.updateTarget(host),
      },
      request,
      options,
    );
  }

  /** Starts long polling (removing a webhook first unless `longPolling.deleteWebhook` is false). */
  async listen(): Promise<void> {
    await this.startPolling();
  }

  /** True while this instance holds the polling lease and polls. */
  get isPolling(): boolean {
    return this.poller.isPolling;
  }

  /**
   * Stops polling. `releaseLease: false` leaves the lease to expire as a crashed instance's
   * would — for failover drills; normally the lease is released at once.
   */
  stopPolling(options: { releaseLease?: boolean } = {}): Promise<void> {
    return this.poller.stop(options);
  }

  async disconnect(): Promise<void> {
    await this.poller.stop();
  }

  /** Points Telegram's webhook at `url`, with the configured secret token. */
  async setWebhook(url: string, options: { allowedUpdates?: readonly string[] } = {}) {
    await this.api.call("setWebhook", {
      url,
      ...(this.options.secretToken === undefined ? {} : { secret_token: this.options.secretToken }),
      ...(options.allowedUpdates === undefined ? {} : { allowed_updates: options.allowedUpdates }),
    });
  }

  /** Removes the webhook (Telegram then allows `getUpdates`). */
  async resetWebhook(options: { dropPendingUpdates?: boolean } = {}): Promise<void> {
    await this.api.call("deleteWebhook", {
      drop_pending_updates: options.dropPendingUpdates === true,
    });
  }

  /** Calls `handler` when the bot's membership of a chat changes (`my_chat_member`). */
  onChatMemberUpdate(handler: TelegramEventHandler<TelegramChatMemberEvent>): void {
    this.memberHandlers.push(handler);
  }

  encodeThreadId(data: TelegramThreadData): string {
    return encodeTelegramThreadId(data);
  }

  decodeThreadId(threadId: string): TelegramThreadData {
    return decodeTelegramThreadId(threadId);
  }

  channelIdFromThreadId(threadId: string): string {
    return telegramChannelIdFromThreadId(threadId);
  }

  /** Private chats are direct conversations; a forum topic never is. */
  isDM(threadId: string): boolean {
    const data = decodeTelegramThreadId(threadId);
    return data.messageThreadId === undefined && isTelegramPrivateChat(data.chatId);
  }

  matchesUserId(userId: string): boolean {
    return /^\d+$/.test(userId);
  }

  parseMessage(raw: unknown): Message {
    const update = raw as { update_id?: unknown; message?: unknown };
    const message =
      typeof update?.update_id === "number" ? toTelegramUpdate(raw).message : (raw as never);
    if (message === undefined)
      throw new TelegramApiError("parseMessage", { errorCode: 400, description: "no message" });
    return messageFromTelegram(message, {
      bot: { userName: this.knownUserName, userId: this.botUserId },
      withFetcher: (attachment) => this.rehydrateAttachment(attachment),
    });
  }

  /** Gives a Telegram file its lazy fetcher back: `getFile` + download, only when read. */
  rehydrateAttachment(attachment: Attachment): Attachment {
    const fileId = attachment.fetchMetadata?.telegramFileId;
    if (fileId === undefined) return { ...attachment };
    return {
      ...attachment,
      fetchData: async () => new Uint8Array(await this.api.downloadFile(fileId)),
    };
  }

  async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    return this.send(decodeTelegramThreadId(threadId), threadId, message);
  }

  /** Posts into a chat given by channel id (`telegram:{chatId}[:{topic}]` or a bare chat id). */
  async postChannelMessage(
    channelId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const data = telegramThreadDataOf(channelId);
    return this.send(data, encodeTelegramThreadId(data), message);
  }

  /** Replies to one message: Telegram shows the quote (`reply_parameters`). */
  async reply(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const data = decodeTelegramThreadId(threadId);
    const rendered = renderTelegramPost(message, this.callbackEncoder());
    await this.storeCallbacks();
    const [first, ...rest] = rendered.parts;
    if (first === undefined || rendered.files.length + rendered.attachments.length > 0) {
      return this.send(data, threadId, message);
    }
    const sent = await sendWithFallback(first, (text, parseMode) =>
      this.api.call<TelegramSentMessage>("sendMessage", {
        ...chatParams(data),
        text,
        ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
        reply_parameters: { message_id: telegramMessageIdOf(messageId) },
        ...(rest.length === 0 && rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
      }),
    );
    if (rest.length > 0) {
      await sendTelegramPost(this.api, data, { ...rendered, parts: rest });
    }
    return this.raw(sent, threadId);
  }

  async editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const data = decodeTelegramThreadId(threadId);
    // One message holds at most 4 096 characters: an edit cannot add messages, so it is cut.
    const rendered = renderTelegramPost(message, this.callbackEncoder(), { split: false });
    await this.storeCallbacks();
    const part = rendered.parts[0];
    if (part === undefined) {
      throw new TelegramApiError("editMessageText", {
        errorCode: 400,
        description: "message text is empty",
      });
    }
    const mode = part.parseMode === undefined ? "plain" : "MarkdownV2";
    const text = truncateForTelegram(part.text, TELEGRAM_MESSAGE_LIMIT, mode);
    try {
      const edited = await sendWithFallback({ ...part, text }, (body, parseMode) =>
        this.api.call<TelegramSentMessage | true>("editMessageText", {
          chat_id: data.chatId,
          message_id: telegramMessageIdOf(messageId),
          text: body,
          ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
          ...(rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
        }),
      );
      if (edited === true) return { id: messageId, threadId };
      return this.raw(edited, threadId);
    } catch (error) {
      // Editing to the same content is Telegram's 400 "message is not modified": the message
      // already shows what was asked (a stream's last edit often repeats the previous one).
      if (error instanceof TelegramApiError && /message is not modified/i.test(error.description)) {
        return { id: messageId, threadId };
      }
      throw error;
    }
  }

  async deleteMessage(threadId: string, messageId: string): Promise<void> {
    const data = decodeTelegramThreadId(threadId);
    await this.api.call("deleteMessage", {
      chat_id: data.chatId,
      message_id: telegramMessageIdOf(messageId),
    });
  }

  /** Sets the bot's reaction (Telegram keeps one reaction per bot and message: this replaces it). */
  async addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    const data = decodeTelegramThreadId(threadId);
    await this.api.call("setMessageReaction", {
      chat_id: data.chatId,
      message_id: telegramMessageIdOf(messageId),
      reaction: [{ type: "emoji", emoji: defaultEmojiResolver.toGChat(emoji) }],
    });
  }

  /** Removes the bot's reaction from the message. */
  async removeReaction(threadId: string, messageId: string): Promise<void> {
    const data = decodeTelegramThreadId(threadId);
    await this.api.call("setMessageReaction", {
      chat_id: data.chatId,
      message_id: telegramMessageIdOf(messageId),
      reaction: [],
    });
  }

  /** Shows "typing…" for about five seconds (Telegram has no status text). */
  async startTyping(threadId: string): Promise<void> {
    await this.api.call("sendChatAction", {
      ...chatParams(decodeTelegramThreadId(threadId)),
      action: "typing",
    });
  }

  /** The Bot API cannot read history; the core serves `thread.messages` from the State. */
  async fetchMessages(): Promise<FetchMessagesResult> {
    throw new NotSupportedError(this.name, "history");
  }

  /** A user's private chat with the bot is the chat whose id is the user's id. */
  async openDM(userId: string): Promise<string> {
    return encodeTelegramThreadId({ chatId: String(userId) });
  }

  /** A user, by `getChat` on their private chat; `null` for groups, channels and unknown ids. */
  async getUser(userId: string): Promise<UserInfo | null> {
    if (!/^\d+$/.test(userId)) return null;
    try {
      const chat = await this.api.call<{
        id: number;
        type: string;
        first_name?: string;
        last_name?: string;
        username?: string;
      }>("getChat", { chat_id: userId });
      if (chat.type !== "private") return null;
      const fullName = [chat.first_name, chat.last_name].filter(Boolean).join(" ");
      return {
        userId: String(chat.id),
        userName: chat.username ?? (fullName || String(chat.id)),
        ...(fullName === "" ? {} : { fullName }),
        isBot: false,
      };
    } catch (error) {
      this.logger().debug("telegram: getUser failed", { userId, error });
      return null;
    }
  }

  /** `@username` where the bot has one for the user is unknown: a `tg://user` link names anyone. */
  mentionUser(userId: string): string {
    return `[user](tg://user?id=${userId})`;
  }

  private pendingCallbacks = new Map<string, TelegramCallbackPayload>();

  private callbackEncoder() {
    return (actionId: string, value: string | undefined) => {
      try {
        return encodeTelegramCallbackData(actionId, value);
      } catch {
        const key = newStoredCallbackData();
        this.pendingCallbacks.set(key, { actionId, value });
        return key;
      }
    };
  }

  /** Keeps payloads too long for `callback_data` in the State, before the message shows them. */
  private async storeCallbacks(): Promise<void> {
    if (this.pendingCallbacks.size === 0) return;
    const pending = [...this.pendingCallbacks];
    this.pendingCallbacks.clear();
    const state = this.chatHost("post a card with long button values").getState();
    for (const [key, payload] of pending) {
      await state.set(
        `telegram:callback:${key}`,
        { ...payload, value: payload.value ?? null },
        STORED_CALLBACK_TTL_MS,
      );
    }
  }

  private async decodeCallback(data: string | undefined): Promise<TelegramCallbackPayload> {
    if (data?.startsWith(STORED_CALLBACK_PREFIX)) {
      const stored = (await this.chatHost("read a button")
        .getState()
        .get(`telegram:callback:${data}`)) as {
        actionId?: string;
        value?: string | null;
      } | null;
      if (stored?.actionId !== undefined) {
        return { actionId: stored.actionId, value: stored.value ?? undefined };
      }
      this.logger().warn("telegram: a button's stored payload expired", { data });
    }
    return decodeTelegramCallbackData(data);
  }

  private async send(data: TelegramThreadData, threadId: string, message: AdapterPostableMessage) {
    const rendered = renderTelegramPost(message, this.callbackEncoder());
    await this.storeCallbacks();
    const sent = await sendTelegramPost(this.api, data, rendered);
    const last = sent[sent.length - 1];
    if (last === undefined)
      throw new TelegramApiError("sendMessage", {
        errorCode: 400,
        description: "nothing was sent",
      });
    return this.raw(last, threadId, sent);
  }

  private raw(
    sent: TelegramSentMessage,
    threadId: string,
    all?: TelegramSentMessage[],
  ): RawMessage {
    return {
      id: encodeTelegramMessageId(sent.chat.id, sent.message_id),
      threadId,
      raw: all ?? sent,
    };
  }

  private async startPolling(): Promise<void> {
    this.chatHost("start polling");
    if (this.options.longPolling.deleteWebhook) {
      await this.api.call("deleteWebhook", { drop_pending_updates: false });
    }
    this.poller.start();
  }

  /** The bot's identity: username and id, fetched once with `getMe` when not configured. */
  private async identity(): Promise<TelegramBotIdentity & { scope: string }> {
    const fromToken = this.botUserId;
    if (this.knownUserName !== undefined && fromToken !== undefined) {
      return { userName: this.knownUserName, userId: fromToken, scope: fromToken };
    }
    this.me ??= this.api
      .call<{ id: number; username?: string }>("getMe")
      .catch((error: unknown) => {
        this.me = undefined; // a later update tries again
        throw error;
      });
    const me = await this.me;
    this.knownUserName ??= me.username;
    return { userName: this.knownUserName, userId: String(me.id), scope: String(me.id) };
  }

  private updateTarget(host: ChatHost): TelegramUpdateTarget {
    return {
      adapter: this,
      host,
      allowedUserIds: this.options.allowedUserIds,
      logger: () => this.logger(),
      identity: () => this.identity(),
      withFetcher: (attachment) => this.rehydrateAttachment(attachment),
      decodeCallback: (data) => this.decodeCallback(data),
      answerCallback: async (queryId) => {
        await this.api.call("answerCallbackQuery", { callback_query_id: queryId });
      },
      startTyping: (threadId) => this.startTyping(threadId),
      chatMember: async (event) => {
        for (const handler of this.memberHandlers) {
          try {
            await handler(event);
          } catch (error) {
            this.logger().error("telegram: chat member handler failed", { error });
          }
        }
      },
    };
  }

  private logger(): Logger {
    return this.options.logger ?? this.host?.getLogger("telegram") ?? silentLogger;
  }

  private chatHost(step: string): ChatHost {
    if (this.host === undefined) {
      throw new ConfigError([`telegram adapter: initialize the Chat before you ${step}`]);
    }
    return this.host;
  }
}
