import {
  type Adapter,
  type AdapterPostableMessage,
  type Attachment,
  type ChannelInfo,
  type ChatHost,
  ConfigError,
  defaultEmojiResolver,
  type FetchMessagesResult,
  type Logger,
  type Message,
  NotSupportedError,
  type RawMessage,
  silentLogger,
  type ThreadInfo,
  type UserInfo,
  type WebhookOptions,
} from "@baton/core";
import { TelegramApi } from "./api.js";
import { TelegramIdentity } from "./bot-identity.js";
import { TelegramCallbackStore } from "./callback-store.js";
import { TELEGRAM_CAPABILITIES } from "./capabilities.js";
import { fetchTelegramChannelInfo, fetchTelegramThread, getTelegramUser } from "./chat-info.js";
import {
  deleteTelegramMessage,
  editTelegramMessage,
  replyTelegramMessage,
  setTelegramReaction,
} from "./edit.js";
import { TelegramApiError } from "./errors.js";
import type { TelegramChatMemberEvent, TelegramEventHandler } from "./events.js";
import { messageFromTelegram } from "./message.js";
import type { ResolvedTelegramOptions } from "./options.js";
import { toTelegramUpdate } from "./parse.js";
import { isServerlessRuntime, TelegramPoller } from "./polling.js";
import {
  chatParams,
  renderTelegramPost,
  sendTelegramPost,
  type TelegramSentMessage,
} from "./post.js";
import { telegramStreamFloorMs } from "./stream-pace.js";
import {
  decodeTelegramThreadId,
  encodeTelegramMessageId,
  encodeTelegramThreadId,
  isTelegramPrivateChat,
  TELEGRAM_ADAPTER_NAME,
  type TelegramThreadData,
  telegramChannelIdFromThreadId,
  telegramThreadDataOf,
} from "./thread-id.js";
import { dispatchTelegramUpdate, type TelegramUpdateTarget } from "./updates.js";
import { handleTelegramWebhook } from "./webhook.js";
import {
  resetTelegramWebhook,
  setTelegramWebhook,
  type TelegramWebhookRegistration,
  telegramHasWebhook,
} from "./webhook-registration.js";

/**
 * Telegram through the Bot API (upstream `@chat-adapter/telegram`'s shape), on telegraf's
 * `Telegram` client. One thread per chat, and one per forum topic; the default lock is per
 * thread, so topics of one forum run in parallel (ADR 0019). Updates arrive by webhook or by long
 * polling (one instance at a time, through a lease in the State). Telegram keeps no history a
 * bot can read, so the core keeps it (`persistThreadHistory`).
 */
export class TelegramAdapter implements Adapter<TelegramThreadData> {
  readonly name = TELEGRAM_ADAPTER_NAME;
  readonly capabilities = TELEGRAM_CAPABILITIES;
  readonly persistThreadHistory = true;
  /** The configured `streamingEditIntervalMs`: the default pace, when the Chat sets none. */
  readonly streamingUpdateIntervalMs: number | undefined;
  readonly lockScope = "thread" as const;

  private host: ChatHost | undefined;
  private readonly api: TelegramApi;
  private readonly poller: TelegramPoller;
  private readonly memberHandlers: TelegramEventHandler<TelegramChatMemberEvent>[] = [];
  private readonly bot: TelegramIdentity;
  private readonly callbacks = new TelegramCallbackStore(() =>
    this.chatHost("post or read buttons with long payloads").getState(),
  );

  constructor(readonly options: ResolvedTelegramOptions) {
    this.streamingUpdateIntervalMs = options.streamingEditIntervalMs;
    this.api = new TelegramApi({ ...options, logger: () => this.logger() });
    this.bot = new TelegramIdentity(this.api, options.userName, () => this.botUserId);
    this.poller = new TelegramPoller({
      api: this.api,
      state: () => this.chatHost("poll").getState(),
      settings: options.longPolling,
      clock: options.clock,
      logger: () => this.logger(),
      scope: async () => (await this.bot.resolve()).scope,
      handle: (update) => dispatchTelegramUpdate(this.updateTarget(this.chatHost("poll")), update),
    });
  }

