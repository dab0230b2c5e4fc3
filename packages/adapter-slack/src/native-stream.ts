import type { Clock, Logger, RawMessage, StreamChunk, StreamOptions } from "@baton/core";
import type { SlackApi, SlackResponse } from "./api.js";
import { decodeSlackThreadId, encodeSlackMessageId } from "./thread-id.js";

/** What a native stream needs from its adapter. */
export interface NativeStreamContext {
  readonly api: SlackApi;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly teamId: string;
  /** The least time between two `chat.appendStream` calls. */
  readonly appendIntervalMs: number;
  /** True once Slack said this app or workspace cannot stream: every later stream declines. */
  readonly nativeOff: () => boolean;
  /** Records that Slack cannot stream here (a permanent refusal, not a transient one). */
  readonly turnNativeOff: () => void;
}

/**
 * Slack's answers to `chat.startStream` that will not change on a retry: the method does not
 * exist for this app, workspace or channel type. Rate limits and server errors are transient.
 */
const PERMANENT_REFUSALS = new Set([
  "unknown_method",
  "method_not_supported_for_channel_type",
  "not_allowed_token_type",
  "feature_not_enabled",
]);

function textOf(chunk: string | StreamChunk): string {
  if (typeof chunk === "string") return chunk;
  // Task and plan updates have no text of their own in a markdown stream.
  return chunk.type === "markdown_text" ? chunk.text : "";
}

/**
 * Streams a reply with Slack's native streaming: `chat.startStream` in the thread, then
 * `chat.appendStream` with the markdown received since the last append (at most one call per
 * `appendIntervalMs`), then `chat.stopStream` with the rest. Slack's streaming API takes markdown
 * (`markdown_text`), not mrkdwn. Resolves `null` without reading the stream — so the core streams
 * by post + edit instead — where Slack cannot stream: outside a thread (the top level of a DM or
 * channel), or when `chat.startStream` is refused. A permanent refusal (the method is not
 * available to this app) turns native streaming off for the adapter's lifetime; a transient one
 * (rate limit, server error) only affects that stream.
 */
export async function streamNatively(
  context: NativeStreamContext,
  threadId: string,
  chunks: AsyncIterable<string | StreamChunk>,
  options: StreamOptions = {},
): Promise<RawMessage | null> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  if (!threadTs || context.nativeOff()) return null;
  let started: SlackResponse;
  try {
    started = await context.api.call("chat.startStream", {
      channel,
      thread_ts: threadTs,
      ...(options.recipientTeamId ? { recipient_team_id: options.recipientTeamId } : {}),
      ...(options.recipientUserId ? { recipient_user_id: options.recipientUserId } : {}),
    });
  } catch (error) {
    const code = (error as { slackError?: unknown }).slackError;
    if (typeof code === "string" && PERMANENT_REFUSALS.has(code)) context.turnNativeOff();
    context.logger.warn("slack: chat.startStream refused; streaming by post and edit", { error });
    return null;
  }
  const ts = String(started.ts ?? "");
  let pending = "";
  let lastAppendMs = context.clock.now();
  for await (const chunk of chunks) {
    pending += textOf(chunk);
    const now = context.clock.now();
    if (pending !== "" && now - lastAppendMs >= context.appendIntervalMs) {
      await context.api.call("chat.appendStream", { channel, ts, markdown_text: pending });
      pending = "";
      lastAppendMs = now;
    }
  }
  const stopped = await context.api.call("chat.stopStream", {
    channel,
    ts,
    ...(pending === "" ? {} : { markdown_text: pending }),
    ...(options.stopBlocks ? { blocks: options.stopBlocks } : {}),
  });
  return {
    id: encodeSlackMessageId(context.teamId, channel, ts),
    threadId,
    raw: stopped,
  };
}
