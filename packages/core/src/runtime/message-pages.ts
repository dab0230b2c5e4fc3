import type { Adapter } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import { AdapterError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { callAdapter } from "./adapter-call.js";

/**
 * The history of `id` (a thread, or a channel for adapters that accept channel ids), newest
 * first, fetched lazily through `adapter.fetchMessages` one page at a time: a page is requested
 * only when iteration reaches it, so breaking out early costs no further calls. Each
 * `for await` starts its own walk from the newest message; walks share no cursor. Iteration
 * stops after a page without `nextCursor` or an empty page. An adapter that hands back the
 * cursor it was given would loop forever; that raises an `AdapterError` instead.
 */
export function messagePages(
  adapter: Adapter,
  id: string,
  logger: Logger = silentLogger,
): AsyncIterable<Message> {
  const step = `fetch messages of ${id}`;
  return {
    async *[Symbol.asyncIterator]() {
      let cursor: string | undefined;
      for (;;) {
        const options = cursor === undefined ? {} : { cursor };
        const page = await callAdapter(
          adapter,
          step,
          () => adapter.fetchMessages(id, options),
          logger,
        );
        // Our contract gives pages newest first (upstream's are oldest first and reversed).
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
