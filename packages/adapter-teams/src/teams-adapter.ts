import {
  type Adapter,
  type AdapterPostableMessage,
  accumulateStream,
  type ChatHost,
  ConfigError,
  defineCapabilities,
  type EphemeralMessage,
  type FetchMessagesResult,
  type Logger,
  type Message,
  type ModalElement,
  NotSupportedError,
  type RawMessage,
  type StreamChunk,
  silentLogger,
  type ThreadInfo,
  type UserInfo,
  type WebhookOptions,
} from "@baton/core";
import type { Root } from "mdast";
import { TeamsApi } from "./api.js";
import { toAppOptions } from "./app-options.js";
import { createTeamsAttachmentFetchers, type TeamsAttachmentFetchers } from "./attachments.js";
import { PendingDialogs } from "./dialogs.js";
import type {
  TeamsConversationUpdateEvent,
  TeamsEventHandler,
  TeamsInstallationUpdateEvent,
} from "./events.js";
import { answerFileConsent } from "./file-consent.js";
import { TeamsFormatConverter } from "./format.js";
import { TeamsGraph } from "./graph/client.js";
import { graphPerTenant } from "./graph/tenants.js";
import { cachedToken } from "./graph/token.js";
import { TeamsLifecycleEvents } from "./lifecycle.js";
import { isBotAccount, messageFromActivity } from "./message.js";
import {
  type ResolvedTeamsOptions,
  resolveTeamsOptions,
  type TeamsAdapterConfig,
} from "./options.js";
import { composeTeamsActivity, type TeamsOutboundContext } from "./outbound.js";
import { parseTeamsActivity } from "./parse.js";
import { openTeamsDM } from "./proactive.js";
import { toTeamsReaction } from "./reactions.js";
import { rememberReferences } from "./references.js";
import { toSdkLogger } from "./sdk-logger.js";
import { senderEmail } from "./sender-email.js";
import { streamTeamsNatively, type TeamsStreamOptions, teamsStreamTarget } from "./stream.js";
import {
  baseConversationId,
  decodeTeamsThreadId,
  encodeTeamsThreadId,
  isTeamsDM,
  TEAMS_ADAPTER_NAME,
  type TeamsThreadData,
  teamsChannelIdFromThreadId,
} from "./thread-id.js";
import { TokenRefusalLog } from "./token-refusals.js";
import { lookupTeamsUser } from "./user-lookup.js";
import { TeamsHost } from "./verify.js";
import { handleTeamsWebhook } from "./webhook.js";

export { toAppOptions } from "./app-options.js";

/**
 * Microsoft Teams on Microsoft's Teams SDK (`@microsoft/teams.apps`, `@microsoft/teams.api`,
 * `@microsoft/teams.cards`), upstream `@chat-adapter/teams`'s shape. The SDK checks every
 * inbound Bot Framework token and mints the bot's outbound tokens; Baton routes activities and
 * posts through the SDK's connector client. Channel reply chains, group chats and personal
 * chats are threads; personal chats are DMs.
 */
export class TeamsAdapter implements Adapter<TeamsThreadData> {
  readonly name = TEAMS_ADAPTER_NAME;
  readonly userName: string;
  readonly capabilities = defineCapabilities({
    streaming: "native",
    cards: true,
    reactions: true,
    editMessage: true,
    deleteMessage: true,
    typing: true,
    openDM: true,
    ephemeral: true,
    modals: true,
    getUser: true,
    files: true,
  });
  /** The connector serves no history to bots without Graph permissions: the core keeps it. */
  readonly persistThreadHistory = true;
  readonly converter = new TeamsFormatConverter();

  private host: ChatHost | undefined;
  private readonly sdk: TeamsHost;
  private readonly api: TeamsApi;
  /** Graph with the app's own credentials, per tenant; tokens reused until shortly before expiry. */
  private readonly graph: (tenantId: string | undefined) => TeamsGraph;
  private readonly lifecycle: TeamsLifecycleEvents;
  private readonly dialogs: PendingDialogs;
  /** Attachment downloads: file links anonymously, connector content with the bot's token. */
  private readonly fetchers: TeamsAttachmentFetchers;
  /** How outbound messages and their files are built. */
  private readonly outbound: TeamsOutboundContext;

  /** The options with every default applied. */
  readonly options: ResolvedTeamsOptions;

