import { callSlackApi, type SlackApiResult, type SlackApiTarget } from "./call.js";

/** A Block Kit block, as Slack's JSON. */
export type SlackApiBlock = Readonly<Record<string, unknown>>;

/** The content of a message: `text` and/or `blocks`, or Slack's `markdown_text` alone. */
export interface SlackMessageContent {
  /** mrkdwn text; with blocks, the notification fallback. */
  readonly text?: string;
  readonly blocks?: readonly SlackApiBlock[];
  /** Markdown Slack renders itself (`markdown_text`); Slack refuses it next to text or blocks. */
  readonly markdownText?: string;
}

/** A sent, changed or removed message: its channel, its `ts` as `id`, and Slack's answer. */
export interface SlackMessageResult {
  readonly channel: string;
  readonly id: string;
  readonly raw: SlackApiResult;
}

/** What {@link postSlackMessage} sends. */
export interface PostSlackMessageOptions extends SlackApiTarget, SlackMessageContent {
  readonly channel: string;
  /** Posts as a reply in this thread. */
  readonly threadTs?: string;
  /** With `threadTs`: also shows the reply in the channel. */
  readonly replyBroadcast?: boolean;
  readonly unfurlLinks?: boolean;
  readonly unfurlMedia?: boolean;
}

function contentArgs(content: SlackMessageContent): Record<string, unknown> {
  if (content.markdownText !== undefined && (content.text !== undefined || content.blocks)) {
    // Slack answers invalid_arguments; refusing here saves the round trip and names the cause.
    throw new TypeError("markdownText cannot be sent together with text or blocks");
  }
  return {
    text: content.text,
    blocks: content.blocks,
    markdown_text: content.markdownText,
  };
}

function resultOf(raw: SlackApiResult, channel: string, tsField: "ts" | "message_ts") {
  const ts = raw[tsField];
  return {
    channel: typeof raw.channel === "string" ? raw.channel : channel,
    id: typeof ts === "string" ? ts : "",
    raw,
  };
}

/**
 * `chat.postMessage`. Resolves with the new message's `ts` as `id`; throws a TypeError before
 * any call when `markdownText` comes with `text` or `blocks`.
 */
export async function postSlackMessage(
  options: PostSlackMessageOptions,
): Promise<SlackMessageResult> {
  const raw = await callSlackApi(
    "chat.postMessage",
    {
      channel: options.channel,
      ...contentArgs(options),
      thread_ts: options.threadTs,
      reply_broadcast: options.replyBroadcast,
      unfurl_links: options.unfurlLinks,
      unfurl_media: options.unfurlMedia,
    },
    options,
  );
  return resultOf(raw, options.channel, "ts");
}

/** What {@link postSlackEphemeral} sends. */
export interface PostSlackEphemeralOptions extends SlackApiTarget, SlackMessageContent {
  readonly channel: string;
  /** The only user who sees the message. */
  readonly user: string;
  readonly threadTs?: string;
}

/** `chat.postEphemeral`. Resolves with Slack's `message_ts` as `id`. */
export async function postSlackEphemeral(
  options: PostSlackEphemeralOptions,
): Promise<SlackMessageResult> {
  const raw = await callSlackApi(
    "chat.postEphemeral",
    {
      channel: options.channel,
      user: options.user,
      ...contentArgs(options),
      thread_ts: options.threadTs,
    },
    options,
  );
  return resultOf(raw, options.channel, "message_ts");
}

/** What {@link updateSlackMessage} sends. */
export interface UpdateSlackMessageOptions extends SlackApiTarget, SlackMessageContent {
  readonly channel: string;
  /** The message to change. */
  readonly ts: string;
}

/** `chat.update`: replaces the message's content. Resolves with its `ts` as `id`. */
export async function updateSlackMessage(
  options: UpdateSlackMessageOptions,
): Promise<SlackMessageResult> {
  const raw = await callSlackApi(
    "chat.update",
    { channel: options.channel, ts: options.ts, ...contentArgs(options) },
    options,
  );
  return resultOf(raw, options.channel, "ts");
}

/** What {@link deleteSlackMessage} removes. */
export interface DeleteSlackMessageOptions extends SlackApiTarget {
  readonly channel: string;
  readonly ts: string;
}

/** `chat.delete`. Resolves with the removed message's `ts` as `id`. */
export async function deleteSlackMessage(
  options: DeleteSlackMessageOptions,
): Promise<SlackMessageResult> {
  const raw = await callSlackApi(
    "chat.delete",
    { channel: options.channel, ts: options.ts },
    options,
  );
  return resultOf(raw, options.channel, "ts");
}

/** What {@link fetchSlackThreadReplies} reads. */
export interface FetchSlackThreadRepliesOptions extends SlackApiTarget {
  readonly channel: string;
  /** The thread's root `ts`. */
  readonly ts: string;
  readonly limit?: number;
  /** Slack's `next_cursor` from the previous page. */
  readonly cursor?: string;
}

/** One page of a thread: the root message first, then replies oldest first. */
export interface SlackThreadRepliesPage {
  readonly messages: readonly Record<string, unknown>[];
  /** The cursor of the next page; undefined on the last one. */
  readonly nextCursor: string | undefined;
  readonly raw: SlackApiResult;
}

/** `conversations.replies`: one page of a thread, with the cursor of the next. */
export async function fetchSlackThreadReplies(
  options: FetchSlackThreadRepliesOptions,
): Promise<SlackThreadRepliesPage> {
  const raw = await callSlackApi(
    "conversations.replies",
    { channel: options.channel, ts: options.ts, limit: options.limit, cursor: options.cursor },
    options,
  );
  const metadata = raw.response_metadata as { next_cursor?: unknown } | undefined;
  const next = metadata?.next_cursor;
  return {
    messages: Array.isArray(raw.messages) ? (raw.messages as Record<string, unknown>[]) : [],
    nextCursor: typeof next === "string" && next !== "" ? next : undefined,
    raw,
  };
}

/** What {@link openSlackView} opens. */
export interface OpenSlackViewOptions extends SlackApiTarget {
  /** The `trigger_id` of the interaction that opens it (valid for 3 seconds). */
  readonly triggerId: string;
  /** The view (a modal), as Slack's JSON. */
  readonly view: Readonly<Record<string, unknown>>;
}

/** `views.open`. Resolves with the opened view as Slack returns it (with its `id`). */
export async function openSlackView(
  options: OpenSlackViewOptions,
): Promise<{ readonly view: Record<string, unknown>; readonly raw: SlackApiResult }> {
  const raw = await callSlackApi(
    "views.open",
    { trigger_id: options.triggerId, view: options.view },
    options,
  );
  return { view: (raw.view ?? {}) as Record<string, unknown>, raw };
}
