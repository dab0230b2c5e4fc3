import type {
  Adapter,
  ChatHost,
  DeliveryResult,
  ProcessOptions,
  ReceiveResult,
  WebhookOptions,
} from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import { AdmissionBound } from "../coordination/admission-bound.js";
import { EventDispatcher } from "../dispatch/event-dispatcher.js";
import {
  type ActionHandlerEvent,
  HandlerRegistry,
  type MessageDeletedHandlerEvent,
  type MessageHandler,
  type ReactionHandlerEvent,
  type SlashCommandHandlerEvent,
} from "../dispatch/handler-registry.js";
import {
  type AcceptedDelivery,
  isFinalResult,
  MessageDispatcher,
} from "../dispatch/message-dispatcher.js";
import type { ThreadHints } from "../dispatch/run-batch.js";
import { DetachTimeoutError, ValidationError } from "../errors/index.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";
import { adapterNameOf } from "../thread-id/index.js";
import { type Channel, ChannelImpl } from "./channel.js";
import { type ChatConfig, type ResolvedChatConfig, resolveChatConfig } from "./chat-config.js";
import { Lifecycle } from "./lifecycle.js";
import { type StrategyWiring, wireStrategy } from "./strategy-wiring.js";
import { type Thread, ThreadImpl } from "./thread.js";

type Filter = string | readonly string[];

/** Options of {@link Chat.shutdown}. */
export interface ShutdownOptions {
  /** The longest to wait for running handlers after their signals aborted. Default 10 000. */
  timeoutMs?: number;
}

/**
 * The Baton runtime, with upstream `chat`'s handler API. Construction validates the whole config
 * and throws one `ConfigError` listing every problem.
 */
export class Chat implements ChatHost {
  readonly webhooks: Record<
    string,
    (request: Request, options?: WebhookOptions) => Promise<Response>
  >;
  private readonly config: ResolvedChatConfig;
  private readonly registry = new HandlerRegistry<Thread, Channel>();
  private readonly lifecycle: Lifecycle;
  /** Deliveries admitted and not finished; exposed for health checks and tests. */
  readonly admission: AdmissionBound;
  private readonly wiring: StrategyWiring;
  private readonly messages: MessageDispatcher;
  private readonly events: EventDispatcher<Thread, Channel>;

  constructor(config: ChatConfig) {
    this.config = resolveChatConfig(config);
    this.admission = new AdmissionBound({
      maxDetached: this.config.maxDetached,
      maxDetachedPerTenant: this.config.maxDetachedPerTenant,
      retryAfterMs: this.config.retryAfterMs,
    });
    for (const warning of this.config.warnings) this.config.logger.warn(warning);
    const threadFor = (adapter: Adapter, threadId: string, hints?: ThreadHints) =>
      this.threadOn(adapter, threadId, hints);
    this.lifecycle = new Lifecycle(this.config, this);
    const shutdownSignal = this.lifecycle.shutdownSignal;
    this.wiring = wireStrategy(this.config, this.registry, shutdownSignal, threadFor);
    this.lifecycle.attach(this.wiring);
    this.messages = new MessageDispatcher({
      state: this.config.state,
      logger: this.config.logger,
      registry: this.wiring.deliveries,
      holders: this.wiring.holders,
      admission: this.admission,
      dedupeTtlMs: this.config.dedupeTtlMs,
      lockScope: this.config.lockScope,
      strategy: () => this.wiring.strategy,
      isClosed: () => this.lifecycle.closed,
    });
    this.events = new EventDispatcher({
      registry: this.registry,
      logger: this.config.logger,
      shutdownSignal,
      threadFor,
      channelFor: (adapter, channelId) => this.channelOn(adapter, channelId),
    });
    this.webhooks = Object.fromEntries(
      Object.entries(this.config.adapters).map(([name, adapter]) => [
        name,
        async (request: Request, options?: WebhookOptions) => {
          await this.initialize();
          return adapter.handleWebhook(request, options);
        },
      ]),
    );
  }

