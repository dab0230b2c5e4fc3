import {
  type Adapter,
  type ChatHost,
  type Logger,
  readWebhookBody,
  type WebhookOptions,
  webhookErrorResponse,
  webhookProblem,
} from "@baton/core";
import type { InvokeResponse } from "@microsoft/teams.api";
import type { TeamsAttachmentFetchers } from "./attachments.js";
import type { PendingDialogs } from "./dialogs.js";
import type { TeamsFormatConverter } from "./format.js";
import { authorOf, messageFromActivity, threadIdOf } from "./message.js";
import {
  modalResponseToTaskModuleResponse,
  modalToAdaptiveCard,
  parseDialogSubmitValues,
  taskContinue,
} from "./modals.js";
import type { ResolvedTeamsOptions } from "./options.js";
import {
  classifyTeamsActivity,
  parseTeamsActivity,
  type TeamsActivity,
  TeamsActivityParseError,
} from "./parse.js";
import { fromTeamsReaction } from "./reactions.js";
import type { TeamsHost } from "./verify.js";

/** What the webhook needs from its adapter. */
export interface TeamsWebhookTarget {
  readonly adapter: Adapter;
  readonly host: ChatHost | undefined;
  readonly options: ResolvedTeamsOptions;
  readonly sdk: TeamsHost;
  readonly converter: TeamsFormatConverter;
  logger(): Logger;
  /** Keeps the conversation's reference (service URL, tenant, bot and user ids) in the State. */
  remember(activity: TeamsActivity): Promise<void>;
  /** Tells the adapter-level event handlers (conversation and installation updates). */
  lifecycle(activity: TeamsActivity): Promise<void>;
  /** The task/fetch invokes waiting for a handler's `openModal`. */
  readonly dialogs: PendingDialogs;
  /** How attachment bytes are downloaded (anonymously, or with the bot's token). */
  readonly fetchers: TeamsAttachmentFetchers;
  /** Answers a file consent card: uploads the offered file, or forgets it. */
  fileConsent(activity: TeamsActivity): Promise<void>;
  /** The sender's email from Graph (cached), or undefined; never rejects. */
  senderEmail(activity: TeamsActivity): Promise<string | undefined>;
}

/** What an Adaptive Card `Action.Execute` invoke is answered with: "keep the card as it is". */
export const INVOKE_ACK: InvokeResponse = {
  status: 200,
  body: {
    statusCode: 200,
    type: "application/vnd.microsoft.activity.message",
    value: "",
  },
} as InvokeResponse;

/** The minimal shape the SDK reads before it checks the token; anything else is a 400. */
function looksLikeActivity(body: unknown): boolean {
  const fields = body as { type?: unknown; serviceUrl?: unknown; conversation?: { id?: unknown } };
  return (
    typeof body === "object" &&
    body !== null &&
    !Array.isArray(body) &&
    typeof fields.type === "string" &&
    typeof fields.serviceUrl === "string" &&
    typeof fields.conversation === "object" &&
    fields.conversation !== null &&
    typeof fields.conversation.id === "string"
  );
}

function detach(
  work: () => Promise<unknown>,
  logger: Logger,
  what: string,
  options: WebhookOptions,
) {
  const task = work().catch((error: unknown) => {
    logger.error(`teams: ${what} failed`, { error });
  });
  options.waitUntil?.(task);
}

async function asAnswer(response: Response): Promise<InvokeResponse> {
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? undefined : JSON.parse(text),
  } as InvokeResponse;
}

/**
 * A Bot Framework activity, in DESIGN §9's order: method and media type (405/415) → size limit
 * (413) → JSON (400) → the Teams SDK checks the JWT (401, before anything is parsed further,
 * dispatched or written) → parse (400) → hand to the Chat → answer at once. Card actions and
 * reactions run detached (handed to `waitUntil`) so Teams gets its answer inside its deadline.
 */
