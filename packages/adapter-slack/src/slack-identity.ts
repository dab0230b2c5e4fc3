import type { Logger } from "@baton/core";
import type { SlackApi, SlackResponse } from "./api.js";

/** Who the bot token belongs to, as `auth.test` names it. */
export interface SlackIdentity {
  readonly userId: string | undefined;
  readonly botId: string | undefined;
  readonly teamId: string;
}

/**
 * The bot's identity from `auth.test`, or `undefined` when the call failed. Upstream's rule: a
 * failed look-up does not stop the Chat (it is logged); the bot's own messages are then
 * recognized by their bot id only once Slack names it.
 */
export async function identifySlackBot(
  api: SlackApi,
  logger: Logger,
): Promise<SlackIdentity | undefined> {
  let auth: SlackResponse;
  try {
    auth = await api.call("auth.test");
  } catch (error) {
    logger.warn("slack: auth.test failed; botUserId stays unknown", { error });
    return undefined;
  }
  return {
    userId: typeof auth.user_id === "string" ? auth.user_id : undefined,
    botId: typeof auth.bot_id === "string" ? auth.bot_id : undefined,
    teamId: typeof auth.team_id === "string" ? auth.team_id : "",
  };
}
