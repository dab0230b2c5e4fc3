import type { SlackTokenContext } from "./token-context.js";

/**
 * The arguments of a Web API call made inside `context`, with what an Enterprise Grid org needs
 * to know where the call is meant:
 *
 * - an org-wide install's token speaks for every workspace of the org, so its calls name the
 *   delivery's workspace as `team_id` (unless the caller named one);
 * - a channel seen from another workspace (Slack's `context_team_id` differs from the delivery's
 *   team, as in a channel shared across the org or over Slack Connect) is called with that
 *   workspace echoed as `client_context_team_id`, on calls to that channel only.
 *
 * Anything else — a workspace install, a call outside a delivery — keeps its arguments as they
 * are (the same object).
 */
export function withEnterpriseContext(
  args: Record<string, unknown>,
  context: SlackTokenContext | undefined,
): Record<string, unknown> {
  if (context === undefined) return args;
  const teamId =
    context.isEnterpriseInstall === true && context.teamId !== undefined && !("team_id" in args)
      ? context.teamId
      : undefined;
  const clientContextTeamId =
    context.contextTeamId !== undefined &&
    context.contextChannel !== undefined &&
    args.channel === context.contextChannel &&
    !("client_context_team_id" in args)
      ? context.contextTeamId
      : undefined;
  if (teamId === undefined && clientContextTeamId === undefined) return args;
  return {
    ...args,
    ...(teamId === undefined ? {} : { team_id: teamId }),
    ...(clientContextTeamId === undefined ? {} : { client_context_team_id: clientContextTeamId }),
  };
}