  /** Takes upstream's config (see `TeamsAdapterConfig`); a bad value throws a `ConfigError`. */
  constructor(config: TeamsAdapterConfig = {}) {
    const options = resolveTeamsOptions(config);
    this.options = options;
    this.userName = options.userName;
    this.dialogs = new PendingDialogs(options.clock, options.dialogOpenTimeoutMs);
    this.lifecycle = new TeamsLifecycleEvents(options.appId, () => this.logger());
    this.sdk = new TeamsHost(
      toAppOptions(options),
      options.cloud,
      toSdkLogger(() => this.logger()),
      new TokenRefusalLog(options.clock, () => this.logger()),
    );
    this.fetchers = createTeamsAttachmentFetchers(() => this.sdk.botToken());
    this.outbound = {
      converter: this.converter,
      state: () => this.chatHost("offer a file").getState(),
      fileConsentTtlMs: options.fileConsentTtlMs,
      fileConsentMaxBytes: options.fileConsentMaxBytes,
    };
    this.api = new TeamsApi({
      ...options,
      token: () => this.sdk.botToken(),
      logger: () => this.logger(),
    });
    this.graph = graphPerTenant(
      (tenantId) =>
        new TeamsGraph({
          ...(this.sdk.graphBaseUrl === undefined ? {} : { baseUrl: this.sdk.graphBaseUrl }),
          token: cachedToken(
            () => this.sdk.graphToken(tenantId),
            () => options.clock.now(),
          ),
        }),
    );
  }

  async initialize(chat: ChatHost): Promise<void> {
    this.host = chat;
  }

  handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    return handleTeamsWebhook(
      {
        adapter: this,
        host: this.host,
        options: this.options,
        sdk: this.sdk,
        converter: this.converter,
        logger: () => this.logger(),
        remember: (activity) =>
          rememberReferences(
            this.chatHost("receive an activity").getState(),
            this.options.appId,
            activity,
          ),
        lifecycle: (activity) => this.lifecycle.dispatch(activity),
        dialogs: this.dialogs,
        fetchers: this.fetchers,
        fileConsent: (activity) => answerFileConsent(this.fileConsentDeps(), activity),
        senderEmail: (activity) => senderEmail(this.senderEmailDeps(), activity),
      },
      request,
      options,
    );
  }

  /**
   * Opens `modal` as a Teams dialog in answer to the task/fetch of `triggerId` (the trigger id of
   * a modal button's action). Only a pending task/fetch can show a dialog; any other trigger
   * is refused with a `ValidationError`.
   */
  async openModal(
    triggerId: string,
    modal: ModalElement,
    contextId?: string,
  ): Promise<{ viewId: string }> {
    return this.dialogs.open(triggerId, modal, contextId);
  }

  /** Calls `handler` when members join or leave a conversation, or the bot is added. */
  onConversationUpdate(handler: TeamsEventHandler<TeamsConversationUpdateEvent>): void {
    this.lifecycle.onConversationUpdate(handler);
  }

  /** Calls `handler` when the app is installed or removed. */
  onInstallationUpdate(handler: TeamsEventHandler<TeamsInstallationUpdateEvent>): void {
    this.lifecycle.onInstallationUpdate(handler);
  }

  encodeThreadId(data: TeamsThreadData): string {
    return encodeTeamsThreadId(data);
  }

  decodeThreadId(threadId: string): TeamsThreadData {
    return decodeTeamsThreadId(threadId);
  }

  channelIdFromThreadId(threadId: string): string {
    return teamsChannelIdFromThreadId(threadId);
  }

  isDM(threadId: string): boolean {
    return isTeamsDM(threadId);
  }

  /** True for the bot's own ids: the app id and `28:<app id>`. */
  matchesUserId(userId: string): boolean {
    return isBotAccount(this.options.appId, userId);
  }

  /** Markdown (as an mdast tree) in Teams' markdown subset. */
  renderFormatted(ast: Root): string {
    return this.converter.fromAst(ast);
  }

  /** What the connector knows of a thread without Graph: its ids (upstream's basic info). */
  async fetchThread(threadId: string): Promise<ThreadInfo> {
    const { conversationId } = decodeTeamsThreadId(threadId);
    return {
      id: threadId,
      channelId: baseConversationId(conversationId),
      isDM: isTeamsDM(threadId),
      metadata: {},
    };
  }

  parseMessage(raw: unknown): Message {
    const activity = parseTeamsActivity(raw);
    return messageFromActivity(
      activity,
      this.options.appId,
      this.converter,
      this.options.clock.now(),
    );
  }

  /**
   * Posts into the thread: text, a card, and files — PNG, JPEG and GIF pictures up to 1 MB (and
   * images by https URL) inline everywhere; other files only in personal chats, as a file
   * consent card (see `composeTeamsActivity`).
   */
  async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    const activity = await composeTeamsActivity(this.outbound, threadId, message, "post");
    const sent = await this.api.send(serviceUrl, conversationId, activity);
    return { id: sent.id, threadId, raw: sent };
  }

  /**
   * Teams' streaming protocol in personal chats (`streamTeamsNatively`), with updates coalesced
   * to one per `updateIntervalMs` (default 1 000 ms, Teams' throttle) on the adapter's clock; an
   * explicit `fallbackStreamingPlaceholderText` is shown first, as an informative update.
   * Channels and group chats have no streaming protocol: with an explicit placeholder, `null`
   * without reading the stream (the core posts the placeholder and edits it); without one, the
   * whole text is posted once when the stream ends, so the message does not flicker (upstream's
   * rules).
   */
  async stream(
    threadId: string,
    textStream: AsyncIterable<string | StreamChunk>,
    options?: TeamsStreamOptions,
  ): Promise<RawMessage | null> {
    const placeholder = options?.fallbackStreamingPlaceholderText;
    if (!isTeamsDM(threadId)) {
      if (typeof placeholder === "string") return null;
      return this.postMessage(threadId, { markdown: await accumulateStream(textStream) });
    }
    const target = teamsStreamTarget(this.api, this.options.clock, this.converter, threadId);
    if (options?.updateIntervalMs !== undefined) target.updateIntervalMs = options.updateIntervalMs;
    return streamTeamsNatively(target, textStream, placeholder ?? undefined);
  }

  /**
   * A message only `userId` sees: a targeted activity in channels and group chats; in a personal
   * chat, where only that user is present anyway, a normal post (upstream's rule).
   */
  async postEphemeral(
    threadId: string,
    userId: string,
    message: AdapterPostableMessage,
  ): Promise<EphemeralMessage> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    const activity = await composeTeamsActivity(this.outbound, threadId, message, "post");
    if (isTeamsDM(threadId)) {
      const sent = await this.api.send(serviceUrl, conversationId, activity);
      return { id: sent.id, threadId, usedFallback: false, raw: sent };
    }
    const targeted = { ...activity, recipient: { id: userId } } as typeof activity;
    const sent = await this.api.sendTargeted(serviceUrl, conversationId, targeted);
    return { id: sent.id, threadId, usedFallback: false, raw: sent };
  }

  async editMessage(
    threadId: string,
    messageId: string,
    message: AdapterPostableMessage,
  ): Promise<RawMessage> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    const composed = await composeTeamsActivity(this.outbound, threadId, message, "edit");
    const activity = { ...composed, id: messageId };
    const sent = await this.api.update(serviceUrl, conversationId, messageId, activity as never);
    return { id: sent?.id || messageId, threadId, raw: sent };
  }

  async deleteMessage(threadId: string, messageId: string): Promise<void> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    await this.api.delete(serviceUrl, conversationId, messageId);
  }

  async addReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    await this.api.addReaction(serviceUrl, conversationId, messageId, toTeamsReaction(emoji));
  }

  async removeReaction(threadId: string, messageId: string, emoji: string): Promise<void> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    await this.api.removeReaction(serviceUrl, conversationId, messageId, toTeamsReaction(emoji));
  }

  async startTyping(threadId: string): Promise<void> {
    const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
    await this.api.send(serviceUrl, conversationId, { type: "typing" } as never);
  }

  async fetchMessages(): Promise<FetchMessagesResult> {
    throw new NotSupportedError(this.name, "history");
  }

  /**
   * The personal chat with `userId`, created through the connector. The service URL and tenant
   * come from the reference the adapter stored when that user last wrote to the bot; without one,
   * Teams' global service URL and the configured `appTenantId` (upstream's fallback). With no
   * tenant at all, a `ValidationError`: Teams creates no conversation without one.
   */
  async openDM(userId: string): Promise<string> {
    const { appId, appTenantId } = this.options;
    const state = this.chatHost("open a DM").getState();
    return openTeamsDM({ state, api: this.api, appId, appTenantId }, userId);
  }

  /**
   * The user's Graph profile (name, `mail` or else `userPrincipalName` as email), found through
   * the Entra object id stored when the user last wrote to the bot. Null when no id is stored,
   * the Chat is not initialized, or Graph refuses (the refusal is logged): Graph needs the app's
   * `User.Read.All` permission, which many tenants do not grant.
   */
  async getUser(userId: string): Promise<UserInfo | null> {
    if (this.host === undefined) return null;
    const deps = {
      state: this.host.getState(),
      graph: this.graph,
      appTenantId: this.options.appTenantId,
      logger: () => this.logger(),
    };
    return lookupTeamsUser(deps, userId);
  }

  private fileConsentDeps() {
    const state = this.chatHost("answer a file consent").getState();
    return { state, api: this.api, logger: () => this.logger() };
  }

  private senderEmailDeps() {
    const { appId, appTenantId, clock } = this.options;
    const state = this.chatHost("read a sender's email").getState();
    return { state, graph: this.graph, appId, appTenantId, clock, logger: () => this.logger() };
  }

  private logger(): Logger {
    return this.options.logger ?? this.host?.getLogger("teams") ?? silentLogger;
  }

  private chatHost(step: string): ChatHost {
    if (this.host === undefined) {
      throw new ConfigError([`teams adapter: initialize the Chat before you ${step}`]);
    }
    return this.host;
  }
}
