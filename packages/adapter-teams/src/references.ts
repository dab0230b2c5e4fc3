import type { StateAdapter } from "@baton/core";
import { isBotAccount } from "./message.js";
import type { TeamsActivity } from "./parse.js";
import { baseConversationId } from "./thread-id.js";

/** What the State keeps per user for proactive messages (`openDM`) and Graph lookups. */
export interface StoredUserReference {
  readonly serviceUrl: string;
  readonly tenantId: string | null;
  readonly botId: string;
  /** The user's Entra object id, which Graph lookups (`getUser`) need. */
  readonly aadObjectId?: string;
}

/** The State key of a user's stored reference. */
export function teamsUserKey(userId: string): string {
  return `teams:user:${userId}`;
}

/**
 * Keeps the service URL (and tenant, bot id) of the conversation and of its sender, for
 * proactive messages; the sender's Entra object id too, for Graph lookups (an activity without
 * one keeps the id stored before).
 */
export async function rememberReferences(
  state: StateAdapter,
  appId: string,
  activity: TeamsActivity,
): Promise<void> {
  const tenantId = activity.conversation.tenantId ?? null;
  const botId = activity.recipient?.id ?? `28:${appId}`;
  await state.set(`teams:conversation:${baseConversationId(activity.conversation.id)}`, {
    serviceUrl: activity.serviceUrl,
    tenantId,
    botId,
  });
  const from = activity.from?.id;
  if (from !== undefined && !isBotAccount(appId, from)) {
    const aadObjectId = activity.from?.aadObjectId;
    // A merge: an activity without the Entra object id keeps the one stored before.
    await state.mergeObject(teamsUserKey(from), {
      serviceUrl: activity.serviceUrl,
      tenantId,
      botId,
      ...(aadObjectId === undefined ? {} : { aadObjectId }),
    });
  }
}