  /** The bot's username (configured, else from `getMe` once known, else `"bot"`). */
  get userName(): string {
    return this.bot.userName ?? "bot";
  }

  /** The bot's numeric id: the part of the token before `:` (stable across token rotation). */
  get botUserId(): string | undefined {
    const token = this.options.botToken;
    // Only a well-formed token's numeric prefix: a malformed one must never end up in State keys.
    const match = typeof token === "string" ? /^(\d+):/.exec(token) : null;
    return match?.[1];
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
      if (!(await telegramHasWebhook(this.api))) await this.startPolling();
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
  async setWebhook(url: string, options: TelegramWebhookRegistration = {}): Promise<void> {
    await setTelegramWebhook(this.api, this.options.secretToken, url, options);
  }

  /** Removes the webhook (Telegram then allows `getUpdates`). */
  async resetWebhook(options: { dropPendingUpdates?: boolean } = {}): Promise<void> {
    await resetTelegramWebhook(this.api, options);
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

  /** Telegram's flood limit for the thread's chat type, or `streamingEditIntervalMs`. */
  minStreamingUpdateIntervalMs(threadId: string): number {
    return telegramStreamFloorMs(threadId, this.options.streamingEditIntervalMs);
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
      bot: { userName: this.bot.userName, userId: this.botUserId },
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
    const rendered = renderTelegramPost(message, this.callbacks.encoder());
    await this.callbacks.flush();
    const sent = await replyTelegramMessage(
      this.api,
      decodeTelegramThreadId(threadId),
      messageId,
      rendered,
    );
    return this.raw(sent, threadId);
  }

  /** Replaces a message's text (and buttons); longer than 4 096 characters, it is cut. */
  async editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const rendered = renderTelegramPost(message, this.callbacks.encoder(), { split: false });
    await this.callbacks.flush();
    const edited = await editTelegramMessage(
      this.api,
      decodeTelegramThreadId(threadId),
      messageId,
      rendered,
    );
    return edited === undefined ? { id: messageId, threadId } : this.raw(edited, threadId);
  }

  async deleteMessage(threadId: string, messageId: string): Promise<void> {
    await deleteTelegramMessage(this.api, decodeTelegramThreadId(threadId), messageId);
  }

  /** Sets the bot's reaction (Telegram keeps one reaction per bot and message: this replaces it). */
  async addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    const character = defaultEmojiResolver.toGChat(emoji);
    await setTelegramReaction(this.api, decodeTelegramThreadId(threadId), messageId, character);
  }

  /** Removes the bot's reaction from the message. */
  async removeReaction(threadId: string, messageId: string): Promise<void> {
    await setTelegramReaction(this.api, decodeTelegramThreadId(threadId), messageId, null);
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
  getUser(userId: string): Promise<UserInfo | null> {
    return getTelegramUser(this.api, userId, this.logger());
  }

  /** A chat's name, member count and type, for `channel.fetchMetadata()`. */
  fetchChannelInfo(channelId: string): Promise<ChannelInfo> {
    return fetchTelegramChannelInfo(this.api, channelId);
  }

  /** A thread's chat name and topic, for `thread.fetchMetadata()`. */
  fetchThread(threadId: string): Promise<ThreadInfo> {
    return fetchTelegramThread(this.api, threadId);
  }

  /** `@username` where the bot has one for the user is unknown: a `tg://user` link names anyone. */
  mentionUser(userId: string): string {
    return `[user](tg://user?id=${userId})`;
  }

  private async send(data: TelegramThreadData, threadId: string, message: AdapterPostableMessage) {
    const rendered = renderTelegramPost(message, this.callbacks.encoder());
    await this.callbacks.flush();
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
      await resetTelegramWebhook(this.api);
    }
    this.poller.start();
  }

  private updateTarget(host: ChatHost): TelegramUpdateTarget {
    return {
      adapter: this,
      host,
      allowedUserIds: this.options.allowedUserIds,
      logger: () => this.logger(),
      identity: () => this.bot.resolve(),
      withFetcher: (attachment) => this.rehydrateAttachment(attachment),
      decodeCallback: (data) =>
        this.callbacks.decode(data, (expired) => {
          this.logger().warn("telegram: a button's stored payload expired", { data: expired });
        }),
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
