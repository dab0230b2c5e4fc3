import {
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type Message,
  ValidationError,
} from "@baton/core";
import type { WebTextFormat } from "./format.js";

/** A message kept for a thread, with what the wire form needs besides the `Message`. */
export interface KeptMessage {
  /** The hub sequence number of the event that added it; breaks ties of equal `dateSent`. */
  seq: number;
  message: Message;
  format: WebTextFormat;
  /** The bot's reactions, in the order added. */
  reactions: Set<string>;
}

/** The largest page `fetchMessages` serves, whatever `limit` asks for. */
export const MAX_PAGE_SIZE = 100;

/**
 * The last messages of each thread, oldest first by (`dateSent`, `seq`), bounded per thread and
 * in the number of threads (least recently active forgotten first), so memory stays bounded
 * whatever the browsers send. Lookups by user list the threads one page may show.
 */
export class WebHistory {
  /** Map order is activity order: a touched thread is moved to the end. */
  private readonly threads = new Map<string, KeptMessage[]>();
  private readonly threadsByUser = new Map<string, Set<string>>();

  constructor(
    private readonly historyLimit: number,
    private readonly maxThreads: number,
    private readonly userOf: (threadId: string) => string,
  ) {}

  /** Keeps `kept` in its thread, in time order; a message with the same id is replaced. */
  add(kept: KeptMessage): void {
    const threadId = kept.message.threadId;
    const list = this.touch(threadId).filter((entry) => entry.message.id !== kept.message.id);
    const at = list.findIndex((entry) => compare(entry, kept) > 0);
    list.splice(at === -1 ? list.length : at, 0, kept);
    // Oldest first: trimming the front keeps the newest `historyLimit`.
    if (list.length > this.historyLimit) list.splice(0, list.length - this.historyLimit);
    this.threads.set(threadId, list);
  }

  /** The kept message, or `undefined` when it was never kept, deleted or trimmed. */
  find(threadId: string, messageId: string): KeptMessage | undefined {
    return this.threads.get(threadId)?.find((entry) => entry.message.id === messageId);
  }

  /** Replaces the message of a kept entry in place (an edit keeps its position). */
  replace(threadId: string, messageId: string, message: Message): KeptMessage | undefined {
    const entry = this.find(threadId, messageId);
    if (entry) entry.message = message;
    return entry;
  }

  /** Forgets a message; true when it was kept. */
  remove(threadId: string, messageId: string): boolean {
    const list = this.threads.get(threadId);
    const at = list?.findIndex((entry) => entry.message.id === messageId) ?? -1;
    if (!list || at === -1) return false;
    list.splice(at, 1);
    return true;
  }

  /** The kept messages of a thread, oldest first. */
  messagesOf(threadId: string): readonly KeptMessage[] {
    return this.threads.get(threadId) ?? [];
  }

  /** The user's threads that have kept messages, least recently active first. */
  threadsOf(userId: string): string[] {
    const own = this.threadsByUser.get(userId);
    return own ? [...this.threads.keys()].filter((threadId) => own.has(threadId)) : [];
  }

  /**
   * One page of a thread, newest first. The cursor names the oldest message of the previous
   * page by its sort key, so a message deleted or trimmed meanwhile does not break the walk.
   */
  page(threadId: string, options: FetchMessagesOptions = {}): FetchMessagesResult {
    const step = `fetch messages of ${threadId}`;
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ValidationError(`limit must be a positive integer, got ${limit}`, { step });
    }
    const newestFirst = [...this.messagesOf(threadId)].reverse();
    const after = options.cursor === undefined ? undefined : parseCursor(options.cursor, step);
    const rest = after ? newestFirst.filter((entry) => compare(entry, after) < 0) : newestFirst;
    const page = rest.slice(0, Math.min(limit, MAX_PAGE_SIZE));
    const last = page.at(-1);
    const result: FetchMessagesResult = { messages: page.map((entry) => entry.message) };
    if (last && rest.length > page.length) result.nextCursor = cursorOf(last);
    return result;
  }

  private touch(threadId: string): KeptMessage[] {
    const list = this.threads.get(threadId) ?? [];
    this.threads.delete(threadId);
    this.threads.set(threadId, list);
    const userId = this.userOf(threadId);
    const own = this.threadsByUser.get(userId) ?? new Set<string>();
    own.add(threadId);
    this.threadsByUser.set(userId, own);
    while (this.threads.size > this.maxThreads) this.forgetOldestThread();
    return list;
  }

  private forgetOldestThread(): void {
    const oldest = this.threads.keys().next().value;
    if (oldest === undefined) return;
    this.threads.delete(oldest);
    const userId = this.userOf(oldest);
    const own = this.threadsByUser.get(userId);
    own?.delete(oldest);
    if (own?.size === 0) this.threadsByUser.delete(userId);
  }
}

type SortKey = { dateSentMs: number; seq: number };

function keyOf(entry: KeptMessage | SortKey): SortKey {
  return "message" in entry
    ? { dateSentMs: entry.message.metadata.dateSent.getTime(), seq: entry.seq }
    : entry;
}

function compare(a: KeptMessage | SortKey, b: KeptMessage | SortKey): number {
  const left = keyOf(a);
  const right = keyOf(b);
  return left.dateSentMs - right.dateSentMs || left.seq - right.seq;
}

const CURSOR_PATTERN = /^web-cursor:(\d+)\.(\d+)$/;

function cursorOf(entry: KeptMessage): string {
  const { dateSentMs, seq } = keyOf(entry);
  return `web-cursor:${dateSentMs}.${seq}`;
}

function parseCursor(cursor: string, step: string): SortKey {
  const match = typeof cursor === "string" ? CURSOR_PATTERN.exec(cursor) : null;
  if (!match) throw new ValidationError(`unknown cursor ${JSON.stringify(cursor)}`, { step });
  return { dateSentMs: Number(match[1]), seq: Number(match[2]) };
}
