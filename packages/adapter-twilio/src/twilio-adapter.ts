import {
  type Adapter,
  type AdapterPostableMessage,
  type Attachment,
  type ChatHost,
  ConfigError,
  defineCapabilities,
  type FetchMessagesResult,
  type JsonValue,
  type Logger,
  type Message,
  NotSupportedError,
  type RawMessage,
  type StateAdapter,
  silentLogger,
  type WebhookOptions,
} from "@baton/core";
import { TwilioApi, type TwilioCallResource, type TwilioCallUpdate } from "./api.js";
import type { TwilioMenuChoice } from "./cards.js";
import { QuickReplyTemplates } from "./content-templates.js";
import { TwilioOptOutError, twilioApiError } from "./errors.js";
import type { TwilioEventHandler, TwilioMessageStatusEvent, TwilioOptOutEvent } from "./events.js";
import { inboundThreadId, messageFromRest } from "./message.js";
import { OptOutRegistry, type TwilioOptOutKind } from "./opt-out.js";
import type { ResolvedTwilioOptions } from "./options.js";
import type { TwilioStatusWebhook, TwilioTextWebhook } from "./parse.js";
import { sendTwilioPost } from "./post.js";
import {
  decodeTwilioThreadId,
  encodeTwilioThreadId,
  isWhatsAppAddress,
  TWILIO_ADAPTER_NAME,
  type TwilioThreadData,
  twilioChannelIdFromThreadId,
} from "./thread-id.js";
import { handleTwilioWebhook, type TwilioOpenMenu } from "./webhook.js";

/** How long a posted card's choices answer numeric replies and button taps. */
const MENU_TTL_MS = 24 * 60 * 60 * 1_000;

/**
 * SMS and WhatsApp through Twilio (upstream `@chat-adapter/twilio`'s shape). One thread per
 * conversation between one of the bot's addresses and one customer; every thread is direct, so
 * `onDirectMessage` handlers get its messages. SMS cannot edit or react; cards become numbered
 * menus whose numeric replies run the card's actions, or on WhatsApp quick-reply buttons whose
 * taps do.
 */
export class TwilioAdapter implements Adapter<TwilioThreadData> {
  readonly name = TWILIO_ADAPTER_NAME;
  readonly userName: string;
  readonly capabilities = defineCapabilities({
    cards: true,
    deleteMessage: true,
    typing: true,
    openDM: true,
  });
  /** Twilio keeps no conversation history the bot can page through: the core keeps it. */
  readonly persistThreadHistory = true;

  private host: ChatHost | undefined;
  private readonly api: TwilioApi;
  private readonly optOuts: OptOutRegistry;
  private readonly templates: QuickReplyTemplates;
  private readonly statusHandlers: TwilioEventHandler<TwilioMessageStatusEvent>[] = [];
  private readonly optOutHandlers: TwilioEventHandler<TwilioOptOutEvent>[] = [];
  /** The latest inbound message per thread, which WhatsApp's typing indicator answers. */
  private readonly lastInbound = new Map<string, string>();

  constructor(readonly options: ResolvedTwilioOptions) {
    this.userName = options.userName;
    this.api = new TwilioApi({ ...options, logger: () => this.logger() });
    this.optOuts = new OptOutRegistry(() => this.chatHost("check opt-outs").getState());
    this.templates = new QuickReplyTemplates(this.api, () =>
      this.chatHost("post a quick reply").getState(),
    );
  }

  async initialize(chat: ChatHost): Promise<void> {
    this.host = chat;
  }

  handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    return handleTwilioWebhook(
      {
        adapter: this,
        host: this.host,
        options: this.options,
        logger: () => this.logger(),
        menuOf: (threadId, messageSid) => this.menuOf(threadId, messageSid),
        optOut: (payload, kind) => this.recordOptOut(payload, kind),
        status: (payload, raw) => this.emitStatus(payload, raw),
        noteInbound: (payload) => this.noteInbound(payload),
      },
      request,
      options,
    );
  }

  /** Calls `handler` for every delivery status callback (see `statusCallbackUrl`). */
  onMessageStatus(handler: TwilioEventHandler<TwilioMessageStatusEvent>): void {
    this.statusHandlers.push(handler);
  }

  /** Calls `handler` when a customer sends STOP, START or HELP (or another opt-out keyword). */
  onOptOut(handler: TwilioEventHandler<TwilioOptOutEvent>): void {
    this.optOutHandlers.push(handler);
  }

  encodeThreadId(data: TwilioThreadData): string {
    return encodeTwilioThreadId(data);
  }

  decodeThreadId(threadId: string): TwilioThreadData {
    return decodeTwilioThreadId(threadId);
  }

  channelIdFromThreadId(threadId: string): string {
    return twilioChannelIdFromThreadId(threadId);
  }

  isDM(): boolean {
    return true;
  }

  parseMessage(raw: unknown): Message {
    return messageFromRest(raw, this.userName);
  }

  /**
   * Gives a media attachment its fetcher back after a queue: it downloads with the account's
   * credentials, and only from a Twilio host — credentials never go to another origin.
   */
  rehydrateAttachment(attachment: Attachment): Attachment {
    const url = attachment.fetchMetadata?.twilioMediaUrl;
    if (url === undefined) return { ...attachment };
    return { ...attachment, fetchData: () => this.api.fetchMedia(url) };
  }

  async postMessage(threadId: string, message: AdapterPostableMessage): Promise<RawMessage> {
    const { sender, recipient } = decodeTwilioThreadId(threadId);
    if (await this.optOuts.isOptedOut(threadId)) throw new TwilioOptOutError(recipient);
    const sent = await sendTwilioPost(this.api, {
      sender,
      recipient,
      message,
      statusCallback: this.options.statusCallbackUrl,
      ...(this.options.whatsappQuickReplies
        ? {
            quickReplyTemplate: (buttons, template, refresh) =>
              this.templates.sidFor(buttons, template, refresh),
          }
        : {}),
    });
    if (sent.choices.length > 0) {
      await this.rememberMenu(
        threadId,
        { choices: sent.choices, quickReply: sent.quickReply },
        sent.quickReply ? sent.resources[0]?.sid : undefined,
      );
    }
    return { id: sent.resources[0]?.sid ?? "", threadId, raw: sent.resources };
  }

  async editMessage(): Promise<RawMessage> {
    throw new NotSupportedError(this.name, "editMessage");
  }

  async deleteMessage(_threadId: string, messageId: string): Promise<void> {
    await this.api.deleteMessage(messageId);
  }

  async addReaction(): Promise<void> {
    throw new NotSupportedError(this.name, "reactions");
  }

  async removeReaction(): Promise<void> {
    throw new NotSupportedError(this.name, "reactions");
  }

  /**
   * WhatsApp's typing indicator, shown in reply to the customer's latest message. SMS has no
   * typing indicator; there the call is logged and does nothing, as the platform offers nothing.
   */
  async startTyping(threadId: string): Promise<void> {
    const { recipient } = decodeTwilioThreadId(threadId);
    const latest = this.lastInbound.get(threadId);
    if (!isWhatsAppAddress(recipient) || latest === undefined) {
      this.logger().debug("twilio: no typing indicator on SMS", { threadId });
      return;
    }
    await this.api.sendTypingIndicator(latest);
  }

  async fetchMessages(): Promise<FetchMessagesResult> {
    throw new NotSupportedError(this.name, "history");
  }

  /** The thread with `userId` (a phone number or `whatsapp:` address) from the bot's sender. */
  async openDM(userId: string): Promise<string> {
    const sender = this.options.messagingServiceSid ?? this.options.phoneNumber;
    if (sender === undefined) {
      throw new ConfigError([
        "twilio adapter: phoneNumber or messagingServiceSid is needed to open a DM",
      ]);
    }
    const ours =
      isWhatsAppAddress(userId) && !sender.startsWith("MG") && !isWhatsAppAddress(sender)
        ? `whatsapp:${sender}`
        : sender;
    return encodeTwilioThreadId({ sender: ours, recipient: userId });
  }

  /**
   * Tells a live voice call what to do next: new TwiML (see `gatherSpeechTwilioResponse`,
   * `sayTwilioResponse`) or a URL that answers with TwiML — one of the two, never both.
   */
  updateCall(callSid: string, update: TwilioCallUpdate): Promise<TwilioCallResource> {
    return this.api.updateCall(callSid, update);
  }

  /** Notes the latest inbound message of a thread (for the typing indicator). */
  noteInbound(payload: TwilioTextWebhook): void {
    this.lastInbound.set(inboundThreadId(payload), payload.messageSid);
  }

  private logger(): Logger {
    return this.options.logger ?? this.host?.getLogger("twilio") ?? silentLogger;
  }

  private chatHost(step: string): ChatHost {
    if (this.host === undefined) {
      throw new ConfigError([`twilio adapter: initialize the Chat before you ${step}`]);
    }
    return this.host;
  }

  private menuKey(threadId: string): string {
    return `twilio:menu:${threadId}`;
  }

  /** A quick reply's choices by its message sid, so a tap on an older card finds its own. */
  private messageMenuKey(messageSid: string): string {
    return `twilio:menu-message:${messageSid}`;
  }

  private async rememberMenu(
    threadId: string,
    menu: TwilioOpenMenu,
    messageSid: string | undefined,
  ): Promise<void> {
    const state = this.chatHost("post a card").getState();
    const stored = {
      choices: menu.choices.map((choice) => ({ ...choice })),
      quickReply: menu.quickReply,
    } as unknown as JsonValue;
    await state.set(this.menuKey(threadId), stored, MENU_TTL_MS);
    if (messageSid !== undefined && messageSid !== "") {
      await state.set(this.messageMenuKey(messageSid), stored, MENU_TTL_MS);
    }
  }

  private async menuOf(threadId: string, messageSid?: string): Promise<TwilioOpenMenu | undefined> {
    const state = this.chatHost("read a menu").getState();
    const byMessage =
      messageSid === undefined
        ? undefined
        : await this.storedMenu(state, this.messageMenuKey(messageSid));
    return byMessage ?? (await this.storedMenu(state, this.menuKey(threadId)));
  }

  private async storedMenu(state: StateAdapter, key: string): Promise<TwilioOpenMenu | undefined> {
    const stored = (await state.get(key)) as {
      choices?: TwilioMenuChoice[];
      quickReply?: boolean;
    } | null;
    if (!Array.isArray(stored?.choices)) return undefined;
    return { choices: stored.choices, quickReply: stored.quickReply === true };
  }

  private async recordOptOut(payload: TwilioTextWebhook, kind: TwilioOptOutKind): Promise<void> {
    const threadId = inboundThreadId(payload);
    await this.optOuts.record(threadId, kind, this.options.clock.now());
    const event: TwilioOptOutEvent = {
      kind,
      threadId,
      from: payload.from,
      to: payload.to,
      body: payload.body,
      messageId: payload.messageSid,
    };
    await this.emit(this.optOutHandlers, event, "opt-out handler");
  }

  private async emitStatus(
    payload: TwilioStatusWebhook,
    raw: Record<string, string>,
  ): Promise<void> {
    const errorCode = payload.errorCode === undefined ? undefined : Number(payload.errorCode);
    const failed = errorCode !== undefined && Number.isFinite(errorCode);
    const error = failed
      ? twilioApiError("deliver a message", {
          code: errorCode,
          message: payload.errorMessage ?? `delivery ${payload.messageStatus}`,
        })
      : undefined;
    const event: TwilioMessageStatusEvent = {
      messageId: payload.messageSid,
      threadId: encodeTwilioThreadId({
        sender: payload.messagingServiceSid ?? payload.from,
        recipient: payload.to,
      }),
      status: payload.messageStatus,
      errorCode: failed ? errorCode : undefined,
      error: error as TwilioMessageStatusEvent["error"],
      raw,
    };
    await this.emit(this.statusHandlers, event, "status handler");
  }

  private async emit<E>(handlers: readonly TwilioEventHandler<E>[], event: E, what: string) {
    for (const handler of handlers) {
      try {
        await handler(event);
      } catch (error) {
        this.logger().error(`twilio: ${what} failed`, { error });
      }
    }
  }
}
