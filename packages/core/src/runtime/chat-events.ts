import type { ModalResponse } from "../content/modals/index.js";
import type { Adapter, InteractionOptions, ProcessOptions } from "../contracts/adapter.js";
import {
  type ActionHandlerEvent,
  type EmojiFilter,
  HandlerRegistry,
  type MessageDeletedHandlerEvent,
  type MessageHandler,
  type MessageUpdatedHandler,
  type ModalCloseHandlerEvent,
  type ModalSubmitHandler,
  type OptionsLoadHandler,
  type ReactionHandlerEvent,
  type SlashCommandHandlerEvent,
} from "../dispatch/handler-registry.js";
import type {
  AppContextChangedEvent,
  AppHomeOpenedEvent,
  AssistantContextChangedEvent,
  AssistantThreadStartedEvent,
  MemberJoinedChannelEvent,
} from "../model/assistant-events.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ModalCloseEvent,
  ModalSubmitEvent,
  OptionsLoadEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";
import type { OptionsLoadResult } from "../model/options-load-result.js";
import { AssistantHandlers, runAssistantHandlers, type WithAdapter } from "./assistant-handlers.js";
import type { Channel } from "./channel.js";
import type { EventWiring } from "./event-wiring.js";
import { filtered } from "./handler-filters.js";
import type { SentMessage } from "./sent-message.js";
import type { Thread } from "./thread.js";

type Filter = string | readonly string[];

/** A modal submit handler of a `Chat`: `related*` are its own Thread, Channel and message handles. */
export type ChatModalSubmitHandler = ModalSubmitHandler<Thread, Channel, SentMessage>;
/** A modal close event as a `Chat`'s handler sees it. */
export type ChatModalCloseEvent = ModalCloseHandlerEvent<Thread, Channel, SentMessage>;

/**
 * The part of `Chat` for events other than new messages — reactions, actions, slash commands,
 * modals, dynamic selects, edits and deletes: the hooks that register handlers, with upstream's
 * names and overloads, and the `ChatHost` entry points adapters call. A filter is one id or a
 * list; none (or an empty list) selects every event. Several handlers per hook run in
 * registration order. Registering without a handler function throws a `ValidationError`.
 *
 * Each entry point runs the event's handlers as one turn of its installation (DESIGN §7.2),
 * refuses events once shutdown began (`AdmissionRejectedError`) and logs a handler that throws
 * without failing the call. Events take no lock and no dedupe, as upstream.
 */
export abstract class ChatEvents {
  protected readonly registry = new HandlerRegistry<Thread, Channel, SentMessage>();
  protected readonly assistantHandlers = new AssistantHandlers();
  /** The dispatchers and turns, built by `Chat` once its config and lifecycle exist. */
  protected abstract readonly eventWiring: EventWiring;

  /**
   * Reactions added or removed; a filter entry matches an `EmojiValue`, the normalized name or
   * the raw emoji.
   */
  onReaction(handler: (event: ReactionHandlerEvent<Thread>) => unknown): void;
  onReaction(emoji: EmojiFilter, handler: (event: ReactionHandlerEvent<Thread>) => unknown): void;
  onReaction(...args: unknown[]): void {
    this.registry.reactions.push(filtered(args));
  }

  /** Button clicks and select changes; `event.openModal` opens a modal in reply. */
  onAction(handler: (event: ActionHandlerEvent<Thread>) => unknown): void;
  onAction(ids: Filter, handler: (event: ActionHandlerEvent<Thread>) => unknown): void;
  onAction(...args: unknown[]): void {
    this.registry.actions.push(filtered(args));
  }

  /** Slash commands (`help` and `/help` both match `/help`); `event.openModal` opens a modal. */
  onSlashCommand(handler: (event: SlashCommandHandlerEvent<Channel>) => unknown): void;
  onSlashCommand(
    commands: Filter,
    handler: (event: SlashCommandHandlerEvent<Channel>) => unknown,
  ): void;
  onSlashCommand(...args: unknown[]): void {
    this.registry.slashCommands.push(filtered(args));
  }

  /**
   * Modal submits, by the modal's `callbackId`. The first handler that answers — with
   * `{ action: "errors", errors }` to show validation errors, `"update"`, `"push"` or `"close"`
   * — ends the search, and its answer is what the adapter sends the platform.
   */
  onModalSubmit(handler: ChatModalSubmitHandler): void;
  onModalSubmit(callbackIds: Filter, handler: ChatModalSubmitHandler): void;
  onModalSubmit(...args: unknown[]): void {
    this.registry.modalSubmit.push(filtered(args));
  }

  /** Modals closed or cancelled by the user (for modals opened with `notifyOnClose`). */
  onModalClose(handler: (event: ChatModalCloseEvent) => unknown): void;
  onModalClose(callbackIds: Filter, handler: (event: ChatModalCloseEvent) => unknown): void;
  onModalClose(...args: unknown[]): void {
    this.registry.modalClose.push(filtered(args));
  }

