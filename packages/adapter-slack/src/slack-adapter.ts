import {
  type Adapter,
  type AdapterPostableMessage,
  type ChannelInfo,
  type ChatHost,
  defineCapabilities,
  type EphemeralMessage,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type ListThreadsOptions,
  type ListThreadsResult,
  type Logger,
  type Message,
  type ModalElement,
  type RawMessage,
  type ScheduledMessage,
  type ScheduleOptions,
  type StreamChunk,
  type StreamOptions,
  silentLogger,
  type ThreadInfo,
  type UserInfo,
  type WebhookOptions,
} from "@baton/core";
import type { WebClient } from "@slack/web-api";
import type { Root } from "mdast";
import { SlackApi, type SlackResponse } from "./api.js";
import {
  channelOf,
  fetchSlackChannelInfo,
  fetchSlackThreadInfo,
  listSlackThreads,
} from "./channels.js";
import { SlackApiError } from "./errors.js";
import { SlackFormatConverter } from "./format.js";
import { fetchSlackMessages } from "./history.js";
import { messageFromSlack, type SlackSelf, slackThreadIdOf } from "./message.js";
import { streamNatively } from "./native-stream.js";
import type { ResolvedSlackOptions } from "./options.js";
import type { SlackEvent } from "./parse.js";
import {
  deleteSlackMessage,
  editSlackMessage,
  postSlackMessage,
  reactToSlackMessage,
} from "./slack-messages.js";
import { openSlackModal, updateSlackModal } from "./slack-modal.js";
import { postSlackEphemeral, scheduleSlackMessage } from "./slack-schedule.js";
import { fetchSlackUser } from "./slack-user.js";
import { SlackSocketConnection } from "./socket.js";
import {
  decodeSlackThreadId,
  encodeSlackThreadId,
  isSlackDMChannel,
  SLACK_ADAPTER_NAME,
  type SlackThreadData,
  slackChannelIdFromThreadId,
  slackTsOfMessageId,
} from "./thread-id.js";
import { handleSlackWebhook } from "./webhook.js";

const SLACK_CONVERTER = new SlackFormatConverter();

import type { SlackWebhookTarget } from "./webhook-target.js";

type Json = Record<string, unknown>;

/**
 * Slack through its own libraries (upstream `@chat-adapter/slack`'s shape): webhooks verified
 * with bolt's request check, every outbound call through `@slack/web-api`'s WebClient. Threads
 * are `slack:{channel}:{threadTs}`; cards are Block Kit, modals are views.
 */
export class SlackAdapter implements Adapter<SlackThreadData> {
  readonly name = SLACK_ADAPTER_NAME;
  readonly userName: string;
  readonly capabilities = defineCapabilities({
    streaming: "native",
    cards: true,
    modals: true,
    ephemeral: true,
    scheduling: true,
    reactions: true,
    editMessage: true,
    deleteMessage: true,
    typing: true,
    history: true,
    openDM: true,
    getUser: true,
    replies: true,
  });
  /**
   * Slack tolerates about one edit per second per message (chat.update's rate tier); the same
   * pace spaces `chat.appendStream` calls of a native stream.
   */
  readonly streamingUpdateIntervalMs = 1_000;

  private host: ChatHost | undefined;
  private ownUserId: string | undefined;
  private ownBotId: string | undefined;
  private team = "";
  protected readonly api: SlackApi;
  private readonly socket: SlackSocketConnection | undefined;
  private nativeStreamingOff = false;

  constructor(readonly options: ResolvedSlackOptions) {
    this.userName = options.userName;
    this.ownUserId = options.botUserId;
    this.api = new SlackApi({ ...options, logger: () => this.logger() });
    this.socket =
      options.mode === "socket" && options.appToken !== undefined
        ? new SlackSocketConnection(
            { appToken: options.appToken, apiUrl: options.apiUrl, logger: () => this.logger() },
            () => this.webhookTarget(),
          )
        : undefined;
  }

  /** The bot's user id (`U…`): from the config, else `auth.test` at `initialize`. */
  get botUserId(): string | undefined {
    return this.ownUserId;
  }

  /** The `@slack/web-api` WebClient the adapter calls Slack with (upstream's `client`). */
  get client(): WebClient {
    return this.api.webClient;
  }

  async initialize(chat: ChatHost): Promise<void> {
    this.host = chat;
    await this.identify();
    // Socket mode connects once the bot knows who it is, so its first event is routed right.
    await this.socket?.start();
  }

  /** Socket mode: connects (idempotent; `initialize` already does). */
  async listen(): Promise<void> {
    await this.socket?.start();
  }

