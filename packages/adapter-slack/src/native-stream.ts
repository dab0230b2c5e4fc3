import type { Clock, Logger, RawMessage, StreamChunk, StreamOptions } from "@baton/core";
import type { SlackApi, SlackResponse } from "./api.js";
import { NativeStreamText, type ResolveMentions } from "./native-stream-text.js";
import { decodeSlackThreadId, encodeSlackMessageId, isSlackDMChannel } from "./thread-id.js";

/** What a native stream needs from its adapter. */
export interface NativeStreamContext {
  readonly api: SlackApi;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The workspace streamed in: message ids, and the recipient's team when none is given. */
  readonly teamId: string;
  /** The least time between two `chat.appendStream` calls. */
  readonly appendIntervalMs: number;
  /** False when the app turned native streaming off (`nativeStreaming: false`). */
  readonly enabled: boolean;
  /** True once Slack said this app or workspace cannot stream: every later stream declines. */
  readonly nativeOff: () => boolean;
  /** Records that Slack cannot stream here (a permanent refusal, not a transient one). */
  readonly turnNativeOff: () => void;
  /** Blocks put after the stream's own stop blocks (the feedback buttons); may be empty. */
  readonly closingBlocks: readonly unknown[];
  /** Outbound `@name` mentions in text about to be sent, for this stream's thread. */
  readonly resolveMentions: ResolveMentions;
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
 * Who the stream answers, as `chat.startStream` takes it, or `null` when Slack cannot be told:
 * outside a DM Slack needs the recipient user and team. The team defaults to the workspace
 * streamed in. A DM's recipient is its other member, so it needs none.
 */
function recipientOf(
  channel: string,
  options: StreamOptions,
  teamId: string,
): Record<string, string> | null {
  const user = options.recipientUserId;
  const team = options.recipientTeamId ?? (teamId === "" ? undefined : teamId);
  if (user && team) return { recipient_user_id: user, recipient_team_id: team };
  return isSlackDMChannel(channel) ? {} : null;
}

/** A Slack call's outcome, so a failed call is told apart from a failing source stream. */
async function attempt(
  api: SlackApi,
  method: string,
  args: Record<string, unknown>,
): Promise<{ ok: true; answer: SlackResponse } | { ok: false; error: unknown }> {
  try {
    return { ok: true, answer: await api.call(method, args) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Streams a reply with Slack's native streaming: `chat.startStream` in the thread, then
 * `chat.appendStream` with the markdown received since the last append (at most one call per
 * `appendIntervalMs`, cut where no mention or code span is split, `@name` mentions resolved),
 * then `chat.stopStream` with the rest and the stop blocks. Slack's streaming API takes markdown
 * (`markdown_text`), not mrkdwn.
 *
 * Resolves `null` without reading the stream — so the core streams by post + edit instead —
 * when native streaming is off (`nativeStreaming: false`, or a permanent refusal earlier), at the
 * top level of a DM or channel, outside a DM without a recipient user, or when
 * `chat.startStream` is refused. A permanent refusal turns native streaming off for the
 * adapter's lifetime; a transient one only affects that stream.
 *
 * When an append or the stop fails before any text reached Slack, the empty streamed message is
 * deleted (best effort) and the answer is `null` too: the core posts what was read and goes on
 * with the rest. Once text has reached Slack, such a failure rejects. A failing source stream
 * rejects as it failed.
 */
export async function streamNatively(
  context: NativeStreamContext,
  threadId: string,
  chunks: AsyncIterable<string | StreamChunk>,
  options: StreamOptions = {},
): Promise<RawMessage | null> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  if (!context.enabled || !threadTs || context.nativeOff()) return null;
  const recipient = recipientOf(channel, options, context.teamId);
  if (recipient === null) return null;
  const { api, clock, logger } = context;
  const started = await attempt(api, "chat.startStream", {
    channel,
    thread_ts: threadTs,
    ...recipient,
  });
  if (!started.ok) {
    const code = (started.error as { slackError?: unknown }).slackError;
    if (typeof code === "string" && PERMANENT_REFUSALS.has(code)) context.turnNativeOff();
    logger.warn("slack: chat.startStream refused; streaming by post and edit", {
      error: started.error,
    });
    return null;
  }
  const ts = String(started.answer.ts ?? "");
  let rendered = false;
  /** A failed Slack call: rejects once text reached Slack, else hands the reply to the core. */
  const failed = async (method: string, error: unknown): Promise<null> => {
    if (rendered) throw error;
    logger.warn(`slack: ${method} failed before any text reached Slack; posting instead`, {
      error,
    });
    const removed = await attempt(api, "chat.delete", { channel, ts });
    if (!removed.ok) {
      logger.warn("slack: the empty streamed message could not be deleted", {
        error: removed.error,
      });
    }
    return null;
  };
  const text = new NativeStreamText(context.resolveMentions);
  let lastAppendMs = clock.now();
  for await (const chunk of chunks) {
    text.push(textOf(chunk));
    const now = clock.now();
    if (!text.hasPending || now - lastAppendMs < context.appendIntervalMs) continue;
    const ready = await text.take(false);
    if (ready === "") continue;
    const appended = await attempt(api, "chat.appendStream", { channel, ts, markdown_text: ready });
    if (!appended.ok) return failed("chat.appendStream", appended.error);
    rendered = true;
    lastAppendMs = now;
  }
  const rest = await text.take(true);
  const blocks = [...(options.stopBlocks ?? []), ...context.closingBlocks];
  const stopped = await attempt(api, "chat.stopStream", {
    channel,
    ts,
    ...(rest === "" ? {} : { markdown_text: rest }),
    ...(blocks.length === 0 ? {} : { blocks }),
  });
  if (!stopped.ok) return failed("chat.stopStream", stopped.error);
  return {
    id: encodeSlackMessageId(context.teamId, channel, ts),
    threadId,
    raw: stopped.answer,
  };
}
