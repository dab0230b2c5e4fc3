import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { Author } from "../model/author.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";
import { matchesActionId, matchesCommand, matchesEmoji } from "../routing/index.js";
import type { HandlerRegistry } from "./handler-registry.js";

/** What the non-message events need; the thread and channel factories come from the runtime. */
export interface EventDispatcherOptions<TThread, TChannel> {
  readonly registry: HandlerRegistry<TThread, TChannel>;
  readonly logger: Logger;
  readonly shutdownSignal: AbortSignal;
  threadFor(adapter: Adapter, threadId: string): TThread;
  channelFor(adapter: Adapter, channelId: string): TChannel;
}

/**
 * Dispatches actions, reactions, slash commands, edits and deletes. These take no lock and no
 * dedupe (upstream's behaviour): they are answers to the bot's own messages or commands, and each
 * handler runs once per event. Events caused by the bot itself are ignored. A handler error is
 * logged and the other handlers still run.
 */
export class EventDispatcher<TThread, TChannel> {
  constructor(private readonly options: EventDispatcherOptions<TThread, TChannel>) {}

  async action(adapter: Adapter, event: ActionEvent): Promise<void> {
    if (isSelf(event.user)) return;
    const thread = this.options.threadFor(adapter, event.threadId);
    const matching = this.options.registry.actions.filter((entry) =>
      matchesActionId(entry.filter, event.actionId),
    );
    await this.runAll("action", matching, (entry) => entry.handler({ ...event, thread, adapter }));
  }

  async reaction(adapter: Adapter, event: ReactionEvent): Promise<void> {
    if (isSelf(event.user)) return;
    const thread = this.options.threadFor(adapter, event.threadId);
    const matching = this.options.registry.reactions.filter((entry) =>
      matchesEmoji(entry.filter, event),
    );
    await this.runAll("reaction", matching, (entry) =>
      entry.handler({ ...event, thread, adapter }),
    );
  }

  async slashCommand(adapter: Adapter, event: SlashCommandEvent): Promise<void> {
    if (isSelf(event.user)) return;
    const channel = this.options.channelFor(adapter, event.channelId);
    const matching = this.options.registry.slashCommands.filter((entry) =>
      matchesCommand(entry.filter, event.command),
    );
    await this.runAll("slash command", matching, (entry) =>
      entry.handler({ ...event, channel, adapter }),
    );
  }

  async messageUpdated(adapter: Adapter, message: Message): Promise<void> {
    if (isSelf(message.author)) return;
    const thread = this.options.threadFor(adapter, message.threadId);
    const context = { skipped: [], totalSinceLastHandler: 1, signal: this.options.shutdownSignal };
    await this.runAll("message update", this.options.registry.messageUpdated, (handler) =>
      handler(thread, message, context),
    );
  }

  async messageDeleted(adapter: Adapter, event: MessageDeletedEvent): Promise<void> {
    const thread = this.options.threadFor(adapter, event.threadId);
    await this.runAll("message delete", this.options.registry.messageDeleted, (handler) =>
      handler({ ...event, thread, adapter }),
    );
  }

  private async runAll<T>(what: string, entries: readonly T[], run: (entry: T) => unknown) {
    for (const entry of entries) {
      try {
        await run(entry);
      } catch (error) {
        this.options.logger.error(`${what} handler failed`, { error });
      }
    }
  }
}

function isSelf(author: Author | undefined): boolean {
  return author?.isMe === true;
}
