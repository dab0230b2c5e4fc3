import {
  type ChatHost,
  defaultEmojiResolver,
  type JsonValue,
  type Message,
  type ProcessOptions,
  type ReceiveResult,
  type WebhookOptions,
  webhookErrorResponse,
} from "@baton/core";
import { agentViewMayApply, agentViewThreadId, inThread } from "./agent-view.js";
import { assistantEventWork } from "./assistant-events.js";
import { SlackApiError } from "./errors.js";
import { fetchLinkedSlackMessage } from "./history.js";
import { slackUnfurlsOf } from "./links.js";
import { isSpokenMessage, messageFromSlack, slackAuthor, slackThreadIdOf } from "./message.js";
import { learnNames, learnNamesAfterAnswer, userChangeWork } from "./name-events.js";
import type { SlackEvent, SlackEventCallback } from "./parse.js";
import { encodeSlackMessageId } from "./thread-id.js";
import { slackTenantOf } from "./token-context.js";
import { ack, detach, type SlackWebhookTarget } from "./webhook-target.js";

/**
 * The Slack errors of a thread look-up after which a reaction is still delivered, in the
 * reacted message's own thread: the message is gone or unreachable to the bot, but the
 * reaction happened.
 */
const REACTION_LOOKUP_FALLBACK_ERRORS: ReadonlySet<string> = new Set([
  "thread_not_found",
  "missing_scope",
  "not_in_channel",
]);

/**
 * The thread of a reacted message: its parent's, looked up; when Slack refuses the look-up
 * with one of {@link REACTION_LOOKUP_FALLBACK_ERRORS}, the message's own thread (its ts as the
 * thread, as for a top-level message), logged at warn with Slack's code. Other failures
 * (rate limits, transport) still fail the event.
 */
async function reactionThreadId(
  target: SlackWebhookTarget,
  channel: string,
  ts: string,
): Promise<string> {
  try {
    return await target.threadOfMessage(channel, ts);
  } catch (error) {
    const slackError = error instanceof SlackApiError ? error.slackError : undefined;
    if (slackError === undefined || !REACTION_LOOKUP_FALLBACK_ERRORS.has(slackError)) throw error;
    target.logger().warn("slack: reaction thread look-up failed; using the message's own thread", {
      slackError,
      channel,
      ts,
    });
    return slackThreadIdOf(channel, ts, undefined);
  }
}

/** How long the mark of a handled non-message event answers Slack's retries (1 h). */
const EVENT_MARK_TTL_MS = 60 * 60 * 1_000;

function eventMarkKey(payload: SlackEventCallback): string | undefined {
  return payload.eventId === undefined
    ? undefined
    : `slack:event:${payload.teamId || "_"}:${payload.eventId}`;
}

/**
 * One Events API delivery. Messages (and `app_mention`, which Slack sends as well for the same
 * message: same id, so the core's dedupe runs it once) go to `receiveMessage`, whose acceptance
 * is the only State round trip before the answer. Edits, deletes and reactions are handed over
 * after the answer; a Slack retry (`X-Slack-Retry-Num`) of one that was already handed over is
 * answered 200 without running again (one State read).
 */
export async function onEventCallback(
  target: SlackWebhookTarget,
  host: ChatHost,
  payload: SlackEventCallback,
  retryNum: string | null,
  options: WebhookOptions,
): Promise<Response> {
  const { event } = payload;
  const team = payload.teamId || event.team || target.teamId();
  const process: ProcessOptions = {
    ...options,
    ...(team ? { tenantId: slackTenantOf(team) } : {}),
  };
  const logger = target.logger();
  if ((event.type === "message" && isSpokenMessage(event)) || event.type === "app_mention") {
    const channel = event.channel;
    if (!channel || !event.ts) return ack();
    const parsed = messageFromSlack(event, {
      team,
      channel,
      self: target.self(),
      mentioned: event.type === "app_mention",
      withFetcher: (attachment) => target.adapter.rehydrateAttachment?.(attachment) ?? attachment,
      fetchLinked: (link) =>
        fetchLinkedSlackMessage(target.api, link, (item) =>
          target.adapter.parseMessage({ ...item, channel: link.channel }),
        ),
      // Names from this instance's cache only: nothing waits for users.info before the answer.
      ...(target.names ? { names: target.names.snapshot() } : {}),
    });
    let received: ReceiveResult;
    let message = parsed;
    try {
      const { agentView } = target.options.assistant;
      const agentThread = agentViewMayApply(agentView, channel, event.ts, event.thread_ts)
        ? await agentViewThreadId(agentView, host.getState(), channel, event.ts, event.thread_ts)
        : undefined;
      if (agentThread !== undefined) message = inThread(parsed, agentThread);
      received = await host.receiveMessage(target.adapter, message.threadId, message, process);
    } catch (error) {
      return webhookErrorResponse(error);
    }
    learnNamesAfterAnswer(target, event, message.threadId, received, options);
    return ack();
  }
  const work = otherEventWork(target, host, team, event, process);
  if (work === undefined) {
    logger.debug("slack: event ignored", { type: event.type, subtype: event.subtype });
    return ack();
  }
  const markKey = eventMarkKey(payload);
  if (retryNum !== null && markKey !== undefined) {
    try {
      if ((await host.getState().get(markKey)) !== null) return ack();
    } catch (error) {
      return webhookErrorResponse(error);
    }
  }
  detach(
    async () => {
      if (markKey !== undefined) await host.getState().set(markKey, 1, EVENT_MARK_TTL_MS);
      await work();
    },
    logger,
    event.type,
    options,
  );
  return ack();
}

