import {
  type Adapter,
  type Attachment,
  type ChatHost,
  type Logger,
  type Message,
  silentLogger,
  type WebhookOptions,
} from "@baton/core";
import type { WebClient } from "@slack/web-api";
import type { Root } from "mdast";
import { SlackApi } from "./api.js";
import { currentBotToken } from "./bot-token.js";
import { type SlackFileAccess, withSlackFileFetcher } from "./file-download.js";
import { SlackFormatConverter } from "./format.js";
import { fetchLinkedSlackMessage } from "./history.js";
import type { SlackMessageLink } from "./links.js";
import { messageFromSlack, type SlackSelf } from "./message.js";
import type { ResolvedSlackOptions } from "./options.js";
import type { SlackEvent } from "./parse.js";
import { slackThreadOfMessage } from "./slack-conversations.js";
import { identifySlackBot } from "./slack-identity.js";
import { SlackSocketConnection } from "./socket.js";
import {
  decodeSlackThreadId,
  encodeSlackThreadId,
  isSlackDMChannel,
  SLACK_ADAPTER_NAME,
  type SlackThreadData,
  slackChannelIdFromThreadId,
} from "./thread-id.js";
import { handleSlackWebhook } from "./webhook.js";
import { json, type SlackWebhookTarget } from "./webhook-target.js";

const SLACK_CONVERTER = new SlackFormatConverter();

/** The webhook's answer in socket mode: 405, as events arrive over the socket instead. */
function socketModeRefusal(): Response {
  return json(405, {
    ok: false,
    code: "METHOD_NOT_ALLOWED",
    error: "the adapter runs in socket mode",
  });
}

/**
 * The receiving half of the Slack adapter: who the bot is (`auth.test`), the webhook and socket
 * mode, thread ids and parsing. {@link SlackAdapter} adds everything that calls out to Slack.
 */
export abstract class SlackAdapterBase
  implements Pick<Adapter<SlackThreadData>, "name" | "userName" | "handleWebhook">
{
  readonly name = SLACK_ADAPTER_NAME;
  readonly userName: string;

  protected host: ChatHost | undefined;
  protected ownUserId: string | undefined;
  protected ownBotId: string | undefined;
  protected team = "";
  protected readonly api: SlackApi;
  private readonly socket: SlackSocketConnection | undefined;

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
    const identity = await identifySlackBot(this.api, this.logger());
    if (identity === undefined) return;
    this.ownUserId ??= identity.userId;
    this.ownBotId = identity.botId;
    this.team = identity.teamId;
  }

  /** True when the adapter receives events over Socket Mode instead of webhooks. */
  get isSocketMode(): boolean {
    return this.options.mode === "socket";
  }

  /** The Events API webhook; in socket mode it answers 405 (events arrive over the socket). */
  async handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    if (this.isSocketMode) return socketModeRefusal();
    return handleSlackWebhook(this.webhookTarget(), request, options);
  }

  /** What the webhook and socket mode route events with (the full adapter names itself). */
  protected abstract webhookTarget(): SlackWebhookTarget;

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
      withFetcher: (attachment) => this.rehydrateAttachment(attachment),
      fetchLinked: this.fetchLinked,
    });
  }

  /** Loads the Slack message a link points at, for the links of parsed messages. */
  protected readonly fetchLinked = (link: SlackMessageLink): Promise<Message> =>
    fetchLinkedSlackMessage(this.api, link, (item) =>
      this.parseMessage({ ...item, channel: link.channel }),
    );

  /**
   * A Slack file attachment with its download, `fetchData` (see `withSlackFileFetcher`): also
   * for attachments that came back from JSON (queued messages), which keep what the download
   * needs in `fetchMetadata`. The bot token goes to Slack's file hosts only. An attachment
   * without a URL comes back as it is.
   */
  rehydrateAttachment(attachment: Attachment): Attachment {
    return withSlackFileFetcher(attachment, this.fileAccess());
  }

  /** Where file downloads get their token; the multi-workspace layer adds installations. */
  protected fileAccess(): SlackFileAccess {
    return {
      defaultToken: () => currentBotToken(this.options.botToken),
      multiWorkspace: false,
      installationToken: async () => undefined,
      apiUrl: this.options.apiUrl,
    };
  }

  protected threadOfMessage(channel: string, ts: string): Promise<string> {
    return slackThreadOfMessage(this.api, channel, ts);
  }

  protected self(): SlackSelf {
    return { botUserId: this.ownUserId, botId: this.ownBotId, userName: this.userName };
  }

  protected logger(): Logger {
    return this.options.logger ?? this.host?.getLogger("slack") ?? silentLogger;
  }
}
