import { ValidationError } from "@baton/core";

/** A Bot Framework account (`from`, `recipient`, a mention's `mentioned`). */
export interface TeamsAccount {
  readonly id: string;
  readonly name?: string;
  readonly aadObjectId?: string;
}

/** The activity fields the adapter reads, checked. */
export interface TeamsActivity {
  readonly type: string;
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly serviceUrl: string;
  readonly text: string;
  readonly textFormat: string | undefined;
  readonly timestamp: string | undefined;
  readonly from: TeamsAccount | undefined;
  readonly recipient: TeamsAccount | undefined;
  readonly conversation: {
    readonly id: string;
    readonly conversationType: string | undefined;
    readonly tenantId: string | undefined;
    readonly isGroup: boolean;
  };
  readonly replyToId: string | undefined;
  readonly entities: readonly Record<string, unknown>[];
  readonly attachments: readonly Record<string, unknown>[];
  readonly value: unknown;
  readonly channelData: Record<string, unknown>;
  readonly reactionsAdded: readonly string[];
  readonly reactionsRemoved: readonly string[];
  readonly membersAdded: readonly TeamsAccount[];
  readonly membersRemoved: readonly TeamsAccount[];
  readonly action: string | undefined;
  /** The whole body, as received. */
  readonly raw: Record<string, unknown>;
}

