import {
  type AdapterPostableMessage,
  defaultEmojiResolver,
  type RawMessage,
  ValidationError,
} from "@baton/core";
import type { SlackApi, SlackResponse } from "./api.js";
import { slackFilesOf, uploadSlackFiles, withoutFiles } from "./file-upload.js";
import { renderSlackMessage, splitSlackText } from "./post.js";
import { decodeSlackThreadId, encodeSlackMessageId, slackTsOfMessageId } from "./thread-id.js";

type Json = Record<string, unknown>;

/** The Baton answer to a post or edit: the message id carries team and channel (ADR 0022). */
function rawMessageOf(
  team: string,
  channel: string,
  threadId: string,
  answer: SlackResponse,
): RawMessage {
  const ts = String(answer.ts ?? "");
  const fromAnswer = (answer.message as Json | undefined)?.team;
  return {
    id: encodeSlackMessageId(typeof fromAnswer === "string" ? fromAnswer : team, channel, ts),
    threadId,
    raw: answer,
  };
}

/** True when the message has no text or card of its own (only files, if anything). */
function isFileOnly(message: AdapterPostableMessage): boolean {
  try {
    renderSlackMessage(message);
    return false;
  } catch (error) {
    if (error instanceof ValidationError) return true;
    throw error;
  }
}

/**
 * Posts into a thread (`chat.postMessage`, `thread_ts` when the thread has one, links not
 * unfurled as upstream). Text over Slack's limit goes out as several posts; the first is the
 * message the caller gets back. Files are uploaded first (`uploadSlackFiles`) into the same
 * thread and their ids added to `raw.uploadedFileIds`; a post of files alone makes no
 * `chat.postMessage` and its id is `file-{first file id}` (upstream's rule).
 */
export async function postSlackMessage(
  api: SlackApi,
  team: string,
  threadId: string,
  message: AdapterPostableMessage,
): Promise<RawMessage> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  const files = slackFilesOf(message);
  if (files.length === 0) return postSlackText(api, team, threadId, message);
  const text = withoutFiles(message);
  // Checked before the upload, so a refused message uploads nothing.
  const fileOnly = isFileOnly(text);
  const uploadedFileIds = await uploadSlackFiles(api, channel, threadTs, files);
  if (fileOnly) {
    return { id: `file-${uploadedFileIds[0] ?? ""}`, threadId, raw: { files, uploadedFileIds } };
  }
  const posted = await postSlackText(api, team, threadId, text);
  return { ...posted, raw: { ...(posted.raw as SlackResponse), uploadedFileIds } };
}

async function postSlackText(
  api: SlackApi,
  team: string,
  threadId: string,
  message: AdapterPostableMessage,
): Promise<RawMessage> {
  const { channel, threadTs } = decodeSlackThreadId(threadId);
  const body = renderSlackMessage(message);
  const parts = body.blocks ? [body.text] : splitSlackText(body.text);
  let first: SlackResponse | undefined;
  for (const [index, text] of parts.entries()) {
    const answer = await api.call("chat.postMessage", {
      channel,
      text,
      ...(index === 0 && body.blocks ? { blocks: body.blocks } : {}),
      ...(threadTs ? { thread_ts: threadTs } : {}),
      unfurl_links: false,
      unfurl_media: false,
    });
    first ??= answer;
  }
  return rawMessageOf(team, channel, threadId, first as SlackResponse);
}

/** Replaces a message's text and blocks (`chat.update`); text past the limit is cut with "…". */
export async function editSlackMessage(
  api: SlackApi,
  team: string,
  threadId: string,
  messageId: string,
  message: AdapterPostableMessage,
): Promise<RawMessage> {
  const { channel } = decodeSlackThreadId(threadId);
  const body = renderSlackMessage(message);
  const answer = await api.call("chat.update", {
    channel,
    ts: slackTsOfMessageId(messageId),
    text: splitSlackText(body.text)[0],
    blocks: body.blocks ?? [],
  });
  return rawMessageOf(team, channel, threadId, answer);
}

/** Deletes a message (`chat.delete`). */
export async function deleteSlackMessage(
  api: SlackApi,
  threadId: string,
  messageId: string,
): Promise<void> {
  const { channel } = decodeSlackThreadId(threadId);
  await api.call("chat.delete", { channel, ts: slackTsOfMessageId(messageId) });
}

/** Adds or removes the bot's reaction; the emoji name goes through core's emoji map. */
export async function reactToSlackMessage(
  api: SlackApi,
  method: "reactions.add" | "reactions.remove",
  threadId: string,
  messageId: string,
  emoji: string,
): Promise<void> {
  const { channel } = decodeSlackThreadId(threadId);
  await api.call(method, {
    channel,
    timestamp: slackTsOfMessageId(messageId),
    name: defaultEmojiResolver.toSlack(emoji.replace(/^:|:$/g, "")),
  });
}
