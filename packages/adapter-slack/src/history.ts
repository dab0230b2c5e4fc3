import {
  type FetchMessagesOptions,
  type FetchMessagesResult,
  type Message,
  ValidationError,
} from "@baton/core";
import type { SlackApi } from "./api.js";
import { SlackApiError } from "./errors.js";
import type { SlackMessageLink } from "./links.js";
import { type SlackThreadData, slackTsOfMessageId } from "./thread-id.js";

type Item = Record<string, unknown>;

/** Slack's largest page (conversations.replies / history accept up to 1 000; 200 is advised). */
const PAGE_MAX = 200;
/** How many pages a walk against Slack's own order reads at most (see below). */
const MAX_REVERSE_PAGES = 10;
const OFFSET_PREFIX = "offset:";

function pageOf(answer: Record<string, unknown>) {
  const items = (answer.messages as Item[] | undefined) ?? [];
  const next = (answer.response_metadata as { next_cursor?: string } | undefined)?.next_cursor;
  return { items, next: next ? next : undefined };
}

/**
 * One page of history. A thread (`conversations.replies`) is oldest first in Slack, a channel
 * (`conversations.history`) newest first; a walk in Slack's own order pages with Slack's cursor.
 * A walk the other way reads up to 10 of Slack's pages (2 000 messages), reverses them and pages
 * through that list with `offset:{n}` cursors: Slack offers no reverse cursor.
 */
export async function fetchSlackMessages(
  api: SlackApi,
  data: SlackThreadData,
  options: FetchMessagesOptions,
  parse: (item: Item, channel: string) => Message,
): Promise<FetchMessagesResult> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), PAGE_MAX);
  const direction = options.direction ?? "backward";
  const thread = data.threadTs !== "";
  const method = thread ? "conversations.replies" : "conversations.history";
  const base = { channel: data.channel, ...(thread ? { ts: data.threadTs } : {}) };
  const native = thread ? direction === "forward" : direction === "backward";
  if (native) {
    if (options.cursor?.startsWith(OFFSET_PREFIX)) {
      throw new ValidationError("cursor belongs to a walk in the other direction", {
        step: "fetch slack messages",
      });
    }
    const answer = await api.call(method, {
      ...base,
      limit,
      ...(options.cursor ? { cursor: options.cursor } : {}),
    });
    const { items, next } = pageOf(answer);
    return {
      messages: items.map((item) => parse(item, data.channel)),
      ...(next ? { nextCursor: next } : {}),
    };
  }
  const all: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_REVERSE_PAGES; page += 1) {
    const answer = await api.call(method, {
      ...base,
      limit: PAGE_MAX,
      ...(cursor ? { cursor } : {}),
    });
    const { items, next } = pageOf(answer);
    all.push(...items);
    if (next === undefined) break;
    cursor = next;
  }
  all.reverse();
  const start = options.cursor?.startsWith(OFFSET_PREFIX)
    ? Number(options.cursor.slice(OFFSET_PREFIX.length)) || 0
    : 0;
  const slice = all.slice(start, start + limit);
  const end = start + slice.length;
  return {
    messages: slice.map((item) => parse(item, data.channel)),
    ...(end < all.length ? { nextCursor: `${OFFSET_PREFIX}${end}` } : {}),
  };
}

/** Slack's answers meaning the message (or its thread) is not there. */
const NOT_FOUND = new Set(["thread_not_found", "message_not_found"]);

/**
 * One message by id (upstream's `fetchMessage`): `conversations.replies` at the message's own
 * `ts`, which Slack answers for a thread's parent, a reply or a lone message alike. Null when
 * Slack has no such message (`thread_not_found`) or answers with other messages only.
 */
export async function fetchSlackMessage(
  api: SlackApi,
  channel: string,
  messageId: string,
  parse: (item: Item, channel: string) => Message,
): Promise<Message | null> {
  const ts = slackTsOfMessageId(messageId);
  let answer: Record<string, unknown>;
  try {
    answer = await api.call("conversations.replies", { channel, ts, inclusive: true, limit: 1 });
  } catch (error) {
    if (error instanceof SlackApiError && NOT_FOUND.has(error.slackError ?? "")) return null;
    throw error;
  }
  const item = pageOf(answer).items.find((candidate) => candidate.ts === ts);
  return item === undefined ? null : parse(item, channel);
}

/**
 * The message a link points at (`LinkPreview.fetchMessage` of a Slack message link), read like
 * {@link fetchSlackMessage}. Rejects with a `SlackApiError` (`message_not_found`) when Slack has
 * no such message the bot can read, since a link's loader promises a message.
 */
export async function fetchLinkedSlackMessage(
  api: SlackApi,
  link: SlackMessageLink,
  parse: (item: Item, channel: string) => Message,
): Promise<Message> {
  const message = await fetchSlackMessage(api, link.channel, link.ts, parse);
  if (message !== null) return message;
  throw new SlackApiError(
    "conversations.replies",
    `no Slack message the bot can read at ${link.url}`,
    "message_not_found",
  );
}