/** The work of a non-message event, or undefined for an event the adapter ignores. */
function otherEventWork(
  target: SlackWebhookTarget,
  host: ChatHost,
  team: string,
  event: SlackEvent,
  options: ProcessOptions,
): (() => Promise<void>) | undefined {
  const { adapter } = target;
  if (event.type === "message" && event.subtype === "message_changed" && event.message) {
    // A tombstone (the parent of a thread was deleted) and an edit that changed no text (Slack
    // sends one when it unfurls a link or updates thread metadata) are not edits anyone made.
    if (event.message.subtype === "tombstone") return undefined;
    if (event.previous_message && event.previous_message.text === event.message.text) {
      return undefined;
    }
    // Slack's unfurl of a link arrives as a change without `edited` (often without the previous
    // message): nobody edited anything. The links carry the unfurl wherever the message is read.
    if (event.message.edited === undefined && slackUnfurlsOf(event.message.attachments).size > 0) {
      return undefined;
    }
    const channel = event.channel ?? "";
    const inner = { ...event.message, ...(event.message.channel ? {} : { channel }) };
    return async () => {
      const agentThread = await agentViewThreadId(
        target.options.assistant.agentView,
        host.getState(),
        channel,
        inner.ts ?? "",
        inner.thread_ts,
      );
      const threadId = agentThread ?? slackThreadIdOf(channel, inner.ts ?? "", inner.thread_ts);
      // Names from cache, so an edit is not held behind a look-up (nor a delete after it).
      const context = {
        team,
        channel,
        self: target.self(),
        ...(target.names ? { names: target.names.snapshot() } : {}),
      };
      const inThisThread = (message: Message) =>
        agentThread === undefined ? message : inThread(message, agentThread);
      const before = event.previous_message;
      await host.processMessageUpdated(
        adapter,
        inThisThread(messageFromSlack(inner, context)),
        options,
        before === undefined
          ? undefined
          : inThisThread(
              messageFromSlack({ ...before, channel: before.channel ?? channel }, context),
            ),
      );
      await learnNames(target, inner, threadId);
    };
  }
  if (event.type === "message" && event.subtype === "message_deleted" && event.deleted_ts) {
    const channel = event.channel ?? "";
    const deleted = {
      messageId: encodeSlackMessageId(team, channel, event.deleted_ts),
      threadId: slackThreadIdOf(channel, event.deleted_ts, event.previous_message?.thread_ts),
      raw: event as unknown as JsonValue,
    };
    return async () => {
      const agentThread = await agentViewThreadId(
        target.options.assistant.agentView,
        host.getState(),
        channel,
        event.deleted_ts ?? "",
        event.previous_message?.thread_ts,
      );
      await host.processMessageDeleted(
        adapter,
        agentThread === undefined ? deleted : { ...deleted, threadId: agentThread },
        options,
      );
    };
  }
  const assistantWork = assistantEventWork(target, host, team, event, options);
  if (assistantWork !== undefined) return assistantWork;
  if (event.type === "user_change" && event.changed_user_id) {
    return userChangeWork(target, host, team, { ...event, changed_user_id: event.changed_user_id });
  }
  if (
    (event.type === "reaction_added" || event.type === "reaction_removed") &&
    event.item?.type === "message" &&
    event.item.channel &&
    event.item.ts &&
    event.reaction
  ) {
    const { channel, ts } = event.item as { channel: string; ts: string };
    const reaction = event.reaction;
    return async () => {
      // The event names only the message; its thread takes a look-up (after the answer).
      const threadId = await reactionThreadId(target, channel, ts);
      const { user } = event;
      const isSelf = user === undefined || user === target.self().botUserId;
      const reactor = isSelf ? undefined : await target.names?.lookupUser(user);
      await host.processReaction(
        adapter,
        {
          emoji: defaultEmojiResolver.fromSlack(reaction),
          rawEmoji: reaction,
          added: event.type === "reaction_added",
          user: slackAuthor(
            event,
            target.self(),
            reactor ? { user: () => reactor, channelName: () => undefined } : undefined,
          ),
          messageId: encodeSlackMessageId(team, channel, ts),
          threadId,
          raw: event as unknown as JsonValue,
        },
        options,
      );
    };
  }
  return undefined;
}
