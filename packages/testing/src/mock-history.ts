import {
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type Message,
  ValidationError,
} from "@baton/core";

const CURSOR_PREFIX = "mock-cursor:";

/** The seeded message history of a mock adapter, served newest first in cursor pages. */
export class MockHistory {
  private threads = new Map<string, Message[]>();

  constructor(private readonly defaultPageSize: number) {}

  /** Appends `messages` (oldest first) to the thread's history; each must belong to the thread. */
  seed(threadId: string, messages: readonly Message[]): void {
    for (const message of messages) {
      if (message.threadId !== threadId) {
        throw new ValidationError(
          `message ${message.id} belongs to ${message.threadId}, not ${threadId}`,
          { step: "seed messages" },
        );
      }
    }
    this.threads.set(threadId, [...(this.threads.get(threadId) ?? []), ...messages]);
  }

  /**
   * One page in the order of its walk — newest first (`direction: "backward"`, the default) or
   * oldest first (`"forward"`): `limit` (default: the page size) messages after `cursor`;
   * `nextCursor` is absent on the last page. Forward cursors are `mock-cursor:f{n}`, so a cursor
   * of one direction is refused in the other. A `ValidationError` for a limit that is not a
   * positive integer, an unknown direction, or a cursor this history did not issue.
   */
  page(threadId: string, options: FetchMessagesOptions = {}): FetchMessagesResult {
    const step = "fetch messages";
    const limit = options.limit ?? this.defaultPageSize;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ValidationError("limit must be a positive integer", { step });
    }
    const direction = options.direction ?? "backward";
    if (direction !== "backward" && direction !== "forward") {
      throw new ValidationError('direction must be "backward" or "forward"', { step });
    }
    const oldestFirst = [...(this.threads.get(threadId) ?? [])];
    const ordered = direction === "forward" ? oldestFirst : oldestFirst.reverse();
    const tag = direction === "forward" ? "f" : "";
    const offset = parseCursor(options.cursor, tag);
    const messages = ordered.slice(offset, offset + limit);
    const end = offset + messages.length;
    return end < ordered.length
      ? { messages, nextCursor: `${CURSOR_PREFIX}${tag}${end}` }
      : { messages };
  }

  /** The thread ids with seeded history whose id starts with `prefix`, in seeding order. */
  threadIds(prefix: string): string[] {
    return [...this.threads.keys()].filter((id) => id.startsWith(prefix));
  }

  /** The seeded messages of a thread, oldest first (a copy). */
  messagesOf(threadId: string): Message[] {
    return [...(this.threads.get(threadId) ?? [])];
  }

  /** Forgets every thread's history. */
  clear(): void {
    this.threads = new Map();
  }
}

function parseCursor(cursor: string | undefined, tag: string): number {
  if (cursor === undefined) return 0;
  const prefix = `${CURSOR_PREFIX}${tag}`;
  const rest = cursor.startsWith(prefix) ? cursor.slice(prefix.length) : "";
  const offset = /^\d+$/.test(rest) ? Number(rest) : Number.NaN;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError(`unknown cursor ${JSON.stringify(cursor)}`, {
      step: "fetch messages",
    });
  }
  return offset;
}
