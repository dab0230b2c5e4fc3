import {
  type Adapter,
  type AdapterPostableMessage,
  type ChannelInfo,
  defineCapabilities,
  type EphemeralMessage,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type ListThreadsOptions,
  type ListThreadsResult,
  type Message,
  type ModalElement,
  type RawMessage,
  type ScheduledMessage,
  type ScheduleOptions,
  type StreamChunk,
  type StreamOptions,
  type ThreadInfo,
  type UserInfo,
} from "@baton/core";
import {
  channelOf,
  fetchSlackChannelInfo,
  fetchSlackThreadInfo,
  listSlackThreads,
} from "./channels.js";
import { decodeSlackEphemeralMessageId } from "./ephemeral-id.js";
import { fetchSlackMessage, fetchSlackMessages } from "./history.js";
import { SlackAdapterInstalls } from "./slack-adapter-installs.js";
import {
  publishSlackHomeView,
  type SlackSuggestedPrompt,
  setSlackAssistantStatus,
  setSlackAssistantTitle,
  setSlackSuggestedPrompts,
} from "./slack-assistant.js";
import { openSlackDM, startSlackTyping } from "./slack-conversations.js";
import { deleteSlackEphemeral, editSlackEphemeral } from "./slack-ephemeral.js";
import {
  deleteSlackMessage,
  editSlackMessage,
  postSlackMessage,
  reactToSlackMessage,
} from "./slack-messages.js";
import { openSlackModal, updateSlackModal } from "./slack-modal.js";
import { postSlackEphemeral, scheduleSlackMessage } from "./slack-schedule.js";
import { SlackNativeStreams } from "./slack-stream.js";
import {
  decodeSlackThreadId,
  encodeSlackThreadId,
  type SlackThreadData,
  slackTsOfMessageId,
} from "./thread-id.js";
import { currentSlackToken } from "./token-context.js";
import { SlackUserNames } from "./user-names.js";
import type { SlackWebhookTarget } from "./webhook-target.js";

/**
 * Slack through its own libraries (upstream `@chat-adapter/slack`'s shape): webhooks verified
 * with bolt's request check, every outbound call through `@slack/web-api`'s WebClient. Threads
 * are `slack:{channel}:{threadTs}`; cards are Block Kit, modals are views.
 */
export class SlackAdapter extends SlackAdapterInstalls implements Adapter<SlackThreadData> {
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

  /** User-name resolution: inbound mentions from cache, outbound `@name` through the index. */
  protected readonly names = new SlackUserNames({
    api: this.api,
    clock: this.options.clock,
    logger: () => this.logger(),
    host: () => this.host,
    team: () => this.namesTeam(),
    scope: () => this.userCacheScope(),
  });

  /** `adapter.stream`: native streaming with the assistant options (see `SlackNativeStreams`). */
  private readonly streams = new SlackNativeStreams({
    api: this.api,
    clock: this.options.clock,
    logger: () => this.logger(),
    assistant: this.options.assistant,
    appendIntervalMs: this.streamingUpdateIntervalMs,
    team: () => this.currentTeam(),
    resolveText: (text, threadId) => this.names.resolveText(text, threadId),
  });

  /** What the webhook and socket mode route events with. */
  protected webhookTarget(): SlackWebhookTarget {
    return {
      adapter: this,
      host: this.host,
      options: this.options,
      api: this.api,
      names: this.names,
      logger: () => this.logger(),
      self: () => this.self(),
      teamId: () => this.team,
      threadOfMessage: (channel, ts) => this.threadOfMessage(channel, ts),
    };
  }

  /**
   * The workspace outbound message ids are encoded with: the delivery's workspace in a
   * multi-workspace app, else the one `auth.test` named.
   */
  private currentTeam(): string {
    return currentSlackToken()?.teamId ?? this.team;
  }

  /**
   * The workspace user names are indexed under: the delivery's, else the installation
   * `withBotToken` was given (a workspace install's id is its team id), else `auth.test`'s.
   */
  private namesTeam(): string {
    const context = currentSlackToken();
    return context?.teamId ?? context?.installationId ?? this.team;
  }

