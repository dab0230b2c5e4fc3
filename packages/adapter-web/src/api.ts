import {
  AdapterError,
  type AdapterPostableMessage,
  type Author,
  type FetchMessagesOptions,
  type FetchMessagesResult,
  Message,
  type RawMessage,
} from "@baton/core";
import type { WebEventHub } from "./event-stream.js";
import { toWebText, toWireMessage, type WebEvent } from "./format.js";
import type { KeptMessage, WebHistory } from "./history.js";

/** What the platform needs to know about the adapter it serves. */
export interface WebPlatformOptions {
  adapterName: string;
  bot: Author;
  history: WebHistory;
  hub: WebEventHub;
  now: () => number;
  /** The user a thread belongs to (validates the thread id). */
  userOf(threadId: string): string;
}

/**
 * The web adapter's "platform": where a post lands and how browsers learn of it. Every change
 * is kept in the per-thread history (so pages that reconnect and `fetchMessages` see it) and
 * published to the thread user's open streams, in that order.
 */
export class WebPlatform {
  constructor(private readonly options: WebPlatformOptions) {}

  /** A sequence number for an inbound message, taken when it arrives (see {@link recordInbound}). */
  reserveSeq(): number {
    return this.options.hub.nextSeq();
  }

  /**
   * Keeps and publishes a message a user sent, once the runtime accepted it. `arrivalSeq` was
   * reserved on arrival, so the message sorts before any reply to it even when the reply was
   * published first (sync dispatch answers only after the handler).
   */
  recordInbound(message: Message, arrivalSeq: number): void {
    const kept: KeptMessage = { seq: arrivalSeq, message, format: "plain", reactions: new Set() };
    this.options.history.add(kept);
    const seq = this.options.hub.nextSeq();
    this.publish(message.threadId, {
      type: "message",
      seq,
      threadId: message.threadId,
      message: wire(kept),
    });
  }

  /** Posts as the bot. An ephemeral post is published but not kept: a reload forgets it. */
  post(threadId: string, content: AdapterPostableMessage, ephemeral = false): RawMessage {
    const { text, format } = toWebText(content);
    const userId = this.options.userOf(threadId);
    const seq = this.options.hub.nextSeq();
    const message = new Message({
      id: `${ephemeral ? "e" : "b"}-${crypto.randomUUID()}`,
      threadId,
      text,
      author: { ...this.options.bot },
      metadata: { dateSent: new Date(this.options.now()), edited: false },
      isMention: false,
    });
    const kept: KeptMessage = { seq, message, format, reactions: new Set() };
    if (!ephemeral) this.options.history.add(kept);
    const payload = ephemeral ? { ...wire(kept), ephemeral: true } : wire(kept);
    this.options.hub.publish(userId, { type: "message", seq, threadId, message: payload });
    return { id: message.id, threadId };
  }

  /** Replaces the text of one of the bot's kept messages. */
  edit(threadId: string, messageId: string, content: AdapterPostableMessage): RawMessage {
    const step = `edit message ${messageId} in ${threadId}`;
    const kept = this.require(threadId, messageId, step);
    if (!kept.message.author.isMe) {
      throw new AdapterError(this.options.adapterName, "the bot can edit only its own messages", {
        step,
      });
    }
    const { text, format } = toWebText(content);
    const now = new Date(this.options.now());
    const before = kept.message;
    kept.message = new Message({
      id: before.id,
      threadId,
      text,
      author: before.author,
      metadata: { dateSent: before.metadata.dateSent, edited: true, editedAt: now },
      attachments: before.attachments,
      isMention: false,
    });
    kept.format = format;
    const seq = this.options.hub.nextSeq();
    this.publish(threadId, { type: "edit", seq, threadId, message: wire(kept) });
    return { id: messageId, threadId };
  }

  /** Deletes a kept message, the bot's or a user's (moderation). */
  remove(threadId: string, messageId: string): void {
    const step = `delete message ${messageId} in ${threadId}`;
    this.require(threadId, messageId, step);
    this.options.history.remove(threadId, messageId);
    this.publish(threadId, {
      type: "delete",
      seq: this.options.hub.nextSeq(),
      threadId,
      messageId,
    });
  }

  /** Adds or removes one of the bot's reactions; doing what is already done changes nothing. */
  react(threadId: string, messageId: string, emoji: string, added: boolean): void {
    const verb = added ? "add reaction to" : "remove reaction from";
    const kept = this.require(threadId, messageId, `${verb} message ${messageId} in ${threadId}`);
    if (kept.reactions.has(emoji) === added) return;
    if (added) kept.reactions.add(emoji);
    else kept.reactions.delete(emoji);
    const seq = this.options.hub.nextSeq();
    this.publish(threadId, { type: "reaction", seq, threadId, messageId, emoji, added });
  }

  /** Tells the thread's pages the bot is typing; not kept (it is stale a moment later). */
  typing(threadId: string, status?: string): void {
    this.options.userOf(threadId);
    const seq = this.options.hub.nextSeq();
    const event: WebEvent & { threadId: string } =
      status === undefined
        ? { type: "typing", seq, threadId }
        : { type: "typing", seq, threadId, status };
    this.publish(threadId, event);
  }

  /** One page of kept history, newest first. */
  page(threadId: string, options?: FetchMessagesOptions): FetchMessagesResult {
    this.options.userOf(threadId);
    return this.options.history.page(threadId, options);
  }

  /**
   * What a page that (re)connects needs: a snapshot of each of the user's threads with kept
   * messages (or of `threadId` alone), current at the hub's latest sequence number.
   */
  snapshots(userId: string, threadId?: string): WebEvent[] {
    const seq = this.options.hub.currentSeq;
    const threads = threadId === undefined ? this.options.history.threadsOf(userId) : [threadId];
    return threads.map((id) => ({
      type: "snapshot",
      seq,
      threadId: id,
      messages: this.options.history.messagesOf(id).map(wire),
    }));
  }

  private require(threadId: string, messageId: string, step: string): KeptMessage {
    this.options.userOf(threadId);
    const kept = this.options.history.find(threadId, messageId);
    if (!kept) {
      throw new AdapterError(
        this.options.adapterName,
        `no message ${JSON.stringify(messageId)} in this thread (never posted, deleted, or older than the kept history)`,
        { step },
      );
    }
    return kept;
  }

  private publish(threadId: string, event: WebEvent & { threadId: string }): void {
    this.options.hub.publish(this.options.userOf(threadId), event);
  }
}

function wire(kept: KeptMessage) {
  return toWireMessage(kept);
}
