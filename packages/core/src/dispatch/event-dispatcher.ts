import { type EmojiValue, getEmoji } from "../content/emoji/emoji-value.js";
import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { Author } from "../model/author.js";
import type { MessageUpdatedContext } from "../model/context.js";
import type {
  ActionEvent,
  MessageDeletedEvent,
  ReactionEvent,
  SlashCommandEvent,
} from "../model/events.js";
import type { Message } from "../model/message.js";
import { matchesActionId, matchesCommand, matchesEmoji } from "../routing/index.js";
import { runInConversation } from "./active-conversation.js";
import { postToCallbackUrl, type ResolvedCallback } from "./callback-post.js";
import type { EmojiFilter, HandlerRegistry } from "./handler-registry.js";
import type { ModalContexts } from "./modal-context.js";
import { modalOpener } from "./modal-opener.js";

/** What the non-message events need; the thread and channel factories come from the runtime. */
export interface EventDispatcherOptions<TThread, TChannel> {
  readonly registry: HandlerRegistry<TThread, TChannel>;
  readonly logger: Logger;
  readonly shutdownSignal: AbortSignal;
  /**
   * The callback of a button posted with a `callbackUrl` whose click this is, or `null` (no
   * token in the value, unknown or expired token, a click from elsewhere than where it was
   * posted). May reject when the State fails.
   */
  resolveCallback(adapter: Adapter, event: ActionEvent): Promise<ResolvedCallback | null>;
  /** The `fetch` used for callback URLs; the global one by default. */
  readonly fetch?: typeof fetch;
  /** Where `openModal` keeps each modal's origin for its submit. */
  readonly modalContexts: ModalContexts;
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

  /**
   * An action outside any conversation (an empty `threadId`, e.g. a Home tab button) gets
   * `thread: null`; its `openModal` still works, and the modal's submit then has no related
   * thread or channel. A button posted with a `callbackUrl` carries a token as its value: the
   * handlers see the button's own value instead, and the click is POSTed to the URL alongside
   * them; the call resolves once both are done.
   */
  async action(adapter: Adapter, incoming: ActionEvent): Promise<void> {
    if (isSelf(incoming.user)) return;
    const callback = await this.callbackOf(adapter, incoming);
    const event = callback ? withValue(incoming, callback.originalValue) : incoming;
    const posted = callback ? this.postAction(callback.url, event) : undefined;
    const thread = event.threadId ? this.options.threadFor(adapter, event.threadId) : null;
    const origin = event.threadId
      ? {
          threadId: event.threadId,
          channelId: adapter.channelIdFromThreadId(event.threadId),
          ...(event.messageId ? { messageId: event.messageId } : {}),
        }
      : {};
    const openModal = modalOpener(this.modalDeps(), adapter, event.triggerId, origin);
    const matching = this.options.registry.actions.filter((entry) =>
      matchesActionId(entry.filter, event.actionId),
    );
    await this.runAll(
      "action",
      matching,
      (entry) => entry.handler({ ...event, thread, adapter, openModal }),
      event.threadId || undefined,
    );
    await posted;
  }

  private async callbackOf(adapter: Adapter, event: ActionEvent): Promise<ResolvedCallback | null> {
    try {
      return await this.options.resolveCallback(adapter, event);
    } catch (error) {
      // The handlers still run, seeing the token as the value.
      this.options.logger.error("reading a button's callback failed", {
        actionId: event.actionId,
        error,
      });
      return null;
    }
  }

  private async postAction(callbackUrl: string, event: ActionEvent): Promise<void> {
    const payload = {
      type: "action",
      actionId: event.actionId,
      value: event.value,
      user: { id: event.user.userId, name: event.user.userName },
      threadId: event.threadId,
      messageId: event.messageId,
    };
    const { error } = await postToCallbackUrl(callbackUrl, payload, this.options.fetch);
    if (error) {
      this.options.logger.error("button callbackUrl POST failed", {
        callbackUrl,
        actionId: event.actionId,
        error,
      });
    }
  }

