import { type Clock, type Logger, type StateAdapter, sleep } from "@baton/core";
import type { TeamsGraph } from "./graph/client.js";
import { isBotAccount } from "./message.js";
import type { TeamsActivity } from "./parse.js";
import { storedUserReference } from "./proactive.js";

/**
 * How long a sender's email — or Graph's refusal to give it — is reused before Graph is asked
 * again: a tenant that grants `User.Read.All` later shows emails within this time.
 */
export const SENDER_EMAIL_TTL_MS = 60 * 60 * 1000;

/**
 * How long a message waits for Graph before it goes on without an email: the lookup runs
 * before the webhook answers, and Teams retries a webhook that answers late.
 */
export const SENDER_EMAIL_TIMEOUT_MS = 5_000;

const TIMED_OUT: unique symbol = Symbol("timed out");

/** `work`, or `TIMED_OUT` once `timeoutMs` passed on `clock` (its timer is cleared either way). */
async function within<T>(
  clock: Clock,
  timeoutMs: number,
  work: Promise<T>,
): Promise<T | typeof TIMED_OUT> {
  const abort = new AbortController();
  const timeout = sleep(clock, timeoutMs, abort.signal).then(
    (): typeof TIMED_OUT => TIMED_OUT,
    (): typeof TIMED_OUT => TIMED_OUT,
  );
  try {
    return await Promise.race([work, timeout]);
  } finally {
    abort.abort();
  }
}

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
  readonly clock: Clock;
  logger(): Logger;
}

/**
 * The email of an inbound message's sender (upstream's "incoming sender email"): Graph's `mail`,
 * else `userPrincipalName`, for the Entra object id the activity carries — else the one stored
 * when the user last wrote. The answer, found or not (a refusal, or no answer within
 * `SENDER_EMAIL_TIMEOUT_MS`), is cached in the State for `SENDER_EMAIL_TTL_MS`, so Graph is
 * asked once per user and hour, by all replicas together. Never rejects: without an id, or
 * without Graph's answer (logged), the message goes on without one.
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
      const lookup = deps.graph(tenantId).getUser(aadObjectId);
      const user = await within(deps.clock, SENDER_EMAIL_TIMEOUT_MS, lookup);
      if (user === TIMED_OUT) {
        lookup.catch(() => {}); // answered too late: nobody waits for it any more
        deps.logger().warn("teams: graph did not answer a sender's email lookup in time", {
          timeoutMs: SENDER_EMAIL_TIMEOUT_MS,
        });
      } else {
        email = user.mail ?? user.userPrincipalName ?? null;
      }
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
