import { type AdapterPostableMessage, type RawMessage, ValidationError } from "@baton/core";
import { sendSlackResponseUrl } from "./api/files.js";
import type { SlackEphemeralMessageRef } from "./ephemeral-id.js";
import { renderSlackMessage, splitSlackText } from "./post.js";
import { decodeSlackThreadId } from "./thread-id.js";

/** The hosts Slack hands `response_url`s out on: Slack's, and GovSlack's. */
const RESPONSE_URL_HOSTS = new Set(["hooks.slack.com", "hooks.slack-gov.com"]);

/**
 * The `response_url` of an ephemeral message id, once it is known to be Slack's: https on
 * Slack's hooks host, or the origin of the configured `apiUrl` (a proxy, GovSlack, the offline
 * fake). A message id may come from anywhere in a bot's code, so a forged one must not make the
 * adapter post to a URL of the forger's choosing.
 */
function trustedResponseUrl(responseUrl: string, apiUrl: string | undefined, step: string): string {
  let url: URL | undefined;
  try {
    url = new URL(responseUrl);
  } catch {
    url = undefined;
  }
  const onSlack =
    url !== undefined &&
    url.protocol === "https:" &&
    url.username === "" &&
    url.password === "" &&
    RESPONSE_URL_HOSTS.has(url.hostname);
  const onApiOrigin =
    url !== undefined && apiUrl !== undefined && new URL(apiUrl).origin === url.origin;
  if (url === undefined || !(onSlack || onApiOrigin)) {
    throw new ValidationError(
      "the ephemeral message id does not carry a Slack response_url (https://hooks.slack.com/…)",
      { step },
    );
  }
  return url.href;
}

/**
 * Replaces an ephemeral message through its `response_url` (`replace_original`): text rendered
 * as for `chat.update`, a card as Block Kit with its fallback text, in the thread's `thread_ts`.
 * Resolves with the same id, which edits or deletes the message again (Slack takes a
 * `response_url` 5 times within 30 minutes; past that it refuses and this rejects).
 */
export async function editSlackEphemeral(
  ref: SlackEphemeralMessageRef,
  messageId: string,
  threadId: string,
  message: AdapterPostableMessage,
  apiUrl: string | undefined,
): Promise<RawMessage> {
  const responseUrl = trustedResponseUrl(ref.responseUrl, apiUrl, "edit slack ephemeral message");
  const { threadTs } = decodeSlackThreadId(threadId);
  const body = renderSlackMessage(message);
  await sendSlackResponseUrl(responseUrl, {
    text: splitSlackText(body.text)[0],
    ...(body.blocks ? { blocks: body.blocks } : {}),
    replaceOriginal: true,
    ...(threadTs ? { threadTs } : {}),
  });
  return { id: messageId, threadId, raw: { ephemeral: true, messageTs: ref.messageTs } };
}

/** Deletes an ephemeral message through its `response_url` (`delete_original`). */
export async function deleteSlackEphemeral(
  ref: SlackEphemeralMessageRef,
  apiUrl: string | undefined,
): Promise<void> {
  const responseUrl = trustedResponseUrl(ref.responseUrl, apiUrl, "delete slack ephemeral message");
  await sendSlackResponseUrl(responseUrl, { deleteOriginal: true });
}
