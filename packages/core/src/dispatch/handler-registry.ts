import type { EmojiValue } from "../content/emoji/emoji-value.js";
import type { ChatElement } from "../content/jsx/index.js";
import type { ModalElement, ModalResponse } from "../content/modals/index.js";
import type { Adapter } from "../contracts/adapter.js";
import type { MessageContext, MessageUpdatedContext } from "../model/context.js";
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

/** A message handler: `(thread, message, context)`, as upstream. */
export type MessageHandler<TThread> = (
  thread: TThread,
  message: Message,
  context: MessageContext,
) => unknown;

/** An `onMessageUpdated` handler: the edited message and, where known, the one before. */
export type MessageUpdatedHandler<TThread> = (
  thread: TThread,
  message: Message,
  context: MessageUpdatedContext,
) => unknown;

/** A reaction as a handler sees it: the event plus the thread it happened in. */
export type ReactionHandlerEvent<TThread> = Omit<ReactionEvent, "emoji"> & {
  /** The emoji as its singleton `EmojiValue`, whatever form the adapter gave. */
  emoji: EmojiValue;
  thread: TThread;
  adapter: Adapter;
};
/** What `onReaction` filters on: emoji names, raw spellings, or `EmojiValue`s. */
export type EmojiFilter = string | EmojiValue | readonly (string | EmojiValue)[];
/**
 * Opens `modal` in reply to the event that carries this function, through the adapter's
 * `openModal`. Resolves with the platform's view id, or `undefined` (logged as a warning) when
 * the event carries no trigger id. `modal` is a modal element or a JSX `<Modal>`. Throws a
 * `NotSupportedError` when the adapter cannot open modals, and a `ValidationError` when `modal`
 * is neither.
 */
export type OpenModal = (
  modal: ModalElement | ChatElement,
) => Promise<{ viewId: string } | undefined>;

/**
 * An action as a handler sees it. `thread` is `null` for an action outside any conversation
 * (a button on Slack's Home tab: the event's `threadId` is empty).
 */
export type ActionHandlerEvent<TThread> = ActionEvent & {
  thread: TThread | null;
  adapter: Adapter;
  openModal: OpenModal;
};
/** A slash command as a handler sees it; `channel` posts to where the command was typed. */
export type SlashCommandHandlerEvent<TChannel> = SlashCommandEvent & {
  channel: TChannel;
  adapter: Adapter;
  openModal: OpenModal;
};

/**
 * Where a modal was opened from, as its submit and close handlers see it: `relatedThread` and
 * `relatedMessage` when an action opened it, `relatedChannel` for actions and slash commands.
 * All three are absent when the adapter passed no context id, or the context expired.
 */
export interface ModalOrigin<TThread, TChannel, TMessage> {
  relatedThread?: TThread;
  relatedChannel?: TChannel;
  relatedMessage?: TMessage;
}
/** A modal submit as a handler sees it. */
export type ModalSubmitHandlerEvent<TThread, TChannel, TMessage> = ModalSubmitEvent &
  ModalOrigin<TThread, TChannel, TMessage> & { adapter: Adapter };
/** A modal close as a handler sees it. */
export type ModalCloseHandlerEvent<TThread, TChannel, TMessage> = ModalCloseEvent &
  ModalOrigin<TThread, TChannel, TMessage> & { adapter: Adapter };
/** A dynamic select's options request as a handler sees it. */
export type OptionsLoadHandlerEvent = OptionsLoadEvent & { adapter: Adapter };

/** Answers a modal submit: a {@link ModalResponse}, or nothing to close the modal. */
export type ModalSubmitHandler<TThread, TChannel, TMessage> = (
  event: ModalSubmitHandlerEvent<TThread, TChannel, TMessage>,
) => ModalResponse | undefined | void | Promise<ModalResponse | undefined | void>;
/** Answers a dynamic select with its options; nothing lets the next handler answer. */
export type OptionsLoadHandler = (
  event: OptionsLoadHandlerEvent,
) => OptionsLoadResult | undefined | void | Promise<OptionsLoadResult | undefined | void>;
/** A deleted message as a handler sees it. */
export type MessageDeletedHandlerEvent<TThread> = MessageDeletedEvent & {
  thread: TThread;
  adapter: Adapter;
};

/** A handler with an optional filter (emoji, action ids, commands). */
export interface Filtered<TFilter, THandler> {
  readonly filter: TFilter | undefined;
  readonly handler: THandler;
}

/**
 * Every registered handler, per hook, in registration order. Several handlers per hook all run,
 * in that order. `TMessage`, the related message of a modal, defaults to `never` so that code
 * which never reads modal handlers (the message pipeline) accepts a registry of any message type.
 */
export class HandlerRegistry<TThread, TChannel, TMessage = never> {
  readonly mention: MessageHandler<TThread>[] = [];
  readonly directMessage: MessageHandler<TThread>[] = [];
  readonly subscribed: MessageHandler<TThread>[] = [];
  readonly patterns: Array<{ pattern: RegExp; handler: MessageHandler<TThread> }> = [];
  readonly reactions: Array<
    Filtered<EmojiFilter, (event: ReactionHandlerEvent<TThread>) => unknown>
  > = [];
  readonly actions: Array<
    Filtered<readonly string[], (event: ActionHandlerEvent<TThread>) => unknown>
  > = [];
  readonly slashCommands: Array<
    Filtered<readonly string[], (event: SlashCommandHandlerEvent<TChannel>) => unknown>
  > = [];
  readonly messageUpdated: MessageUpdatedHandler<TThread>[] = [];
  /** `onTurnAbandoned`: run once for a turn past `durableTurns.maxAttempts` (DESIGN §6.1). */
  readonly turnAbandoned: MessageHandler<TThread>[] = [];
  readonly messageDeleted: Array<(event: MessageDeletedHandlerEvent<TThread>) => unknown> = [];
  readonly modalSubmit: Array<
    Filtered<readonly string[], ModalSubmitHandler<TThread, TChannel, TMessage>>
  > = [];
  readonly modalClose: Array<
    Filtered<
      readonly string[],
      (event: ModalCloseHandlerEvent<TThread, TChannel, TMessage>) => unknown
    >
  > = [];
  readonly optionsLoad: Array<Filtered<readonly string[], OptionsLoadHandler>> = [];
}
