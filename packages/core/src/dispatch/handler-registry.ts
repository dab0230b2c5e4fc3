import type { Adapter } from "../contracts/adapter.js";
import type { MessageContext } from "../model/context.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";

/** A message handler: `(thread, message, context)`, as upstream. */
export type MessageHandler<TThread> = (
  thread: TThread,
  message: Message,
  context: MessageContext,
) => unknown;

/** A reaction as a handler sees it: the event plus the thread it happened in. */
export type ReactionHandlerEvent<TThread> = ReactionEvent & { thread: TThread; adapter: Adapter };
/** An action as a handler sees it. */
export type ActionHandlerEvent<TThread> = ActionEvent & { thread: TThread; adapter: Adapter };
/** A slash command as a handler sees it; `channel` posts to where the command was typed. */
export type SlashCommandHandlerEvent<TChannel> = SlashCommandEvent & {
  channel: TChannel;
  adapter: Adapter;
};
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
 * in that order.
 */
export class HandlerRegistry<TThread, TChannel> {
  readonly mention: MessageHandler<TThread>[] = [];
  readonly directMessage: MessageHandler<TThread>[] = [];
  readonly subscribed: MessageHandler<TThread>[] = [];
  readonly patterns: Array<{ pattern: RegExp; handler: MessageHandler<TThread> }> = [];
  readonly reactions: Array<
    Filtered<readonly string[], (event: ReactionHandlerEvent<TThread>) => unknown>
  > = [];
  readonly actions: Array<
    Filtered<readonly string[], (event: ActionHandlerEvent<TThread>) => unknown>
  > = [];
  readonly slashCommands: Array<
    Filtered<readonly string[], (event: SlashCommandHandlerEvent<TChannel>) => unknown>
  > = [];
  readonly messageUpdated: MessageHandler<TThread>[] = [];
  readonly messageDeleted: Array<(event: MessageDeletedHandlerEvent<TThread>) => unknown> = [];
}