  /** Connects the State and initializes every adapter; shared by concurrent callers, retried after a failure. */
  initialize(): Promise<void> {
    return this.lifecycle.initialize();
  }

  /** Stops admission, aborts and awaits running handlers (bounded), then disconnects adapters and the State. Idempotent. */
  shutdown(options: ShutdownOptions = {}): Promise<void> {
    return this.lifecycle.shutdown(options.timeoutMs ?? 10_000);
  }

  onNewMention(handler: MessageHandler<Thread>): void {
    this.registry.mention.push(handler);
  }

  onDirectMessage(handler: MessageHandler<Thread>): void {
    this.registry.directMessage.push(handler);
  }

  onSubscribedMessage(handler: MessageHandler<Thread>): void {
    this.registry.subscribed.push(handler);
  }

  onNewMessage(pattern: RegExp, handler: MessageHandler<Thread>): void {
    if (!(pattern instanceof RegExp)) {
      throw new ValidationError("onNewMessage needs a RegExp pattern", {
        step: "register handler",
      });
    }
    this.registry.patterns.push({ pattern, handler });
  }

  onReaction(handler: (event: ReactionHandlerEvent<Thread>) => unknown): void;
  onReaction(emoji: Filter, handler: (event: ReactionHandlerEvent<Thread>) => unknown): void;
  onReaction(...args: unknown[]): void {
    this.registry.reactions.push(filtered(args));
  }

  onAction(handler: (event: ActionHandlerEvent<Thread>) => unknown): void;
  onAction(ids: Filter, handler: (event: ActionHandlerEvent<Thread>) => unknown): void;
  onAction(...args: unknown[]): void {
    this.registry.actions.push(filtered(args));
  }

  onSlashCommand(handler: (event: SlashCommandHandlerEvent<Channel>) => unknown): void;
  onSlashCommand(
    commands: Filter,
    handler: (event: SlashCommandHandlerEvent<Channel>) => unknown,
  ): void;
  onSlashCommand(...args: unknown[]): void {
    this.registry.slashCommands.push(filtered(args));
  }

  onMessageUpdated(handler: MessageHandler<Thread>): void {
    this.registry.messageUpdated.push(handler);
  }

  onMessageDeleted(handler: (event: MessageDeletedHandlerEvent<Thread>) => unknown): void {
    this.registry.messageDeleted.push(handler);
  }

