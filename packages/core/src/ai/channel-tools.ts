import { type Tool, tool } from "ai";
import type { Adapter } from "../contracts/adapter.js";
import type { ChannelVisibility } from "../contracts/thread-surface-types.js";
import { ValidationError } from "../errors/index.js";
import { callAdapter } from "../runtime/adapter-call.js";
import { adapterNameOf } from "../thread-id/index.js";
import type { ChatBinding } from "./chat-binding.js";
import {
  enumField,
  type InputOfTool,
  integerField,
  optionalStringField,
  stringField,
  toolInput,
} from "./input-schema.js";
import { type ProjectedMessage, projectMessage } from "./project-message.js";
import type { ScopeGuard } from "./read-scope.js";
import type { MessagePage } from "./thread-tools.js";
import { requireFeature, unavailable } from "./tool-support.js";

const CHANNEL_ID = () => stringField("Full channel id, including the adapter prefix");
const LIMIT = () =>
  integerField("Maximum number of items to fetch", { min: 1, max: 100, fallback: 20 });

/** The registered adapter a channel id belongs to; a `ValidationError` for an unknown prefix. */
function adapterFor(chat: ChatBinding, channelId: string, step: string): Adapter {
  const name = adapterNameOf(channelId);
  const adapter = chat.getAdapter(name);
  if (!adapter) {
    throw new ValidationError(
      `no adapter named "${name}" is registered (id ${JSON.stringify(channelId)})`,
      {
        step,
      },
    );
  }
  return adapter;
}

const FETCH_CHANNEL_MESSAGES = toolInput("fetchChannelMessages", {
  channelId: CHANNEL_ID(),
  limit: LIMIT(),
  cursor: optionalStringField("Pagination cursor from a previous fetchChannelMessages call"),
  direction: enumField(
    "'backward' (the default) starts at the newest messages, 'forward' at the oldest",
    ["backward", "forward"] as const,
    "backward",
  ),
});

/**
 * Reads one page of a channel's top-level messages, oldest first within the page: through the
 * adapter's `fetchChannelMessages` when it has one (upstream's method), else through
 * `fetchMessages(channelId)` — what `channel.messages` reads — when it serves history.
 */
export const fetchChannelMessages = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<InputOfTool<typeof FETCH_CHANNEL_MESSAGES>, MessagePage> =>
  tool({
    description:
      "Read one page of a channel's top-level messages (thread replies are not included), " +
      "oldest first within the page.",
    inputSchema: FETCH_CHANNEL_MESSAGES.schema,
    execute: async (input) => {
      const { channelId, limit, cursor, direction } = FETCH_CHANNEL_MESSAGES.parse(input);
      guard?.(channelId);
      const step = `fetch messages of channel ${channelId}`;
      const adapter = adapterFor(chat, channelId, step);
      const options = { limit, direction, ...(cursor === undefined ? {} : { cursor }) };
      const own = adapter.fetchChannelMessages;
      if (typeof own !== "function") requireFeature(adapter, "history", step);
      const page = await callAdapter(adapter, step, () =>
        typeof own === "function"
          ? own.call(adapter, channelId, options)
          : adapter.fetchMessages(channelId, options),
      );
      const messages = direction === "backward" ? [...page.messages].reverse() : page.messages;
      return { messages: messages.map(projectMessage), nextCursor: page.nextCursor };
    },
  });

/** One thread of a channel, as `listThreads` hands it to the model. */
export interface ListedThread {
  id: string;
  replyCount: number | undefined;
  /** ISO 8601. */
  lastReplyAt: string | undefined;
  rootMessage: ProjectedMessage;
}

const LIST_THREADS = toolInput("listThreads", {
  channelId: CHANNEL_ID(),
  limit: LIMIT(),
  cursor: optionalStringField("Pagination cursor from a previous listThreads call"),
});

/** Lists a page of a channel's threads through `adapter.listThreads`; `NotSupportedError` without it. */
export const listThreads = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<
  InputOfTool<typeof LIST_THREADS>,
  { threads: ListedThread[]; nextCursor: string | undefined }
> =>
  tool({
    description:
      "List a channel's recent threads, each with the message that started it and its reply count.",
    inputSchema: LIST_THREADS.schema,
    execute: async (input) => {
      const { channelId, limit, cursor } = LIST_THREADS.parse(input);
      guard?.(channelId);
      const step = `list threads of ${channelId}`;
      const adapter = adapterFor(chat, channelId, step);
      const list = adapter.listThreads;
      if (typeof list !== "function") throw unavailable(adapter, "listThreads", step);
      const options = { limit, ...(cursor === undefined ? {} : { cursor }) };
      const page = await callAdapter(adapter, step, () => list.call(adapter, channelId, options));
      return {
        threads: page.threads.map((summary) => ({
          id: summary.id,
          replyCount: summary.replyCount,
          lastReplyAt: summary.lastReplyAt?.toISOString(),
          rootMessage: projectMessage(summary.rootMessage),
        })),
        nextCursor: page.nextCursor,
      };
    },
  });

/** A channel's metadata, flattened for the model. */
export interface ChannelSummaryInfo {
  id: string;
  name: string | undefined;
  isDM: boolean;
  memberCount: number | undefined;
  channelVisibility: ChannelVisibility | undefined;
}

const GET_CHANNEL_INFO = toolInput("getChannelInfo", { channelId: CHANNEL_ID() });

/** Reads a channel's metadata through `channel.fetchMetadata()`. */
export const getChannelInfo = (
  chat: ChatBinding,
  guard?: ScopeGuard,
): Tool<InputOfTool<typeof GET_CHANNEL_INFO>, ChannelSummaryInfo> =>
  tool({
    description:
      "Look up a channel's details: name, member count, whether it is a direct message, and who " +
      "can see it. Use it to check where you are about to post.",
    inputSchema: GET_CHANNEL_INFO.schema,
    execute: async (input) => {
      const { channelId } = GET_CHANNEL_INFO.parse(input);
      guard?.(channelId);
      const info = await chat.channel(channelId).fetchMetadata();
      return {
        id: info.id,
        name: info.name,
        isDM: info.isDM ?? false,
        memberCount: info.memberCount,
        channelVisibility: info.channelVisibility,
      };
    },
  });