  async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    const resolved = await this.names.resolvePostable(message, threadId);
    return postSlackMessage(this.api, this.currentTeam(), threadId, resolved);
  }

  /** Replaces a message; an ephemeral one (its id from an action) through its `response_url`. */
  async editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const resolved = await this.names.resolvePostable(message, threadId);
    const ephemeral = decodeSlackEphemeralMessageId(messageId);
    if (ephemeral !== null) {
      return editSlackEphemeral(ephemeral, messageId, threadId, resolved, this.options.apiUrl);
    }
    return editSlackMessage(this.api, this.currentTeam(), threadId, messageId, resolved);
  }

  /** Deletes a message; an ephemeral one (its id from an action) through its `response_url`. */
  async deleteMessage(threadId: string, messageId: string): Promise<void> {
    const ephemeral = decodeSlackEphemeralMessageId(messageId);
    if (ephemeral !== null) return deleteSlackEphemeral(ephemeral, this.options.apiUrl);
    await deleteSlackMessage(this.api, threadId, messageId);
  }

  async addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    await reactToSlackMessage(this.api, "reactions.add", threadId, messageId, emoji);
  }

  async removeReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    await reactToSlackMessage(this.api, "reactions.remove", threadId, messageId, emoji);
  }

  /** Slack's assistant status line under a thread (see `startSlackTyping`). */
  async startTyping(threadId: string, status?: string): Promise<void> {
    await startSlackTyping(
      this.api,
      this.logger(),
      threadId,
      status,
      this.options.assistant.loadingMessages,
    );
  }

  async fetchMessages(
    threadId: string,
    options: FetchMessagesOptions = {},
  ): Promise<FetchMessagesResult> {
    return fetchSlackMessages(this.api, decodeSlackThreadId(threadId), options, (item, channel) =>
      this.parseMessage({ ...item, channel }),
    );
  }

  /**
   * One message by id (`{team}:{channel}:{ts}` or a bare `ts`) in the thread's channel, or null
   * when Slack has none; null for an ephemeral message id too, as Slack keeps no copy of one.
   */
  async fetchMessage(threadId: string, messageId: string): Promise<Message | null> {
    if (decodeSlackEphemeralMessageId(messageId) !== null) return null;
    const { channel } = decodeSlackThreadId(threadId);
    return fetchSlackMessage(this.api, channel, messageId, (item) =>
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
    return this.streams.stream(threadId, textStream, options);
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
    return openSlackDM(this.api, userId);
  }

  /** Publishes `view` (Block Kit, `type: "home"`) as `userId`'s App Home tab. */
  async publishHomeView(userId: string, view: Record<string, unknown>): Promise<void> {
    await publishSlackHomeView(this.api, userId, view);
  }

  /** Sets an assistant thread's suggested prompts (`threadTs` optional in the agent view). */
  async setSuggestedPrompts(
    channelId: string,
    threadTs: string | undefined,
    prompts: readonly SlackSuggestedPrompt[],
    title?: string,
  ): Promise<void> {
    await setSlackSuggestedPrompts(this.api, channelId, threadTs, prompts, title);
  }

  /** Sets an assistant thread's status line, with optional rotating loading messages. */
  async setAssistantStatus(
    channelId: string,
    threadTs: string,
    status: string,
    loadingMessages?: readonly string[],
  ): Promise<void> {
    await setSlackAssistantStatus(
      this.api,
      channelId,
      threadTs,
      status,
      loadingMessages ?? this.options.assistant.loadingMessages,
    );
  }

  /** Sets an assistant thread's title (the app's History tab). */
  async setAssistantTitle(channelId: string, threadTs: string, title: string): Promise<void> {
    await setSlackAssistantTitle(this.api, channelId, threadTs, title);
  }

  async getUser(userId: string): Promise<UserInfo | null> {
    return this.names.fetchUser(userId);
  }

  /**
   * The installation of the work in progress (a multi-workspace delivery, or `withBotToken` with
   * an `installationId`): users are cached per installation, since each sees Slack through its
   * own token and scopes (an email one workspace may read, another may not). Undefined — one
   * cache — for a single-workspace app.
   */
  userCacheScope(): string | undefined {
    return currentSlackToken()?.installationId;
  }

  async postEphemeral(
    threadId: string,
    userId: string,
    message: AdapterPostableMessage,
  ): Promise<EphemeralMessage> {
    const resolved = await this.names.resolvePostable(message, threadId);
    return postSlackEphemeral(this.api, threadId, userId, resolved);
  }

  async scheduleMessage(
    threadId: string,
    message: AdapterPostableMessage,
    options: ScheduleOptions,
  ): Promise<ScheduledMessage> {
    const resolved = await this.names.resolvePostable(message, threadId);
    return scheduleSlackMessage(this.api, threadId, resolved, options);
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
}