  /** Socket mode: closes the connection after the envelopes in flight were handled. */
  async disconnect(): Promise<void> {
    await this.socket?.stop();
  }

  private async identify(): Promise<void> {
    if (this.options.botToken === undefined) return;
    if (this.ownUserId !== undefined && this.team !== "") return;
    let auth: SlackResponse;
    try {
      auth = await this.api.call("auth.test");
    } catch (error) {
      // Upstream's rule: a failed look-up does not stop the Chat; the bot's own messages are
      // then recognized by their bot id only once Slack names it.
      this.logger().warn("slack: auth.test failed; botUserId stays unknown", { error });
      return;
    }
    this.ownUserId ??= typeof auth.user_id === "string" ? auth.user_id : undefined;
    this.ownBotId = typeof auth.bot_id === "string" ? auth.bot_id : undefined;
    this.team = typeof auth.team_id === "string" ? auth.team_id : "";
  }

  /** True when the adapter receives events over Socket Mode instead of webhooks. */
  get isSocketMode(): boolean {
    return this.options.mode === "socket";
  }

  /** The Events API webhook; in socket mode it answers 405 (events arrive over the socket). */
  async handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    if (this.isSocketMode) {
      return new Response(
        JSON.stringify({
          ok: false,
          code: "METHOD_NOT_ALLOWED",
          error: "the adapter runs in socket mode",
        }),
        { status: 405, headers: { "content-type": "application/json" } },
      );
    }
    return handleSlackWebhook(this.webhookTarget(), request, options);
  }

  /** What the webhook and socket mode route events with. */
  protected webhookTarget(): SlackWebhookTarget {
    return {
      adapter: this,
      host: this.host,
      options: this.options,
      logger: () => this.logger(),
      self: () => this.self(),
      teamId: () => this.team,
      threadOfMessage: (channel, ts) => this.threadOfMessage(channel, ts),
    };
  }

  encodeThreadId(data: SlackThreadData): string {
    return encodeSlackThreadId(data);
  }

  decodeThreadId(threadId: string): SlackThreadData {
    return decodeSlackThreadId(threadId);
  }

  channelIdFromThreadId(threadId: string): string {
    return slackChannelIdFromThreadId(threadId);
  }

  isDM(threadId: string): boolean {
    return isSlackDMChannel(decodeSlackThreadId(threadId).channel);
  }

  matchesUserId(userId: string): boolean {
    return /^[UW][A-Z0-9]{2,}$/.test(userId);
  }

  mentionUser(userId: string): string {
    return `<@${userId}>`;
  }

  /** An mdast tree as Slack mrkdwn (upstream's `renderFormatted`). */
  renderFormatted(ast: Root): string {
    return SLACK_CONVERTER.fromAst(ast);
  }

  /** A Slack message object (an event, or a history item with `channel`) as a Baton message. */
  parseMessage(raw: unknown): Message {
    const event = raw as SlackEvent;
    return messageFromSlack(event, {
      team: event.team ?? this.team,
      channel: event.channel ?? "",
      self: this.self(),
    });
  }

  async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    return postSlackMessage(this.api, this.team, threadId, message);
  }

  async editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    return editSlackMessage(this.api, this.team, threadId, messageId, message);
  }

  async deleteMessage(threadId: string, messageId: string): Promise<void> {
    await deleteSlackMessage(this.api, threadId, messageId);
  }

  async addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    await reactToSlackMessage(this.api, "reactions.add", threadId, messageId, emoji);
  }

  async removeReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    await reactToSlackMessage(this.api, "reactions.remove", threadId, messageId, emoji);
  }

  /**
   * Slack's assistant status line (`assistant.threads.setStatus`), shown under a thread. The top
   * level of a DM has no thread to show it in, so there the call is logged and skipped; a failed
   * call is logged, never thrown (upstream's rule).
   */
  async startTyping(threadId: string, status?: string): Promise<void> {
    const { channel, threadTs } = decodeSlackThreadId(threadId);
    if (!threadTs) {
      this.logger().debug("slack: no typing status outside a thread", { threadId });
      return;
    }
    try {
      await this.api.call("assistant.threads.setStatus", {
        channel_id: channel,
        thread_ts: threadTs,
        status: status ?? "is typing...",
      });
    } catch (error) {
      // A status line is a courtesy: its failure (a channel without the assistant feature) must
      // not fail the handler that asked for it.
      this.logger().warn("slack: assistant.threads.setStatus failed", { error, threadId });
    }
  }

  async fetchMessages(
    threadId: string,
    options: FetchMessagesOptions = {},
  ): Promise<FetchMessagesResult> {
    return fetchSlackMessages(this.api, decodeSlackThreadId(threadId), options, (item, channel) =>
      this.parseMessage({ ...item, channel }),
    );
  }

  async fetchChannelMessages(
    channelId: string,
    options: FetchMessagesOptions = {},
  ): Promise<FetchMessagesResult> {
    const { channel } = decodeSlackThreadId(channelId);
    return fetchSlackMessages(this.api, { channel, threadTs: "" }, options, (item) =>
      this.parseMessage({ ...item, channel }),
    );
  }

  /** Native streaming in threads (see `streamNatively`); `null` elsewhere, so the core edits. */
  stream(
    threadId: string,
    textStream: AsyncIterable<string | StreamChunk>,
    options?: StreamOptions,
  ): Promise<RawMessage | null> {
    return streamNatively(
      {
        api: this.api,
        clock: this.options.clock,
        logger: this.logger(),
        teamId: this.team,
        appendIntervalMs: options?.updateIntervalMs ?? this.streamingUpdateIntervalMs,
        nativeOff: () => this.nativeStreamingOff,
        turnNativeOff: () => {
          this.nativeStreamingOff = true;
        },
      },
      threadId,
      textStream,
      options,
    );
  }

  /** Posts at the top level of a channel (`slack:{channel}`). */
  async postChannelMessage(
    channelId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const channel = channelOf(channelId, "post slack channel message");
    return this.postMessage(encodeSlackThreadId({ channel, threadTs: "" }), message);
  }

  /** A channel's name, DM flag, member count and visibility (`conversations.info`). */
  async fetchChannelInfo(channelId: string): Promise<ChannelInfo> {
    return fetchSlackChannelInfo(this.api, channelOf(channelId, "fetch slack channel info"));
  }

  /** A thread's metadata: the id, and its channel's info. */
  async fetchThread(threadId: string): Promise<ThreadInfo> {
    return fetchSlackThreadInfo(this.api, threadId);
  }

  /** One page of a channel's threads (top-level messages with replies), newest first. */
  async listThreads(
    channelId: string,
    options: ListThreadsOptions = {},
  ): Promise<ListThreadsResult> {
    const channel = channelOf(channelId, "list slack threads");
    return listSlackThreads(this.api, channel, options, (item) =>
      this.parseMessage({ ...item, channel }),
    );
  }

  async reply(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const { channel, threadTs } = decodeSlackThreadId(threadId);
    const parent = threadTs || slackTsOfMessageId(messageId);
    return this.postMessage(encodeSlackThreadId({ channel, threadTs: parent }), message);
  }

  async openDM(userId: string): Promise<string> {
    const answer = await this.api.call("conversations.open", { users: userId });
    const channel = (answer.channel as Json | undefined)?.id;
    if (typeof channel !== "string") {
      throw new SlackApiError(
        "conversations.open",
        "conversations.open returned no channel",
        undefined,
      );
    }
    return encodeSlackThreadId({ channel, threadTs: "" });
  }

  async getUser(userId: string): Promise<UserInfo | null> {
    return fetchSlackUser(this.api, this.logger(), userId);
  }

  async postEphemeral(
    threadId: string,
    userId: string,
    message: AdapterPostableMessage,
  ): Promise<EphemeralMessage> {
    return postSlackEphemeral(this.api, threadId, userId, message);
  }

  async scheduleMessage(
    threadId: string,
    message: AdapterPostableMessage,
    options: ScheduleOptions,
  ): Promise<ScheduledMessage> {
    return scheduleSlackMessage(this.api, threadId, message, options);
  }

  async openModal(
    triggerId: string,
    modal: ModalElement,
    contextId?: string,
  ): Promise<{ viewId: string }> {
    return openSlackModal(this.api, triggerId, modal, contextId);
  }

  /** Replaces an open view (`views.update`). */
  async updateModal(
    viewId: string,
    modal: ModalElement,
    contextId?: string,
  ): Promise<{ viewId: string }> {
    return updateSlackModal(this.api, viewId, modal, contextId);
  }

  private async threadOfMessage(channel: string, ts: string): Promise<string> {
    const answer = await this.api.call("conversations.replies", { channel, ts, limit: 1 });
    const first = (answer.messages as Json[] | undefined)?.[0];
    const parent = typeof first?.thread_ts === "string" ? first.thread_ts : undefined;
    return slackThreadIdOf(channel, ts, parent);
  }

  protected self(): SlackSelf {
    return { botUserId: this.ownUserId, botId: this.ownBotId, userName: this.userName };
  }

  protected logger(): Logger {
    return this.options.logger ?? this.host?.getLogger("slack") ?? silentLogger;
  }
}