/** An activity that is not a Bot Framework activity the adapter can read (answered 400). */
export class TeamsActivityParseError extends ValidationError {
  constructor(message: string) {
    super(`teams activity: ${message}`, { step: "parse teams activity" });
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function account(value: unknown): TeamsAccount | undefined {
  const fields = record(value);
  const id = text(fields?.id);
  if (fields === undefined || id === undefined || id === "") return undefined;
  return {
    id,
    ...(text(fields.name) === undefined ? {} : { name: text(fields.name) }),
    ...(text(fields.aadObjectId) === undefined ? {} : { aadObjectId: text(fields.aadObjectId) }),
  };
}

function records(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.map(record).filter((item): item is Record<string, unknown> => item !== undefined);
}

function reactionTypes(value: unknown): string[] {
  return records(value)
    .map((reaction) => text(reaction.type))
    .filter((type): type is string => type !== undefined && type !== "");
}

/**
 * Reads an activity body (already authenticated by the Teams SDK). Every field the adapter uses
 * is type-checked here, so the rest of the adapter never meets a malformed value.
 */
export function parseTeamsActivity(body: unknown): TeamsActivity {
  const raw = record(body);
  if (raw === undefined) throw new TeamsActivityParseError("the body must be a JSON object");
  // A body without a type is still read (and classified unsupported), as upstream does.
  const type = text(raw.type) || "unknown";
  const serviceUrl = text(raw.serviceUrl);
  if (serviceUrl === undefined || !/^https?:\/\//.test(serviceUrl)) {
    throw new TeamsActivityParseError("serviceUrl must be an http(s) URL");
  }
  const conversation = record(raw.conversation);
  const conversationId = text(conversation?.id);
  if (conversation === undefined || conversationId === undefined || conversationId === "") {
    throw new TeamsActivityParseError("conversation.id is missing");
  }
  const channelData = record(raw.channelData) ?? {};
  return {
    type,
    id: text(raw.id),
    name: text(raw.name),
    serviceUrl,
    text: text(raw.text) ?? "",
    textFormat: text(raw.textFormat),
    timestamp: text(raw.timestamp),
    from: account(raw.from),
    recipient: account(raw.recipient),
    conversation: {
      id: conversationId,
      conversationType: text(conversation.conversationType),
      tenantId: text(conversation.tenantId) ?? text(record(channelData.tenant)?.id),
      isGroup: conversation.isGroup === true,
    },
    replyToId: text(raw.replyToId),
    entities: records(raw.entities),
    attachments: records(raw.attachments),
    value: raw.value,
    channelData,
    reactionsAdded: reactionTypes(raw.reactionsAdded),
    reactionsRemoved: reactionTypes(raw.reactionsRemoved),
    membersAdded: records(raw.membersAdded)
      .map(account)
      .filter((a) => a !== undefined),
    membersRemoved: records(raw.membersRemoved)
      .map(account)
      .filter((a) => a !== undefined),
    action: text(raw.action),
    raw,
  };
}

/** What an activity asks of the adapter. */
export type TeamsActivityKind =
  | { readonly kind: "message" }
  | {
      readonly kind: "action";
      /** Undefined for a card payload that names no action (a bare `msteams` messageBack). */
      readonly actionId: string | undefined;
      readonly value: string | undefined;
      readonly invoke: boolean;
    }
  | {
      readonly kind: "dialogOpen";
      readonly actionId: string | undefined;
      readonly value: string | undefined;
    }
  | { readonly kind: "dialogSubmit" }
  /** The user accepted or declined a file the bot offered (a file consent card). */
  | { readonly kind: "fileConsent" }
  | { readonly kind: "reaction" }
  | { readonly kind: "update" }
  | { readonly kind: "delete" }
  | { readonly kind: "conversationUpdate" }
  | { readonly kind: "installationUpdate" }
  | { readonly kind: "unsupported"; readonly reason: string };

function stringValue(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * An Adaptive Card action in `data`: Baton's own `{ actionId, value }` (`Action.Submit`), or an
 * `Action.Execute` verb. Input values submitted with the card ride along in `data`; a select's
 * value is the one under its id when the auto-submit button sent it.
 */
function cardAction(data: Record<string, unknown> | undefined, verb?: string) {
  const actionId = text(data?.actionId) ?? verb;
  const named = actionId !== undefined && actionId !== "";
  // Teams' own card payloads (`msteams: { type: "messageBack" }`) are card actions without an id.
  if (!named && record(data?.msteams) === undefined) return undefined;
  return { actionId: named ? actionId : undefined, value: stringValue(data?.value) };
}

function unsupported(activity: TeamsActivity): TeamsActivityKind {
  const what = activity.type === "invoke" ? `invoke ${activity.name ?? "unknown"}` : activity.type;
  return { kind: "unsupported", reason: `Unsupported Teams activity type: ${what}` };
}

/** The action id of an `Action.Submit` from a card whose data names none (see the README). */
export const TEAMS_FOREIGN_SUBMIT_ACTION_ID = "Action.Submit";

/** A non-empty string field, else undefined. */
function named(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * An `Action.Submit` from a card Baton did not build (a card another app or a template posted):
 * its data has no Baton `actionId`. The action id is the data's `action`, else its `id`, else
 * {@link TEAMS_FOREIGN_SUBMIT_ACTION_ID}; the value is the whole submitted object (the card's
 * data with its inputs) as JSON. A bare `msteams` payload stays an action without an id.
 */
function foreignSubmit(data: Record<string, unknown>) {
  if (record(data.msteams) !== undefined) return undefined;
  const actionId = named(data.action) ?? named(data.id) ?? TEAMS_FOREIGN_SUBMIT_ACTION_ID;
  return { actionId, value: JSON.stringify(data) };
}

/** Classifies an activity (upstream's routing): messages, card actions, reactions, edits… */
export function classifyTeamsActivity(activity: TeamsActivity): TeamsActivityKind {
  switch (activity.type) {
    case "message": {
      // Action.Submit in a message card arrives as a message whose value carries the data.
      const data = record(activity.value);
      const submitted =
        activity.text === "" && data !== undefined
          ? (cardAction(data) ?? foreignSubmit(data))
          : undefined;
      if (submitted !== undefined) return { kind: "action", ...submitted, invoke: false };
      return { kind: "message" };
    }
    case "invoke": {
      if (activity.name === "adaptiveCard/action") {
        const value = record(activity.value);
        const actionData = record(value?.action);
        // Action.Execute sends { action: { verb, data } }; some clients put actionId on value.
        const found =
          cardAction(record(actionData?.data), text(actionData?.verb)) ?? cardAction(value);
        if (found !== undefined) return { kind: "action", ...found, invoke: true };
      }
      // Dialogs (task modules): a modal button's task/fetch, and the dialog's submit.
      if (activity.name === "task/fetch") {
        const found = cardAction(record(record(activity.value)?.data));
        return { kind: "dialogOpen", actionId: found?.actionId, value: found?.value };
      }
      if (activity.name === "task/submit") return { kind: "dialogSubmit" };
      if (activity.name === "fileConsent/invoke") return { kind: "fileConsent" };
      return unsupported(activity);
    }
    case "messageReaction":
      return { kind: "reaction" };
    case "messageUpdate":
      return { kind: "update" };
    case "messageDelete":
      return { kind: "delete" };
    case "conversationUpdate":
      return { kind: "conversationUpdate" };
    case "installationUpdate":
      return { kind: "installationUpdate" };
    default:
      return unsupported(activity);
  }
}
