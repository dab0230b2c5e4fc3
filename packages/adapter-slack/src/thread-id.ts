import { ValidationError } from "@baton/core";

/**
 * One Slack conversation: a channel (`C…`, `G…`, `D…`) and the `ts` of the thread's parent
 * message. `threadTs` is empty for the top level of a DM (upstream's rule, so a DM opened with
 * `openDM` and the user's top-level messages share one thread).
 */
export interface SlackThreadData {
  readonly channel: string;
  readonly threadTs: string;
}

/** The adapter name every Slack thread id starts with. */
export const SLACK_ADAPTER_NAME = "slack";

const PREFIX = `${SLACK_ADAPTER_NAME}:`;
const STEP = "decode slack thread id";

/** `slack:{channel}:{threadTs}` (upstream's format; `threadTs` may be empty). */
export function encodeSlackThreadId(data: SlackThreadData): string {
  if (!data?.channel || data.channel.includes(":")) {
    throw new ValidationError("a Slack thread needs a channel id without ':'", {
      step: "encode slack thread id",
    });
  }
  return `${PREFIX}${data.channel}:${data.threadTs ?? ""}`;
}

/**
 * The inverse of {@link encodeSlackThreadId}; also reads a channel id `slack:{channel}` (empty
 * `threadTs`). Throws a `ValidationError` for anything else.
 */
export function decodeSlackThreadId(threadId: string): SlackThreadData {
  if (typeof threadId !== "string" || !threadId.startsWith(PREFIX)) {
    throw new ValidationError(`${JSON.stringify(threadId)} is not a Slack thread id`, {
      step: STEP,
    });
  }
  const parts = threadId.slice(PREFIX.length).split(":");
  const channel = parts[0] ?? "";
  if (parts.length > 2 || channel === "") {
    throw new ValidationError(
      `${JSON.stringify(threadId)} is not of the form slack:{channel}:{threadTs}`,
      { step: STEP },
    );
  }
  return { channel, threadTs: parts[1] ?? "" };
}

/** The channel of a thread, `slack:{channel}`. */
export function slackChannelIdFromThreadId(threadId: string): string {
  return `${PREFIX}${decodeSlackThreadId(threadId).channel}`;
}

/** True for a direct message channel (`D…`). */
export function isSlackDMChannel(channel: string): boolean {
  return channel.startsWith("D");
}

/**
 * The Baton id of a Slack message. A `ts` is unique only within its channel, so the id carries
 * the workspace and the channel too: `{team}:{channel}:{ts}`. It is the core's dedupe key, so a
 * message delivered both as `message` and `app_mention` (same channel and ts) runs once.
 */
export function encodeSlackMessageId(team: string, channel: string, ts: string): string {
  return `${team || "_"}:${channel}:${ts}`;
}

/**
 * The `ts` a message id stands for: the last part of `{team}:{channel}:{ts}`, or the id itself
 * when it is a bare `ts` (as upstream code passes it).
 */
export function slackTsOfMessageId(messageId: string): string {
  const ts = messageId.slice(messageId.lastIndexOf(":") + 1);
  if (!/^\d+\.\d+$/.test(ts)) {
    throw new ValidationError(`${JSON.stringify(messageId)} is not a Slack message id or ts`, {
      step: "decode slack message id",
    });
  }
  return ts;
}
