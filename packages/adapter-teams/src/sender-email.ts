import type { Logger, StateAdapter } from "@baton/core";
import type { TeamsGraph } from "./graph/client.js";
import { isBotAccount } from "./message.js";
import type { TeamsActivity } from "./parse.js";
import { storedUserReference } from "./proactive.js";

/**
 * How long a sender's email — or Graph's refusal to give it — is reused before Graph is asked
 * again: a tenant that grants `User.Read.All` later shows emails within this time.
 */
export const SENDER_EMAIL_TTL_MS = 60 * 60 * 1000;

/** The State key of the cached email of the user with Entra object id `aadObjectId`. */
export function senderEmailKey(aadObjectId: string): string {
  return `teams:sender-email:${aadObjectId}`;
}

/** What finding a sender's email needs from the adapter. */
export interface SenderEmailDeps {
  readonly state: StateAdapter;
  readonly graph: (tenantId: string | undefined) => TeamsGraph;
  readonly appId: string;
  readonly appTenantId: string | undefined;
  logger(): Logger;
}

/**
 * The email of an inbound message's sender (upstream's "incoming sender email"): Graph's `mail`,
 * else `userPrincipalName`, for the Entra object id the activity carries — else the one stored
 * when the user last wrote. The answer, found or not, is cached in the State for
 * `SENDER_EMAIL_TTL_MS`, so Graph is asked once per user and hour, by all replicas together.
 * Never rejects: without an id, or when Graph refuses (logged), the message goes on without one.
 */
export async function senderEmail(
  deps: SenderEmailDeps,
  activity: TeamsActivity,
): Promise<string | undefined> {
  const from = activity.from;
  if (from === undefined || isBotAccount(deps.appId, from.id)) return undefined;
  try {
    const aadObjectId =
      from.aadObjectId ?? (await storedUserReference(deps.state, from.id))?.aadObjectId;
    if (aadObjectId === undefined) return undefined;
    const cached = await deps.state.get<{ email: string | null }>(senderEmailKey(aadObjectId));
    if (cached !== null) return cached.email ?? undefined;
    let email: string | null = null;
    try {
      const tenantId = activity.conversation.tenantId ?? deps.appTenantId;
      const user = await deps.graph(tenantId).getUser(aadObjectId);
      email = user.mail ?? user.userPrincipalName ?? null;
    } catch (error) {
      deps.logger().warn("teams: graph lookup of a sender's email failed", { error });
    }
    await deps.state.set(senderEmailKey(aadObjectId), { email }, SENDER_EMAIL_TTL_MS);
    return email ?? undefined;
  } catch (error) {
    deps.logger().warn("teams: a sender's email could not be read", { error });
    return undefined;
  }
}