  /**
   * Options of dynamic selects, by the select's action id. Handlers for the id are asked before
   * the catch-alls; the first that answers wins.
   */
  onOptionsLoad(handler: OptionsLoadHandler): void;
  onOptionsLoad(actionIds: Filter, handler: OptionsLoadHandler): void;
  onOptionsLoad(...args: unknown[]): void {
    this.registry.optionsLoad.push(filtered(args));
  }

  /**
   * Edits of messages; the handler gets the edited message, outside normal routing, and in its
   * context the message before the edit when the platform sent it (`previousMessage`).
   */
  onMessageUpdated(handler: MessageUpdatedHandler<Thread>): void {
    this.registry.messageUpdated.push(handler);
  }

  /** Deletions of messages. */
  onMessageDeleted(handler: (event: MessageDeletedHandlerEvent<Thread>) => unknown): void {
    this.registry.messageDeleted.push(handler);
  }

  /** A user opened an assistant thread (Slack's AI assistant surface). */
  onAssistantThreadStarted(
    handler: (event: WithAdapter<AssistantThreadStartedEvent>) => unknown,
  ): void {
    this.assistantHandlers.threadStarted.push(handler);
  }

  /** The user moved elsewhere while an assistant thread is open. */
  onAssistantContextChanged(
    handler: (event: WithAdapter<AssistantContextChangedEvent>) => unknown,
  ): void {
    this.assistantHandlers.contextChanged.push(handler);
  }

  /** A user opened the app's home (its Home or Messages tab). */
  onAppHomeOpened(handler: (event: WithAdapter<AppHomeOpenedEvent>) => unknown): void {
    this.assistantHandlers.appHomeOpened.push(handler);
  }

  /** What the user is looking at changed while they talk to the agent. */
  onAppContextChanged(handler: (event: WithAdapter<AppContextChangedEvent>) => unknown): void {
    this.assistantHandlers.appContextChanged.push(handler);
  }

  /** A user joined a channel the bot is in. */
  onMemberJoinedChannel(handler: (event: WithAdapter<MemberJoinedChannelEvent>) => unknown): void {
    this.assistantHandlers.memberJoined.push(handler);
  }

  processAssistantThreadStarted(
    adapter: Adapter,
    event: AssistantThreadStartedEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.runAssistant(this.assistantHandlers.threadStarted, adapter, event, options);
  }

  processAssistantContextChanged(
    adapter: Adapter,
    event: AssistantContextChangedEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.runAssistant(this.assistantHandlers.contextChanged, adapter, event, options);
  }

  processAppHomeOpened(
    adapter: Adapter,
    event: AppHomeOpenedEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.runAssistant(this.assistantHandlers.appHomeOpened, adapter, event, options);
  }

  processAppContextChanged(
    adapter: Adapter,
    event: AppContextChangedEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.runAssistant(this.assistantHandlers.appContextChanged, adapter, event, options);
  }

  processMemberJoinedChannel(
    adapter: Adapter,
    event: MemberJoinedChannelEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.runAssistant(this.assistantHandlers.memberJoined, adapter, event, options);
  }

  private runAssistant<T>(
    handlers: readonly ((event: WithAdapter<T>) => unknown)[],
    adapter: Adapter,
    event: T,
    options: ProcessOptions | undefined,
  ): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      runAssistantHandlers(
        handlers,
        { ...event, adapter: registered },
        this.eventWiring.logger,
        "assistant event",
      ),
    );
  }

  processAction(adapter: Adapter, event: ActionEvent, options?: ProcessOptions): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      this.eventWiring.events.action(registered, event),
    );
  }

  processReaction(adapter: Adapter, event: ReactionEvent, options?: ProcessOptions): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      this.eventWiring.events.reaction(registered, event),
    );
  }

  processSlashCommand(
    adapter: Adapter,
    event: SlashCommandEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      this.eventWiring.events.slashCommand(registered, event),
    );
  }

  processMessageUpdated(
    adapter: Adapter,
    message: Message,
    options?: ProcessOptions,
    previousMessage?: Message,
  ): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      this.eventWiring.events.messageUpdated(registered, message, previousMessage),
    );
  }

  processMessageDeleted(
    adapter: Adapter,
    event: MessageDeletedEvent,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      this.eventWiring.events.messageDeleted(registered, event),
    );
  }

  processModalSubmit(
    adapter: Adapter,
    event: ModalSubmitEvent,
    contextId?: string,
    options?: InteractionOptions,
  ): Promise<ModalResponse | undefined> {
    return this.eventWiring.turns.runWithin("modal submit", adapter, options, (registered) =>
      this.eventWiring.interactions.modalSubmit(registered, event, contextId, options),
    );
  }

  processModalClose(
    adapter: Adapter,
    event: ModalCloseEvent,
    contextId?: string,
    options?: ProcessOptions,
  ): Promise<void> {
    return this.eventWiring.turns.run(adapter, options, (registered) =>
      this.eventWiring.interactions.modalClose(registered, event, contextId),
    );
  }

  processOptionsLoad(
    adapter: Adapter,
    event: OptionsLoadEvent,
    options?: InteractionOptions,
  ): Promise<OptionsLoadResult | undefined> {
    return this.eventWiring.turns.runWithin("options load", adapter, options, (registered) =>
      this.eventWiring.interactions.optionsLoad(registered, event),
    );
  }
}
