import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { ChannelInfo, ThreadSummary } from "../contracts/thread-surface-types.js";
import { AdapterError } from "../errors/index.js";
import { callAdapter } from "./adapter-call.js";

/**
 * The threads of a channel through `adapter.listThreads`, page by page as iteration reaches
 * them (most recently active first, as the platform lists them). Nothing when the adapter cannot
 * list threads (upstream's rule: an empty iteration, not an error). Each `for await` walks
 * afresh; an adapter that hands back the cursor it was given raises an `AdapterError` instead of
 * looping forever.
 */
export function channelThreads(
  adapter: Adapter,
  channelId: string,
  logger: Logger,
): AsyncIterable<ThreadSummary> {
  const step = `list threads of ${channelId}`;
  return {
    async *[Symbol.asyncIterator]() {
      const { listThreads } = adapter;
      if (typeof listThreads !== "function") return;
      let cursor: string | undefined;
      for (;;) {
        const options = cursor === undefined ? {} : { cursor };
        const page = await callAdapter(
          adapter,
          step,
          () => listThreads.call(adapter, channelId, options),
          logger,
        );
        yield* page.threads;
        const next = page.nextCursor;
        if (!next || page.threads.length === 0) return;
        if (next === cursor) {
          throw new AdapterError(adapter.name, `listThreads returned the cursor it was given`, {
            step,
          });
        }
        cursor = next;
      }
    },
  };
}

/**
 * A channel's metadata from `adapter.fetchChannelInfo`, or — where the adapter has none — what
 * the runtime knows: `{ id, isDM, metadata: {} }` (upstream's answer).
 */
export async function channelMetadata(
  adapter: Adapter,
  channelId: string,
  isDM: boolean,
  logger: Logger,
): Promise<ChannelInfo> {
  const { fetchChannelInfo } = adapter;
  if (typeof fetchChannelInfo !== "function") return { id: channelId, isDM, metadata: {} };
  const step = `fetch metadata of ${channelId}`;
  return callAdapter(adapter, step, () => fetchChannelInfo.call(adapter, channelId), logger);
}

/**
 * The channel id of `threadId` (upstream's `deriveChannelId`): the adapter's
 * `channelIdFromThreadId` when it has one, else the first two `:`-separated parts
 * (`slack:C123:1234.5678` → `slack:C123`), upstream's default for adapters without it.
 */
export function deriveChannelId(
  adapter: Pick<Adapter, "channelIdFromThreadId"> | { channelIdFromThreadId?: undefined },
  threadId: string,
): string {
  if (typeof adapter.channelIdFromThreadId === "function") {
    return adapter.channelIdFromThreadId(threadId);
  }
  return threadId.split(":").slice(0, 2).join(":");
}
