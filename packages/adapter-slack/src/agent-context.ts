/** One entity of Slack's active-view context, as Slack sends it. */
export interface SlackAppContextWireEntity {
  readonly type: string;
  readonly value: unknown;
  readonly team_id?: string;
  readonly enterprise_id?: string;
}

/** Slack's active-view context (`app_context` on an agent DM message, `context` elsewhere). */
export interface SlackAppContext {
  readonly entities?: readonly SlackAppContextWireEntity[];
}

// A type, not an interface, so entities fit core's indexable AppContextEntity.
type EntityScope = {
  readonly teamId: string | undefined;
  readonly enterpriseId: string | undefined;
};

/**
 * What the user is looking at when they talk to the agent, normalized. A type this version does
 * not know, or a message context without its ids, is `kind: "unknown"` with the raw type and
 * value (never a throw), so newer Slack payloads still arrive.
 */
export type SlackAppContextEntity = EntityScope &
  (
    | { readonly kind: "channel"; readonly channelId: unknown }
    | { readonly kind: "canvas"; readonly canvasId: unknown }
    | { readonly kind: "list"; readonly listId: unknown }
    | { readonly kind: "message"; readonly messageTs: string; readonly channelId: string }
    | { readonly kind: "unknown"; readonly type: string; readonly value: unknown }
  );

const TYPE_PREFIX = "slack#/types/";

function normalizeEntity(entity: SlackAppContextWireEntity): SlackAppContextEntity {
  const scope: EntityScope = { teamId: entity.team_id, enterpriseId: entity.enterprise_id };
  switch (entity.type) {
    case `${TYPE_PREFIX}channel_id`:
      return { ...scope, kind: "channel", channelId: entity.value };
    case `${TYPE_PREFIX}canvas_id`:
      return { ...scope, kind: "canvas", canvasId: entity.value };
    case `${TYPE_PREFIX}list_id`:
      return { ...scope, kind: "list", listId: entity.value };
    case `${TYPE_PREFIX}message_context`: {
      const value = entity.value as { message_ts?: unknown; channel_id?: unknown } | null;
      if (typeof value?.message_ts === "string" && typeof value.channel_id === "string") {
        return {
          ...scope,
          kind: "message",
          messageTs: value.message_ts,
          channelId: value.channel_id,
        };
      }
      break;
    }
  }
  return { ...scope, kind: "unknown", type: entity.type, value: entity.value };
}

/** Slack's context entities, normalized, in Slack's (relevance) order; `[]` when there are none. */
export function normalizeAppContextEntities(
  context: SlackAppContext | undefined,
): SlackAppContextEntity[] {
  return (context?.entities ?? []).map(normalizeEntity);
}

/** The context Slack folds into an agent DM message (`raw.app_context`), normalized. */
export function getAppContext(message: { readonly raw?: unknown }): SlackAppContextEntity[] {
  const raw = message.raw as { app_context?: SlackAppContext } | null | undefined;
  return raw?.app_context ? normalizeAppContextEntities(raw.app_context) : [];
}
