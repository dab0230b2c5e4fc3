import type {
  AdapterPostableMessage,
  EphemeralMessage,
  ScheduledMessage,
  ScheduleOptions,
} from "@baton/core";
import type { SlackApi } from "./api.js";
import { renderSlackMessage, splitSlackText } from "./post.js";
import { decodeSlackThreadId } from "./thread-id.js";

/**
 * A message only `userId` sees (`chat.postEphemeral`), in the thread when there is one. Its id is
 * Slack's `message_ts` (upstream's): Slack edits an ephemeral message only through the
 * `response_url` of an interaction on it, so it becomes editable once the user acts on it, with
 * the action's `messageId` (see `encodeSlackEphemeralMessageId`).
 */
export async function postSlackEphemeral(
  api: SlackApi,
  threadId: string,
  userId: string,
  message: AdapterPostableMessage,
): Promise<EphemeralMessage> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  const body = renderSlackMessage(message);
  const answer = await api.call("chat.postEphemeral", {
    channel,
    user: userId,
    text: splitSlackText(body.text)[0],
    ...(body.blocks ? { blocks: body.blocks } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  return { id: String(answer.message_ts ?? ""), threadId, usedFallback: false, raw: answer };
}

/**
 * A post Slack sends at `options.postAt` (`chat.scheduleMessage`, whole seconds); `cancel()`
 * deletes it (`chat.deleteScheduledMessage`) while it is still pending.
 */
export async function scheduleSlackMessage(
  api: SlackApi,
  threadId: string,
  message: AdapterPostableMessage,
  options: ScheduleOptions,
): Promise<ScheduledMessage> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  const body = renderSlackMessage(message);
  const answer = await api.call("chat.scheduleMessage", {
    channel,
    post_at: Math.floor(options.postAt.getTime() / 1_000),
    text: splitSlackText(body.text)[0],
    ...(body.blocks ? { blocks: body.blocks } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  const scheduledMessageId = String(answer.scheduled_message_id ?? "");
  return {
    scheduledMessageId,
    channelId: `slack:${channel}`,
    postAt: options.postAt,
    raw: answer,
    cancel: async () => {
      await api.call("chat.deleteScheduledMessage", {
        channel,
        scheduled_message_id: scheduledMessageId,
      });
    },
  };
}