  /**
   * A filter entry matches by `EmojiValue` identity, normalized name or raw spelling; handlers
   * get the emoji as its `EmojiValue`.
   */
  async reaction(adapter: Adapter, incoming: ReactionEvent): Promise<void> {
    if (isSelf(incoming.user)) return;
    const emoji = typeof incoming.emoji === "string" ? getEmoji(incoming.emoji) : incoming.emoji;
    const event = { ...incoming, emoji };
    const thread = this.options.threadFor(adapter, event.threadId);
    const matching = this.options.registry.reactions.filter((entry) =>
      matchesEmoji(emojiNames(entry.filter), { emoji: emoji.name, rawEmoji: event.rawEmoji }),
    );
    await this.runAll(
      "reaction",
      matching,
      (entry) => entry.handler({ ...event, thread, adapter }),
      event.threadId,
    );
  }

  async slashCommand(adapter: Adapter, event: SlashCommandEvent): Promise<void> {
    if (isSelf(event.user)) return;
    const channel = this.options.channelFor(adapter, event.channelId);
    const openModal = modalOpener(this.modalDeps(), adapter, event.triggerId, {
      channelId: event.channelId,
    });
    const matching = this.options.registry.slashCommands.filter((entry) =>
      matchesCommand(entry.filter, event.command),
    );
    await this.runAll(
      "slash command",
      matching,
      (entry) => entry.handler({ ...event, channel, adapter, openModal }),
      event.channelId,
    );
  }

  async messageUpdated(adapter: Adapter, message: Message, previous?: Message): Promise<void> {
    if (isSelf(message.author)) return;
    const thread = this.options.threadFor(adapter, message.threadId);
    const context: MessageUpdatedContext = {
      skipped: [],
      totalSinceLastHandler: 1,
      signal: this.options.shutdownSignal,
      // An edit is not a turn under a lock: it has no record and is never run again.
      attempt: 1,
      ...(previous === undefined ? {} : { previousMessage: previous }),
    };
    await this.runAll(
      "message update",
      this.options.registry.messageUpdated,
      (handler) => handler(thread, message, context),
      message.threadId,
    );
  }

  async messageDeleted(adapter: Adapter, event: MessageDeletedEvent): Promise<void> {
    const thread = this.options.threadFor(adapter, event.threadId);
    await this.runAll(
      "message delete",
      this.options.registry.messageDeleted,
      (handler) => handler({ ...event, thread, adapter }),
      event.threadId,
    );
  }

  private modalDeps() {
    return { contexts: this.options.modalContexts, logger: this.options.logger };
  }

  /**
   * Runs the handlers one after another inside `conversationId` (the event's thread or channel),
   * so code they call — the AI tools — knows which conversation is being handled.
   */
  private async runAll<T>(
    what: string,
    entries: readonly T[],
    run: (entry: T) => unknown,
    conversationId?: string,
  ) {
    for (const entry of entries) {
      try {
        await runInConversation(conversationId, () => run(entry));
      } catch (error) {
        this.options.logger.error(`${what} handler failed`, { error });
      }
    }
  }
}

/** The names in an emoji filter (an `EmojiValue` is a singleton, so its name is its identity). */
function emojiNames(filter: EmojiFilter | undefined): string[] | undefined {
  if (filter === undefined) return undefined;
  const list = typeof filter === "string" || !Array.isArray(filter) ? [filter] : filter;
  return (list as (string | EmojiValue)[]).map((item) =>
    typeof item === "string" ? item : item.name,
  );
}

function withValue(event: ActionEvent, value: string | undefined): ActionEvent {
  const { value: _token, ...rest } = event;
  return value === undefined ? rest : { ...rest, value };
}

function isSelf(author: Author | undefined): boolean {
  return author?.isMe === true;
}
