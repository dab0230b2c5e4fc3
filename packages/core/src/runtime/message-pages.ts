import type {
  Adapter,
  FetchDirection,
  FetchMessagesOptions,
  FetchMessagesResult,
} from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import { AdapterError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { callAdapter } from "./adapter-call.js";

/** How {@link messagePages} walks: which end it starts at, and which adapter method it pages. */
export interface MessagePagesOptions {
  /** Default `backward` (newest first); `forward` walks oldest first. Sent with every page. */
  direction?: FetchDirection;
  /** Fetches one page; default `adapter.fetchMessages`. */
  fetchPage?: (id: string, options: FetchMessagesOptions) => Promise<FetchMessagesResult>;
}

/**
 * The history of `id` (a thread, or a channel for adapters that accept channel ids), newest
 * first (or oldest first going `forward`), fetched lazily through `adapter.fetchMessages` one page
 * at a time: a page is requested only when iteration reaches it, so breaking out early costs no
 * further calls. Each `for await` starts its own walk; walks share no cursor. Iteration stops
 * after a page without `nextCursor` or an empty page. An adapter that hands back the cursor it
 * was given would loop forever; that raises an `AdapterError` instead.
 */
export function messagePages(
  adapter: Adapter,
  id: string,
  logger: Logger = silentLogger,
  pages: MessagePagesOptions = {},
): AsyncIterable<Message> {
  const step = `fetch messages of ${id}`;
  const fetchPage =
    pages.fetchPage ??
    ((pageId: string, options: FetchMessagesOptions) => adapter.fetchMessages(pageId, options));
  const direction = pages.direction;
  return {
    async *[Symbol.asyncIterator]() {
      let cursor: string | undefined;
      for (;;) {
        const options: FetchMessagesOptions = {};
        if (direction !== undefined) options.direction = direction;
        if (cursor !== undefined) options.cursor = cursor;
        const page = await callAdapter(adapter, step, () => fetchPage(id, options), logger);
        // Our contract gives pages in the order of the walk (upstream's backward pages are
        // oldest first and reversed by the core).
        yield* page.messages;
        const next = page.nextCursor;
        if (!next || page.messages.length === 0) return;
        if (next === cursor) {
          throw new AdapterError(
            adapter.name,
            `the adapter returned the cursor it was given (${JSON.stringify(next)}), ` +
              "which would repeat the same page forever",
            { step },
          );
        }
        cursor = next;
      }
    },
  };
}
