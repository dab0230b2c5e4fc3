import type { Adapter, FetchDirection } from "../contracts/adapter.js";
import type { StateAdapter } from "../contracts/state.js";
import type { JsonValue } from "../model/json.js";
import { Message, type SerializedMessage } from "../model/message.js";
import {
  DEFAULT_THREAD_HISTORY_MAX_MESSAGES,
  DEFAULT_THREAD_HISTORY_TTL_MS,
  type ThreadHistoryOptions,
} from "./chat-config-history.js";

/** True when `adapter` asks the runtime to keep its threads' history (either flag). */
export function persistsThreadHistory(adapter: Adapter): boolean {
  return adapter.persistThreadHistory === true || adapter.persistMessageHistory === true;
}

/** The State key prefix of persisted thread history, upstream's: `msg-history:{threadId}`. */
export const THREAD_HISTORY_KEY_PREFIX = "msg-history:";

/**
 * A bounded history per thread, kept in the State for platforms whose API cannot list past
 * messages (Telegram, SMS). Each append is one atomic `appendToList` that trims the list to
 * `maxMessages` (keeping the newest) and moves its expiry to `ttlMs` after the latest message,
 * so the history never grows without bound, on any number of instances. Messages are stored
 * without their `raw` payload (which may hold tokens or personal data) and without attachment
 * contents.
 */
export class ThreadHistoryCache {
  private readonly maxMessages: number;
  private readonly ttlMs: number;

  constructor(
    private readonly state: StateAdapter,
    options: ThreadHistoryOptions = {},
  ) {
    this.maxMessages = options.maxMessages ?? DEFAULT_THREAD_HISTORY_MAX_MESSAGES;
    this.ttlMs = options.ttlMs ?? DEFAULT_THREAD_HISTORY_TTL_MS;
  }

  /** Appends `message` to the history of `threadId`. */
  async append(threadId: string, message: Message): Promise<void> {
    const stored: SerializedMessage & { raw: null } = { ...message.toJSON(), raw: null };
    await this.state.appendToList(historyKey(threadId), stored as unknown as JsonValue, {
      maxLength: this.maxMessages,
      ttlMs: this.ttlMs,
    });
  }

  /** The history of `threadId`, oldest first; with `limit`, only the newest `limit` messages. */
  async getMessages(threadId: string, limit?: number): Promise<Message[]> {
    const stored = await this.state.getList(historyKey(threadId));
    const newest = limit === undefined ? stored : stored.slice(Math.max(0, stored.length - limit));
    return newest.map((json) => Message.fromJSON(json as unknown as SerializedMessage));
  }
}

function historyKey(threadId: string): string {
  return `${THREAD_HISTORY_KEY_PREFIX}${threadId}`;
}

/**
 * The persisted history of `threadId` as an iterable like `thread.messages`: newest first going
 * `backward`, oldest first going `forward`. Each walk reads the list once, when it starts.
 */
export function persistedMessages(
  history: ThreadHistoryCache,
  threadId: string,
  direction: FetchDirection,
): AsyncIterable<Message> {
  return {
    async *[Symbol.asyncIterator]() {
      const oldestFirst = await history.getMessages(threadId);
      yield* direction === "forward" ? oldestFirst : oldestFirst.reverse();
    },
  };
}
