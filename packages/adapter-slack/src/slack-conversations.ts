import type { Logger } from "@baton/core";
import type { SlackApi } from "./api.js";
import { SlackApiError } from "./errors.js";
import { slackThreadIdOf } from "./message.js";
import { decodeSlackThreadId, encodeSlackThreadId } from "./thread-id.js";

type Json = Record<string, unknown>;

/** The status `startTyping` shows when neither the caller nor the config names one. */
const DEFAULT_TYPING_STATUS = "Typing...";

/** The DM with `userId` (`conversations.open`) as a Baton thread id (`slack:{D…}:`). */
export async function openSlackDM(api: SlackApi, userId: string): Promise<string> {
  const answer = await api.call("conversations.open", { users: userId });
  const channel = (answer.channel as Json | undefined)?.id;
  if (typeof channel !== "string") {
    throw new SlackApiError(
      "conversations.open",
      "conversations.open returned no channel",
      undefined,
    );
  }
  return encodeSlackThreadId({ channel, threadTs: "" });
}

/** The thread of the message `ts` in `channel`: its parent, learned with `conversations.replies`. */
export async function slackThreadOfMessage(
  api: SlackApi,
  channel: string,
  ts: string,
): Promise<string> {
  const answer = await api.call("conversations.replies", { channel, ts, limit: 1 });
  const first = (answer.messages as Json[] | undefined)?.[0];
  const parent = typeof first?.thread_ts === "string" ? first.thread_ts : undefined;
  return slackThreadIdOf(channel, ts, parent);
}

/**
 * Slack's assistant status line (`assistant.threads.setStatus`), shown under a thread. The top
 * level of a DM has no thread to show it in, so there the call is logged and skipped; a failed
 * call is logged, never thrown (upstream's rule).
 */
export async function startSlackTyping(
  api: SlackApi,
  logger: Logger,
  threadId: string,
  status: string | undefined,
  configuredLoadingMessages?: readonly string[],
): Promise<void> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  // Upstream's rule: an explicit status is also the only loading message; otherwise the
  // configured messages rotate, the first one shown first.
  const loadingMessages =
    status !== undefined ? [status] : (configuredLoadingMessages ?? [DEFAULT_TYPING_STATUS]);
  if (!threadTs) {
    logger.debug("slack: no typing status outside a thread", { threadId });
    return;
  }
  try {
    await api.call("assistant.threads.setStatus", {
      channel_id: channel,
      thread_ts: threadTs,
      status: status ?? loadingMessages[0] ?? DEFAULT_TYPING_STATUS,
      loading_messages: loadingMessages,
    });
  } catch (error) {
    // A status line is a courtesy: its failure (a channel without the assistant feature) must
    // not fail the handler that asked for it.
    logger.warn("slack: assistant.threads.setStatus failed", { error, threadId });
  }
}
