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
   * One page, newest first: `limit` (default: the page size) messages after `cursor`;
   * `nextCursor` is absent on the last page. A `ValidationError` for a limit that is not a
   * positive integer or a cursor this history did not issue.
   */
  page(threadId: string, options: FetchMessagesOptions = {}): FetchMessagesResult {
    const limit = options.limit ?? this.defaultPageSize;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ValidationError("limit must be a positive integer", { step: "fetch messages" });
    }
    const newestFirst = [...(this.threads.get(threadId) ?? [])].reverse();
    const offset = parseCursor(options.cursor);
    const messages = newestFirst.slice(offset, offset + limit);
    const end = offset + messages.length;
    return end < newestFirst.length
      ? { messages, nextCursor: `${CURSOR_PREFIX}${end}` }
      : { messages };
  }

  /** Forgets every thread's history. */
  clear(): void {
    this.threads = new Map();
  }
}

function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = cursor.startsWith(CURSOR_PREFIX)
    ? Number(cursor.slice(CURSOR_PREFIX.length))
    : Number.NaN;
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError(`unknown cursor ${JSON.stringify(cursor)}`, {
      step: "fetch messages",
    });
  }
  return offset;
}
