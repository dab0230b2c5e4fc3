import type { HoldLapsedHandler } from "../concurrency/hold-records.js";
import type {
  Adapter,
  ChatHost,
  DeliveryResult,
  ProcessOptions,
  ReceiveResult,
} from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import type { UserInfo } from "../contracts/thread-surface-types.js";
import { AdmissionBound } from "../coordination/admission-bound.js";
import type { HoldHandle } from "../coordination/hold.js";
import type { OnceOptions, OnceResult, OnceWork } from "../coordination/once.js";
import type {
  ExclusiveAttempt,
  GateScope,
  TryExclusiveOptions,
} from "../coordination/turn-gate.js";
import type { MessageHandler } from "../dispatch/handler-registry.js";
import { isFinalResult, MessageDispatcher } from "../dispatch/message-dispatcher.js";
import type { ThreadHints } from "../dispatch/run-batch.js";
import { ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { adapterNameOf } from "../thread-id/index.js";
import { type Channel, ChannelImpl } from "./channel.js";
import { type ChatConfig, type ResolvedChatConfig, resolveChatConfig } from "./chat-config.js";
import { streamingSettingsOf } from "./chat-config-streaming.js";
import { ChatCoordination, type ReleaseHoldOptions } from "./chat-coordination.js";
import { ChatEvents } from "./chat-events.js";
import { ChatServices } from "./chat-services.js";
import { registerChatSingleton } from "./chat-singleton.js";
import { runWithDetachTimeout } from "./detach-timeout.js";
import { type EventWiring, wireEvents } from "./event-wiring.js";
import { Lifecycle } from "./lifecycle.js";
import { createReviver, type JsonReviver } from "./reviver.js";
import { type StrategyWiring, wireStrategy } from "./strategy-wiring.js";
import type { StreamingSettings } from "./stream-post.js";
import { type Thread, ThreadImpl } from "./thread.js";
import type { UserRef } from "./user-adapter.js";
import { type WebhookHandlers, webhookHandlers } from "./webhook-handlers.js";

/** Options of {@link Chat.shutdown}. */
export interface ShutdownOptions {
  /** The longest to wait for running handlers after their signals aborted. Default 10 000. */
  timeoutMs?: number;
}

/**
 * The Baton runtime, with upstream `chat`'s handler API. Construction validates the whole config
 * and throws one `ConfigError` listing every problem.
 */
export class Chat extends ChatEvents implements ChatHost {
  readonly webhooks: WebhookHandlers;
  private readonly config: ResolvedChatConfig;
  private readonly lifecycle: Lifecycle;
  /** Deliveries admitted and not finished; exposed for health checks and tests. */
  readonly admission: AdmissionBound;
  private readonly wiring: StrategyWiring;
  private readonly messages: MessageDispatcher;
  protected readonly eventWiring: EventWiring;
  private readonly coordination: ChatCoordination;
  private readonly services: ChatServices;
  /** The Chat's streaming options as threads read them, made on first use. */
  private streaming: StreamingSettings | undefined;

  constructor(config: ChatConfig) {
    super();
    this.config = resolveChatConfig(config);
    this.admission = new AdmissionBound({
      maxDetached: this.config.maxDetached,
      maxDetachedPerTenant: this.config.maxDetachedPerTenant,
      retryAfterMs: this.config.retryAfterMs,
    });
    for (const warning of this.config.warnings) this.config.logger.warn(warning);
    const threadFor = (adapter: Adapter, threadId: string, hints?: ThreadHints) =>
      this.threadOn(adapter, threadId, hints);
    this.coordination = new ChatCoordination({
      config: this.config,
      track: (work) => this.lifecycle.track(work),
      strategy: () => this.wiring.strategy,
    });
    this.services = new ChatServices(this.config, this.coordination);
    const { gate } = this.coordination;
    this.lifecycle = new Lifecycle(this.config, this, gate);
    const shutdownSignal = this.lifecycle.shutdownSignal;
    this.wiring = wireStrategy(this.config, this.registry, shutdownSignal, threadFor, gate, () =>
      this.coordination.sweepLapsedHolds(),
    );
    this.lifecycle.attach(this.wiring);
    this.messages = new MessageDispatcher({
      state: this.config.state,
      logger: this.config.logger,
      registry: this.wiring.deliveries,
      holders: this.wiring.holders,
      admission: this.admission,
      dedupeTtlMs: this.config.dedupeTtlMs,
      // hot path: the State's fused acceptAndAcquire, when the backend has it
      fastPath: {
        lockTtlMs: this.config.concurrency.lockTtlMs,
        now: () => this.config.clock.now(),
        turnEntryTtlMs: this.config.durableTurns ? this.config.concurrency.queueEntryTtlMs : 0,
      },
      lockScope: this.config.lockScope,
      strategy: () => this.wiring.strategy,
      isClosed: () => this.lifecycle.closed,
      beforeRun: (delivery) => this.services.recordIncoming(delivery.adapter, delivery.message),
      stateRetry: this.config.stateRetry
        ? { policy: this.config.stateRetry, clock: this.config.clock, shutdownSignal }
        : undefined,
    });
    this.eventWiring = wireEvents({
      config: this.config,
      registry: this.registry,
      lifecycle: this.lifecycle,
      gate,
      threadFor,
      channelFor: (adapter, channelId) => this.channelOn(adapter, channelId),
      registered: (adapter) => this.registered(adapter),
    });
    this.webhooks = webhookHandlers(this.config.adapters, () => this.initialize());
  }

  /** Connects the State and initializes every adapter; shared by concurrent callers, retried after a failure. */
  initialize(): Promise<void> {
    return this.lifecycle.initialize();
  }

  /**
   * Stops admission, aborts and awaits running handlers (bounded), then disconnects adapters and
   * the State as an exclusive action on every installation (`"all"`): no turn runs meanwhile.
   * Past `timeoutMs` it disconnects anyway. Idempotent.
   */
  shutdown(options: ShutdownOptions = {}): Promise<void> {
    return this.lifecycle.shutdown(options.timeoutMs ?? 10_000);
  }

  /**
   * Runs `fn` as an exclusive action (DESIGN §7.2): closes the turn gate of `scope` to new
   * turns, waits for admitted turns to finish, runs `fn` alone, reopens — also when `fn` throws.
   * Called inside a handler of a covered installation it upgrades: the handler's turn is lent to
   * the action and taken back before the gate reopens. Scope: `{ adapter, tenant }` (one
   * installation), `{ adapter }` (the adapter and all its tenants) or `"all"`.
   */
  withExclusive<T>(scope: GateScope, fn: () => T | Promise<T>): Promise<T> {
    return this.coordination.withExclusive(scope, fn);
  }

  /**
   * Like {@link withExclusive}, waiting at most `deadline` ms (by the Chat's clock). Resolves
   * `{ acquired: false, reason: "timeout" }`, or `"upgrade-conflict"` when called from a turn
   * while another exclusive action holds or awaits the gate; the action then never runs.
   */
  tryWithExclusive<T>(
    scope: GateScope,
    options: TryExclusiveOptions,
    fn: () => T | Promise<T>,
  ): Promise<ExclusiveAttempt<T>> {
    return this.coordination.tryWithExclusive(scope, options, fn);
  }

  /**
   * Runs `fn` as work that does not inherit the current turn: it never upgrades and waits at
   * closed gates like any outsider. Shutdown waits for it (bounded).
   */
  runDetached<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.coordination.runDetached(fn);
  }

  /**
   * Runs `fn(adapter)` — rotate credentials, re-initialize — as an exclusive action on every
   * installation of the adapter named `adapterName`: no handler of that adapter runs meanwhile.
   */
  reconfigure<T>(adapterName: string, fn: (adapter: Adapter) => T | Promise<T>): Promise<T> {
    return this.coordination.reconfigure(adapterName, fn);
  }

  /**
   * Runs `work` at most once to completion under `key` across every instance sharing the State;
   * see `Thread.once`. Claim key: `once:chat:{key}`.
   */
  once<T>(key: string, work: OnceWork<T>, options: OnceOptions): Promise<OnceResult<T>> {
    return this.coordination.onceForChat(key, work, options);
  }

  /**
   * Releases a hold (`thread.hold`) from any process, given its handle or its JSON. Resolves
   * false, doing nothing, for a stale handle (expired, released, or taken over). On success the
   * lock key's waiting messages are drained here unless `{ drain: false }`.
   */
  releaseHold(handle: HoldHandle | string, options?: ReleaseHoldOptions): Promise<boolean> {
    return this.coordination.releaseHold(handle, options);
  }

  /** Moves a hold's expiry to `ttlMs` from now; false for a stale handle (never resurrects). */
  extendHold(handle: HoldHandle | string, ttlMs: number): Promise<boolean> {
    return this.coordination.extendHold(handle, ttlMs);
  }

  /**
   * Registers a handler for holds that lapse (expire unreleased). Each lapse runs the handlers
   * of exactly one instance on the shared State: the first sweep to notice it (every
   * `sweepIntervalMs`, before that sweep drains the queue the hold kept back), or a
   * `releaseHold` that comes too late. Instances without a handler leave lapses to others.
   */
  onHoldLapsed(handler: HoldLapsedHandler): void {
    this.coordination.onHoldLapsed(handler);
  }

  /**
   * Registers a handler for poison turns (durable turns): a turn interrupted
   * `durableTurns.maxAttempts` times is not run again; its messages end `abandoned` and these
   * handlers run once, on the instance that found it, with the turn's latest message (e.g. to
   * apologise in the thread).
   */
  onTurnAbandoned(handler: MessageHandler<Thread>): void {
    this.registry.turnAbandoned.push(handler);
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

  /**
   * Dispatches an inbound message and resolves with its disposition once it is handled, skipped
   * into another run, dropped, errored or expired — or `queued` for a holder in another process.
   * Rejects with `AdmissionRejectedError` at the admission bound or during shutdown (nothing
   * written). Webhook adapters call {@link receiveMessage} instead, to answer in time.
   */
  processMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options: ProcessOptions = {},
  ): Promise<DeliveryResult> {
    const tenant = options.tenantId;
    if (this.lifecycle.ready) return this.acceptAndRun(adapter, threadId, message, tenant);
    return this.initialize().then(() => this.acceptAndRun(adapter, threadId, message, tenant));
  }

  /** `processMessage` after initialization, counted as work in flight until it ends. */
  private async acceptAndRun(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    tenant: string | undefined,
  ): Promise<DeliveryResult> {
    this.lifecycle.begin();
    try {
      const registered = this.registered(adapter);
      const accepted = await this.messages.accept(registered, threadId, message, tenant);
      if (isFinalResult(accepted)) return accepted;
      return await this.messages.run(accepted);
    } finally {
      this.lifecycle.end();
    }
  }

  async receiveMessage(
    adapter: Adapter,
    threadId: string,
    message: Message | (() => Promise<Message>),
    options: ProcessOptions = {},
  ): Promise<ReceiveResult> {
    if (!this.lifecycle.ready) await this.initialize();
    const accepted = await this.lifecycle.track(
      this.messages.accept(this.registered(adapter), threadId, message, options.tenantId),
    );
    if (isFinalResult(accepted)) return accepted;
    if (this.config.dispatch === "sync") return this.lifecycle.track(this.messages.run(accepted));
    // Detached from the caller's turn: a handler that posts a webhook must not lend it its turn.
    const { clock, detachTimeoutMs } = this.config;
    const detached = this.coordination.runDetached(() =>
      runWithDetachTimeout(this.messages, clock, detachTimeoutMs, accepted),
    );
    options.waitUntil?.(detached.then(noop, noop));
    return { outcome: "accepted" };
  }

  /** A handle on any thread, e.g. to post outside a handler. Throws for an unknown adapter prefix. */
  thread(threadId: string): Thread {
    return this.threadOn(this.adapterFor(threadId), threadId);
  }

  /** A handle on a channel id of the form `{adapter}:{…}`. */
  channel(channelId: string): Channel {
    return this.channelOn(this.adapterFor(channelId), channelId);
  }

  // history, people, serialization
  /**
   * Looks a user up (an id, or a message's `author`) on the one adapter whose `matchesUserId`
   * claims the id; `null` when the platform has no such user. Answers are cached in the State for
   * `userCacheTtlMs`, shared by every instance: at most one platform call per user per TTL.
   * Never called by dispatch, so no webhook answer waits for it. Rejects with a
   * `ValidationError` (no or several adapters claim the id), `NotSupportedError`, `AdapterError`.
   */
  async getUser(user: UserRef): Promise<UserInfo | null> {
    await this.initialize();
    return this.services.users.getUser(user);
  }

  /** Opens (or finds) the direct conversation with `user`, as a thread (`isDM` true). */
  async openDM(user: UserRef): Promise<Thread> {
    await this.initialize();
    return this.services.openDM(user);
  }

  /**
   * Makes this Chat the process's default for handles revived without one: the standalone
   * `reviver`, `ThreadImpl.fromJSON(json)` and the Workflow SDK deserializers bind to it on first
   * use. The last call wins; `clearChatSingleton()` forgets it.
   */
  registerSingleton(): this {
    registerChatSingleton(this.services.bindings);
    return this;
  }

  /**
   * A `JSON.parse` reviver that rebuilds serialized threads, channels and messages bound to this
   * Chat's adapters and State: `JSON.parse(payload, chat.reviver())`.
   */
  reviver(): JsonReviver {
    return createReviver(this.services.bindings);
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
      ...(hints.isDM === undefined ? {} : { isDM: hints.isDM }),
      ...(hints.signal ? { signal: hints.signal } : {}),
      streaming: (this.streaming ??= streamingSettingsOf(this.config)),
      coordination: this.coordination,
      history: this.services.history,
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
    if (adapter) return adapter;
    const message = `no adapter named "${name}" is registered (id ${JSON.stringify(id)})`;
    throw new ValidationError(message, { step: "find adapter for id" });
  }

  private registered(adapter: Adapter): Adapter {
    if (this.config.adapters[adapter?.name] === adapter) return adapter;
    const message = `adapter ${JSON.stringify(adapter?.name)} is not registered with this Chat`;
    throw new ValidationError(message, { step: "dispatch event" });
  }
}

function noop(): void {}
