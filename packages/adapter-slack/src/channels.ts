import {
  type ChannelInfo,
  type ChannelVisibility,
  type ListThreadsOptions,
  type ListThreadsResult,
  type Message,
  type ThreadInfo,
  ValidationError,
} from "@baton/core";
import type { SlackApi } from "./api.js";
import { decodeSlackThreadId, encodeSlackThreadId, isSlackDMChannel } from "./thread-id.js";

type Json = Record<string, unknown>;

/** The channel of a Baton channel id `slack:{channel}`; a thread id is refused. */
export function channelOf(channelId: string, step: string): string {
  const { channel, threadTs } = decodeSlackThreadId(channelId);
  if (threadTs !== "") {
    throw new ValidationError(`${JSON.stringify(channelId)} is a thread id, not a channel id`, {
      step,
    });
  }
  return channel;
}

function visibilityOf(info: Json): ChannelVisibility {
  if (info.is_ext_shared === true) return "external";
  if (info.is_private === true || info.is_im === true || info.is_mpim === true) return "private";
  return typeof info.is_channel === "boolean" || typeof info.is_private === "boolean"
    ? "public"
    : "unknown";
}

/** `conversations.info` as core's `ChannelInfo` (name, DM flag, member count, visibility). */
export async function fetchSlackChannelInfo(api: SlackApi, channel: string): Promise<ChannelInfo> {
  const answer = await api.call("conversations.info", { channel, include_num_members: true });
  const info = (answer.channel ?? {}) as Json;
  const name = typeof info.name === "string" ? info.name : undefined;
  const members = typeof info.num_members === "number" ? info.num_members : undefined;
  return {
    id: `slack:${channel}`,
    ...(name === undefined ? {} : { name }),
    isDM: info.is_im === true || isSlackDMChannel(channel),
    ...(members === undefined ? {} : { memberCount: members }),
    channelVisibility: visibilityOf(info),
    metadata: info,
  };
}

/** A thread's metadata: its channel's `conversations.info`. */
export async function fetchSlackThreadInfo(api: SlackApi, threadId: string): Promise<ThreadInfo> {
  const { channel } = decodeSlackThreadId(threadId);
  const info = await fetchSlackChannelInfo(api, channel);
  return {
    id: threadId,
    channelId: info.id,
    ...(info.name === undefined ? {} : { channelName: info.name }),
    ...(info.isDM === undefined ? {} : { isDM: info.isDM }),
    ...(info.channelVisibility === undefined ? {} : { channelVisibility: info.channelVisibility }),
    metadata: info.metadata,
  };
}

/**
 * One page of a channel's threads: its top-level messages (`conversations.history`, newest first)
 * that have replies, each with its reply count and latest reply.
 */
export async function listSlackThreads(
  api: SlackApi,
  channel: string,
  options: ListThreadsOptions,
  parse: (item: Json) => Message,
): Promise<ListThreadsResult> {
  const answer = await api.call("conversations.history", {
    channel,
    limit: Math.min(Math.max(options.limit ?? 50, 1), 200),
    ...(options.cursor ? { cursor: options.cursor } : {}),
  });
  const items = (answer.messages as Json[] | undefined) ?? [];
  const next = (answer.response_metadata as { next_cursor?: string } | undefined)?.next_cursor;
  const threads = items
    .filter((item) => typeof item.reply_count === "number" && item.reply_count > 0)
    .map((item) => {
      const ts = String(item.ts ?? "");
      const latest = Number(item.latest_reply);
      return {
        id: encodeSlackThreadId({ channel, threadTs: ts }),
        rootMessage: parse(item),
        replyCount: item.reply_count as number,
        ...(Number.isFinite(latest) ? { lastReplyAt: new Date(Math.round(latest * 1_000)) } : {}),
      };
    });
  return { threads, ...(next ? { nextCursor: next } : {}) };
}
