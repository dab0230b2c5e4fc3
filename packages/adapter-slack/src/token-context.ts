import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The workspace a piece of work runs for: set around a webhook delivery of a multi-workspace
 * app (from its installation) or by `withBotToken`. Everything started inside — the handlers the
 * core runs detached, their posts, their timers — inherits it, so workspace A's work calls Slack
 * with workspace A's token even while workspace B's delivery runs concurrently.
 */
export interface SlackTokenContext {
  /** The bot token every Web API call inside uses. */
  readonly token: string;
  /** The installation key (`team_id`, or `enterprise_id` for an org-wide install); informational. */
  readonly installationId?: string;
  /** The workspace the event happened in: outbound and streamed message ids are encoded with it. */
  readonly teamId?: string;
  /** The installation's bot user, for telling the bot's own messages and mentions apart. */
  readonly botUserId?: string;
  /** True for an org-wide Enterprise Grid install: its calls name `teamId` as `team_id`. */
  readonly isEnterpriseInstall?: boolean;
  /**
   * The workspace whose view of the channel the event came from (Slack's `context_team_id`),
   * when it is not `teamId`: calls to {@link contextChannel} echo it as `client_context_team_id`.
   */
  readonly contextTeamId?: string;
  /** The channel the event happened in. */
  readonly contextChannel?: string;
}

const contexts = new AsyncLocalStorage<SlackTokenContext>();

/** Runs `fn` with `context` as the current workspace; nested calls see the innermost one. */
export function runWithSlackToken<T>(context: SlackTokenContext, fn: () => T): T {
  return contexts.run(context, fn);
}

/** The current workspace context, or undefined outside any. */
export function currentSlackToken(): SlackTokenContext | undefined {
  return contexts.getStore();
}

/**
 * The core's tenant of a delivery for `team`: the installation inside a multi-workspace
 * delivery (so a run drained elsewhere finds its token again), else the workspace itself.
 */
export function slackTenantOf(team: string): string {
  return currentSlackToken()?.installationId ?? team;
}