  /**
   * Dispatches an inbound message and resolves with its disposition once it is handled, skipped
   * into another run, dropped, errored or expired — or `queued` for a holder in another process.
   * Rejects with `AdmissionRejectedError` at the admission bound or during shutdown (nothing
   * written). Webhook adapters call {@link receiveMessage} instead, to answer in time.
   */
  async processMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options: ProcessOptions = {},
  ): Promise<DeliveryResult> {
    await this.initialize();
    const accepted = await this.lifecycle.track(
      this.messages.accept(this.registered(adapter), threadId, message, options.tenantId),
    );
    if (isFinalResult(accepted)) return accepted;
    return this.lifecycle.track(this.messages.run(accepted));
  }

  async receiveMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options: ProcessOptions = {},
  ): Promise<ReceiveResult> {
    await this.initialize();
    const accepted = await this.lifecycle.track(
      this.messages.accept(this.registered(adapter), threadId, message, options.tenantId),
    );
    if (isFinalResult(accepted)) return accepted;
    if (this.config.dispatch === "sync") return this.lifecycle.track(this.messages.run(accepted));
    const detached = this.lifecycle.track(this.runDetached(accepted));
    options.waitUntil?.(detached.then(noop, noop));
    return { outcome: "accepted" };
  }

  async processAction(adapter: Adapter, event: ActionEvent): Promise<void> {
    await this.initialize();
    await this.lifecycle.track(this.events.action(this.registered(adapter), event));
  }

  async processReaction(adapter: Adapter, event: ReactionEvent): Promise<void> {
    await this.initialize();
    await this.lifecycle.track(this.events.reaction(this.registered(adapter), event));
  }

  async processSlashCommand(adapter: Adapter, event: SlashCommandEvent): Promise<void> {
    await this.initialize();
    await this.lifecycle.track(this.events.slashCommand(this.registered(adapter), event));
  }

  async processMessageUpdated(adapter: Adapter, message: Message): Promise<void> {
    await this.initialize();
    await this.lifecycle.track(this.events.messageUpdated(this.registered(adapter), message));
  }

  async processMessageDeleted(adapter: Adapter, event: MessageDeletedEvent): Promise<void> {
    await this.initialize();
    await this.lifecycle.track(this.events.messageDeleted(this.registered(adapter), event));
  }

  /** A handle on any thread, e.g. to post outside a handler. Throws for an unknown adapter prefix. */
  thread(threadId: string): Thread {
    return this.threadOn(this.adapterFor(threadId), threadId);
  }

  /** A handle on a channel id of the form `{adapter}:{…}`. */
  channel(channelId: string): Channel {
    return this.channelOn(this.adapterFor(channelId), channelId);
  }

  getAdapter(name: string): Adapter | undefined {
    return this.config.adapters[name];
  }

  getState(): StateAdapter {
    return this.config.state;
  }

  getUserName(): string {
    return this.config.userName;
  }

  getLogger(component: string): Logger {
    return this.config.logger.child?.(component) ?? this.config.logger;
  }

  private threadOn(adapter: Adapter, threadId: string, hints: ThreadHints = {}): Thread {
    return new ThreadImpl({
      adapter,
      state: this.config.state,
      threadId,
      logger: this.config.logger,
      ...(hints.initialMessage ? { initialMessage: hints.initialMessage } : {}),
      ...(hints.isSubscribed ? { isSubscribedContext: true } : {}),
    });
  }

  private channelOn(adapter: Adapter, channelId: string): Channel {
    return new ChannelImpl({
      adapter,
      state: this.config.state,
      channelId,
      logger: this.config.logger,
    });
  }

  private adapterFor(id: string): Adapter {
    const name = adapterNameOf(id);
    const adapter = this.config.adapters[name];
    if (!adapter) {
      throw new ValidationError(
        `no adapter named "${name}" is registered (id ${JSON.stringify(id)})`,
        {
          step: "find adapter for id",
        },
      );
    }
    return adapter;
  }

  /** Runs an accepted delivery detached, bounded by `detachTimeoutMs` when set. */
  private async runDetached(accepted: AcceptedDelivery): Promise<DeliveryResult> {
    const timeoutMs = this.config.detachTimeoutMs;
    if (timeoutMs === undefined) return this.messages.run(accepted);
    const { clock } = this.config;
    const bound = new AbortController();
    const timer = clock.setTimeout(() => {
      bound.abort(
        new DetachTimeoutError(timeoutMs, `detached work ran past ${timeoutMs} ms`, {
          step: `run ${accepted.delivery.key}`,
        }),
      );
    }, timeoutMs);
    try {
      return await this.messages.run(accepted, bound.signal);
    } finally {
      clock.clearTimeout(timer);
    }
  }

  private registered(adapter: Adapter): Adapter {
    if (this.config.adapters[adapter?.name] !== adapter) {
      throw new ValidationError(
        `adapter ${JSON.stringify(adapter?.name)} is not registered with this Chat`,
        {
          step: "dispatch event",
        },
      );
    }
    return adapter;
  }
}

function noop(): void {}

function filtered<F, H>(args: unknown[]): { filter: F | undefined; handler: H } {
  const [first, second] = args;
  if (typeof first === "function") return { filter: undefined, handler: first as H };
  if (typeof second !== "function") {
    throw new ValidationError("a handler function is required", { step: "register handler" });
  }
  const filter = typeof first === "string" ? [first] : first;
  return { filter: filter as F, handler: second as H };
}
