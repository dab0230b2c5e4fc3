import {
  type Author,
  type ChatHost,
  type JsonValue,
  type ProcessOptions,
  type WebhookOptions,
  webhookErrorResponse,
} from "@baton/core";
import { slackOption } from "./cards.js";
import { encodeSlackEphemeralMessageId } from "./ephemeral-id.js";
import { slackThreadIdOf } from "./message.js";
import { decodeModalMetadata, modalResponseBody, viewSubmissionValues } from "./modals.js";
import type { SlackInteraction, SlackSlashCommand } from "./parse.js";
import { encodeSlackMessageId } from "./thread-id.js";
import { slackTenantOf } from "./token-context.js";
import { ack, detach, json, type SlackWebhookTarget } from "./webhook-target.js";

type Json = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function rec(value: unknown): Json {
  return typeof value === "object" && value !== null ? (value as Json) : {};
}

/** The author of an interaction (`payload.user`). */
function userOf(payload: Json, botUserId: string | undefined): Author {
  const user = rec(payload.user);
  const id = str(user.id) ?? "unknown";
  const name = str(user.username) ?? str(user.name) ?? id;
  return {
    userId: id,
    userName: name,
    fullName: str(user.name) ?? name,
    isBot: false,
    isMe: id === botUserId,
  };
}

function actionValue(action: Json): string | undefined {
  return (
    str(action.value) ??
    str(rec(action.selected_option).value) ??
    str(action.selected_date) ??
    str(action.selected_user) ??
    str(action.selected_channel) ??
    str(action.selected_conversation)
  );
}

/**
 * One interactivity payload. `block_actions` and `view_closed` are acknowledged at once and
 * handed over after; `view_submission` and `block_suggestion` wait for the handlers (within
 * `interactionDeadlineMs`, inside Slack's 3 s) because Slack reads their answer from the response.
 */
export async function onInteraction(
  target: SlackWebhookTarget,
  host: ChatHost,
  interaction: SlackInteraction,
  options: WebhookOptions,
): Promise<Response> {
  const { payload } = interaction;
  const team = str(rec(payload.team).id) ?? target.teamId();
  const process: ProcessOptions = {
    ...options,
    ...(team ? { tenantId: slackTenantOf(team) } : {}),
  };
  const deadline = { ...process, deadlineMs: target.options.interactionDeadlineMs };
  const user = userOf(payload, target.self().botUserId);
  const logger = target.logger();
  const raw = payload as unknown as JsonValue;
  try {
    switch (interaction.type) {
      case "block_actions": {
        const events = blockActionEvents(team, payload, user);
        detach(
          async () => {
            for (const event of events) await host.processAction(target.adapter, event, process);
          },
          logger,
          "block action",
          options,
        );
        return ack();
      }
      case "view_submission": {
        const view = rec(payload.view);
        const { contextId, privateMetadata } = decodeModalMetadata(str(view.private_metadata));
        const response = await host.processModalSubmit(
          target.adapter,
          {
            callbackId: str(view.callback_id) ?? "",
            viewId: str(view.id) ?? "",
            values: viewSubmissionValues(view),
            user,
            ...(privateMetadata === undefined ? {} : { privateMetadata }),
            raw,
          },
          contextId,
          deadline,
        );
        const body = modalResponseBody(response, contextId);
        return body === undefined ? ack() : json(200, body);
      }
      case "view_closed": {
        const view = rec(payload.view);
        const { contextId, privateMetadata } = decodeModalMetadata(str(view.private_metadata));
        const event = {
          callbackId: str(view.callback_id) ?? "",
          viewId: str(view.id) ?? "",
          user,
          ...(privateMetadata === undefined ? {} : { privateMetadata }),
          raw,
        };
        detach(
          () => host.processModalClose(target.adapter, event, contextId, process),
          logger,
          "modal close",
          options,
        );
        return ack();
      }
      case "block_suggestion": {
        const result = await host.processOptionsLoad(
          target.adapter,
          { actionId: str(payload.action_id) ?? "", query: str(payload.value) ?? "", user, raw },
          deadline,
        );
        return json(200, optionsBody(result));
      }
      default:
        logger.debug("slack: interaction ignored", { type: interaction.type });
        return ack();
    }
  } catch (error) {
    return webhookErrorResponse(error);
  }
}

function optionsBody(result: Awaited<ReturnType<ChatHost["processOptionsLoad"]>>) {
  if (result === undefined || result.length === 0) return { options: [] };
  const first = result[0] as unknown as Json;
  if (Array.isArray(first.options)) {
    return {
      option_groups: (result as Array<{ label: string; options: [] }>).map((group) => ({
        label: { type: "plain_text", text: group.label.slice(0, 75) },
        options: group.options.slice(0, 100).map((option) => slackOption(option)),
      })),
    };
  }
  return {
    options: (result as Parameters<typeof slackOption>[0][])
      .slice(0, 100)
      .map((option) => slackOption(option)),
  };
}

function blockActionEvents(team: string, payload: Json, user: Author) {
  const container = rec(payload.container);
  const message = rec(payload.message);
  const channel = str(rec(payload.channel).id) ?? str(container.channel_id);
  const ts = str(message.ts) ?? str(container.message_ts);
  const threadId =
    channel === undefined || ts === undefined
      ? ""
      : slackThreadIdOf(channel, ts, str(message.thread_ts) ?? str(container.thread_ts));
  const responseUrl = str(payload.response_url);
  // Slack edits an ephemeral message only through the response_url of an action on it.
  const messageId =
    container.is_ephemeral === true && responseUrl !== undefined && ts !== undefined
      ? encodeSlackEphemeralMessageId(ts, responseUrl, user.userId)
      : channel && ts
        ? encodeSlackMessageId(team, channel, ts)
        : "";
  const triggerId = str(payload.trigger_id);
  const actions = Array.isArray(payload.actions) ? (payload.actions as Json[]) : [];
  return actions.map((action) => {
    const value = actionValue(action);
    return {
      actionId: str(action.action_id) ?? "",
      ...(value === undefined ? {} : { value }),
      user,
      messageId,
      threadId,
      ...(triggerId === undefined ? {} : { triggerId }),
      raw: payload as unknown as JsonValue,
    };
  });
}

/** A slash command: acknowledged at once (empty 200), handed to the handlers after. */
export function onSlashCommand(
  target: SlackWebhookTarget,
  host: ChatHost,
  command: SlackSlashCommand,
  options: WebhookOptions,
): Response {
  const { params } = command;
  const team = params.team_id ?? target.teamId();
  const userId = params.user_id ?? "unknown";
  const event = {
    command: params.command ?? "",
    text: params.text ?? "",
    user: {
      userId,
      userName: params.user_name ?? userId,
      fullName: params.user_name ?? userId,
      isBot: false,
      isMe: false,
    },
    channelId: `slack:${params.channel_id ?? ""}`,
    ...(params.trigger_id ? { triggerId: params.trigger_id } : {}),
    raw: { ...params },
  };
  const process: ProcessOptions = {
    ...options,
    ...(team ? { tenantId: slackTenantOf(team) } : {}),
  };
  detach(
    () => host.processSlashCommand(target.adapter, event, process),
    target.logger(),
    "slash command",
    options,
  );
  return ack();
}
