import { type JsonValue, type StateAdapter, ValidationError } from "@baton/core";
import type { TeamsApi } from "./api.js";
import { type StoredUserReference, teamsUserKey } from "./references.js";
import { encodeTeamsThreadId } from "./thread-id.js";

/** Teams' global connector endpoint, for users whose regional service URL is not known yet. */
export const DEFAULT_SERVICE_URL = "https://smba.trafficmanager.net/teams/";

/** The user reference the adapter stored when `userId` last wrote to the bot, or null. */
export async function storedUserReference(
  state: StateAdapter,
  userId: string,
): Promise<StoredUserReference | null> {
  const stored = await state.get<JsonValue>(teamsUserKey(userId));
  return stored as unknown as StoredUserReference | null;
}

/**
 * Creates (or finds) the personal chat with `userId` through the connector and returns its
 * thread id. Service URL, tenant and bot id come from the stored reference; without one, Teams'
 * global service URL and `appTenantId`. No tenant at all is a `ValidationError`: Teams creates
 * no conversation without one.
 */
export async function openTeamsDM(
  deps: {
    readonly state: StateAdapter;
    readonly api: TeamsApi;
    readonly appId: string;
    readonly appTenantId: string | undefined;
  },
  userId: string,
): Promise<string> {
  const reference = await storedUserReference(deps.state, userId);
  const tenantId = reference?.tenantId ?? deps.appTenantId;
  if (tenantId === undefined) {
    throw new ValidationError(
      `teams: no tenant to open a DM with ${userId} in: set appTenantId, or let the user ` +
        "message the bot once so their conversation reference is stored",
      { step: "open teams dm" },
    );
  }
  const serviceUrl = reference?.serviceUrl ?? DEFAULT_SERVICE_URL;
  const conversation = await deps.api.createConversation(serviceUrl, {
    botId: reference?.botId ?? `28:${deps.appId}`,
    userId,
    tenantId,
  });
  return encodeTeamsThreadId({ conversationId: conversation.id, serviceUrl });
}
