import {
  type ChannelInfo,
  type ListThreadsOptions,
  type ListThreadsResult,
  type ThreadInfo,
  ValidationError,
} from "@baton/core";
import { trimArgs } from "./mock-call.js";
import type { MockCore } from "./mock-core.js";
import type { MockHistory } from "./mock-history.js";
import { decodeMockThreadId } from "./mock-thread-id.js";

const THREAD_CURSOR_PREFIX = "mock-threads:";

/**
 * Channel and thread metadata of the mock adapter: names set by tests (`setChannelName`), and
 * the threads of a channel derived from the seeded history — each thread with history is listed,
 * its oldest message as the root, in seeding order.
 */
export class MockChannels {
  private names = new Map<string, string>();

  constructor(
    private readonly history: MockHistory,
    private readonly defaultPageSize: number,
  ) {}

  /** Gives a channel (`{name}:{channel}`) the name `fetchChannelInfo` reports. */
  setName(channelId: string, name: string): void {
    this.names.set(channelId, name);
  }

  /** `fetchChannelInfo`: `{ id, name?, isDM, metadata: {} }`; the name when one was set. */
  channelInfo(core: MockCore, channelId: string): Promise<ChannelInfo> {
    return core.call("fetchChannelInfo", channelId, [channelId], undefined, () => {
      const channel = channelId.split(":")[1] ?? "";
      const info: ChannelInfo = { id: channelId, isDM: channel.startsWith("D"), metadata: {} };
      const name = this.names.get(channelId);
      return name === undefined ? info : { ...info, name };
    });
  }

  /** `fetchThread`: `{ id, channelId, channelName?, isDM, metadata: {} }`. */
  threadInfo(core: MockCore, threadId: string): Promise<ThreadInfo> {
    return core.call("fetchThread", threadId, [threadId], undefined, () => {
      const { channel } = decodeMockThreadId(core.name, threadId);
      const channelId = `${core.name}:${channel}`;
      const info: ThreadInfo = {
        id: threadId,
        channelId,
        isDM: channel.startsWith("D"),
        metadata: {},
      };
      const name = this.names.get(channelId);
      return name === undefined ? info : { ...info, channelName: name };
    });
  }

  /** `listThreads`: pages of the channel's threads with seeded history. */
  listThreads(
    core: MockCore,
    channelId: string,
    options?: ListThreadsOptions,
  ): Promise<ListThreadsResult> {
    const args = trimArgs([channelId, options]);
    return core.call("listThreads", channelId, args, undefined, () => {
      const step = "list threads";
      const limit = options?.limit ?? this.defaultPageSize;
      if (!Number.isInteger(limit) || limit < 1) {
        throw new ValidationError("limit must be a positive integer", { step });
      }
      const offset = parseThreadCursor(options?.cursor, step);
      const ids = this.history.threadIds(`${channelId}:`);
      const threads = ids.slice(offset, offset + limit).map((id) => {
        const messages = this.history.messagesOf(id);
        const root = messages[0];
        const last = messages[messages.length - 1];
        if (root === undefined || last === undefined) throw new Error("unreachable: no history");
        return {
          id,
          rootMessage: root,
          replyCount: messages.length - 1,
          lastReplyAt: last.metadata.dateSent,
        };
      });
      const end = offset + threads.length;
      return end < ids.length
        ? { threads, nextCursor: `${THREAD_CURSOR_PREFIX}${end}` }
        : { threads };
    });
  }

  clear(): void {
    this.names = new Map();
  }
}

function parseThreadCursor(cursor: string | undefined, step: string): number {
  if (cursor === undefined) return 0;
  const rest = cursor.startsWith(THREAD_CURSOR_PREFIX)
    ? cursor.slice(THREAD_CURSOR_PREFIX.length)
    : "";
  if (!/^\d+$/.test(rest)) {
    throw new ValidationError(`unknown cursor ${JSON.stringify(cursor)}`, { step });
  }
  return Number(rest);
}