export async function handleTeamsWebhook(
  target: TeamsWebhookTarget,
  request: Request,
  options: WebhookOptions = {},
): Promise<Response> {
  if (request.method !== "POST") {
    return webhookProblem(405, "METHOD_NOT_ALLOWED", "Bot Framework activities are POST requests");
  }
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return webhookProblem(415, "UNSUPPORTED_MEDIA_TYPE", "expected application/json");
  }
  const text = await readWebhookBody(request, target.options.maxBodyBytes);
  if (text === undefined) return webhookProblem(413, "PAYLOAD_TOO_LARGE", "the body is too large");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Upstream answers exactly this text.
    return new Response("Invalid JSON", { status: 400, headers: { "content-type": "text/plain" } });
  }
  if (!looksLikeActivity(body)) {
    return webhookProblem(400, "BAD_REQUEST", "the body is not a Bot Framework activity");
  }
  if (target.host === undefined) {
    return webhookProblem(503, "NOT_INITIALIZED", "the Chat has not initialized the adapter yet");
  }
  const host = target.host;
  const headers: Record<string, string> = {};
  const authorization = request.headers.get("authorization");
  if (authorization !== null) headers.authorization = authorization;
  const answer = await target.sdk.process(body as object, headers, (verified) =>
    onActivity(target, host, verified.body, options),
  );
  const status = answer.status || 200;
  const payload = answer.body === undefined ? "" : JSON.stringify(answer.body);
  if (status === 401)
    return webhookProblem(401, "UNAUTHORIZED", "the Bot Framework token was refused");
  return new Response(payload === "" ? null : payload, {
    status,
    headers: payload === "" ? {} : { "content-type": "application/json" },
  });
}

async function onActivity(
  target: TeamsWebhookTarget,
  host: ChatHost,
  body: unknown,
  options: WebhookOptions,
): Promise<InvokeResponse> {
  let activity: TeamsActivity;
  try {
    activity = parseTeamsActivity(body);
  } catch (error) {
    if (error instanceof TeamsActivityParseError) {
      return {
        status: 400,
        body: { ok: false, code: "BAD_REQUEST", error: error.message },
      } as InvokeResponse;
    }
    throw error;
  }
  try {
    return await dispatch(target, host, activity, options);
  } catch (error) {
    return asAnswer(webhookErrorResponse(error));
  }
}

async function dispatch(
  target: TeamsWebhookTarget,
  host: ChatHost,
  activity: TeamsActivity,
  options: WebhookOptions,
): Promise<InvokeResponse> {
  const { appId } = target.options;
  const logger = target.logger();
  const kind = classifyTeamsActivity(activity);
  if (kind.kind === "unsupported") return { status: 200 } as InvokeResponse;
  await target.remember(activity);
  const threadId = threadIdOf(activity);
  const receivedAtMs = target.options.clock.now();
  switch (kind.kind) {
    case "message": {
      // A message from the bot's own id carries author.isMe, so the runtime settles it as ignored.
      await host.receiveMessage(
        target.adapter,
        threadId,
        async () =>
          messageFromActivity(
            activity,
            appId,
            target.converter,
            receivedAtMs,
            false,
            target.fetchers,
            await target.senderEmail(activity),
          ),
        options,
      );
      return { status: 200 } as InvokeResponse;
    }
    case "action": {
      const actionId = kind.actionId;
      if (actionId === undefined) {
        logger.debug("teams: a card payload without an action id was ignored", { threadId });
        return kind.invoke ? INVOKE_ACK : ({ status: 200 } as InvokeResponse);
      }
      const event = {
        actionId,
        ...(kind.value === undefined ? {} : { value: kind.value }),
        user: authorOf(activity.from, appId),
        messageId: activity.replyToId ?? activity.id ?? "",
        threadId,
        raw: activity.raw as never,
      };
      detach(() => host.processAction(target.adapter, event, options), logger, "action", options);
      return kind.invoke ? INVOKE_ACK : ({ status: 200 } as InvokeResponse);
    }
    case "dialogOpen":
      return openDialog(target, host, activity, kind, options);
    case "dialogSubmit":
      return submitDialog(target, host, activity, options);
    case "fileConsent":
      // The upload may take longer than Teams waits for the invoke's answer.
      detach(() => target.fileConsent(activity), logger, "file upload", options);
      return { status: 200 } as InvokeResponse;
    case "reaction": {
      const messageId = activity.replyToId ?? activity.id ?? "";
      const changes = [
        ...activity.reactionsAdded.map((type) => ({ type, added: true })),
        ...activity.reactionsRemoved.map((type) => ({ type, added: false })),
      ];
      for (const change of changes) {
        const event = {
          emoji: fromTeamsReaction(change.type),
          rawEmoji: change.type,
          added: change.added,
          user: authorOf(activity.from, appId),
          messageId,
          threadId,
          raw: activity.raw as never,
        };
        detach(
          () => host.processReaction(target.adapter, event, options),
          logger,
          "reaction",
          options,
        );
      }
      return { status: 200 } as InvokeResponse;
    }
    case "update": {
      const message = messageFromActivity(
        activity,
        appId,
        target.converter,
        receivedAtMs,
        true,
        target.fetchers,
      );
      detach(
        () => host.processMessageUpdated(target.adapter, message, options),
        logger,
        "edit",
        options,
      );
      return { status: 200 } as InvokeResponse;
    }
    case "delete": {
      const event = { messageId: activity.id ?? "", threadId, raw: activity.raw as never };
      detach(
        () => host.processMessageDeleted(target.adapter, event, options),
        logger,
        "delete",
        options,
      );
      return { status: 200 } as InvokeResponse;
    }
    case "conversationUpdate":
    case "installationUpdate":
      detach(() => target.lifecycle(activity), logger, kind.kind, options);
      return { status: 200 } as InvokeResponse;
  }
}

/**
 * A modal button's task/fetch: the action runs with a trigger id, and the invoke is answered with
 * the modal the handler opens through `openModal(triggerId, …)` — or with nothing (no dialog)
 * when the handler opens none within the dialog deadline.
 */
async function openDialog(
  target: TeamsWebhookTarget,
  host: ChatHost,
  activity: TeamsActivity,
  kind: { actionId: string | undefined; value: string | undefined },
  options: WebhookOptions,
): Promise<InvokeResponse> {
  const logger = target.logger();
  if (kind.actionId === undefined) return { status: 200 } as InvokeResponse;
  const triggerId = `teams-dialog:${activity.id ?? target.options.clock.now()}`;
  const event = {
    actionId: kind.actionId,
    ...(kind.value === undefined ? {} : { value: kind.value }),
    user: authorOf(activity.from, target.options.appId),
    messageId: activity.replyToId ?? activity.id ?? "",
    threadId: threadIdOf(activity),
    triggerId,
    raw: activity.raw as never,
  };
  const handled = host.processAction(target.adapter, event, options).catch((error: unknown) => {
    logger.error("teams: dialog action failed", { error });
  });
  options.waitUntil?.(handled);
  const opened = await target.dialogs.expect(triggerId, handled);
  if (opened === undefined) return { status: 200 } as InvokeResponse;
  const card = modalToAdaptiveCard(opened.modal, opened.contextId);
  return { status: 200, body: taskContinue(opened.modal.title, card) } as InvokeResponse;
}

/** A dialog's task/submit: the modal's submit handlers answer, as a task module response. */
async function submitDialog(
  target: TeamsWebhookTarget,
  host: ChatHost,
  activity: TeamsActivity,
  options: WebhookOptions,
): Promise<InvokeResponse> {
  const value = activity.value as { data?: unknown } | undefined;
  const { contextId, callbackId, values } = parseDialogSubmitValues(value?.data);
  if (callbackId === undefined) return { status: 200 } as InvokeResponse;
  const event = {
    callbackId,
    viewId: activity.replyToId ?? activity.id ?? "",
    values,
    user: authorOf(activity.from, target.options.appId),
    raw: activity.raw as never,
  };
  const response = await host.processModalSubmit(target.adapter, event, contextId, options);
  const answer = modalResponseToTaskModuleResponse(response, target.logger(), contextId);
  return (answer === undefined ? { status: 200 } : { status: 200, body: answer }) as InvokeResponse;
}
