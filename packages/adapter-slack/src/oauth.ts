import { ConfigError, ValidationError } from "@baton/core";
import type { SlackApi } from "./api.js";
import { idOf, nameOf } from "./install-fields.js";
import type { SlackInstallation, SlackInstallations } from "./installations.js";

/** Options of `handleOAuthCallback`. */
export interface SlackOAuthCallbackOptions {
  /**
   * The redirect URI sent with the code exchange; it must equal the one the install link used.
   * Default: the callback request's own `redirect_uri` query parameter when present, else
   * none (Slack then uses the app's single configured redirect URL).
   */
  redirectUri?: string;
  /**
   * Checks the OAuth `state` parameter (CSRF protection): given the callback's `state` (null
   * when absent) and the request, answer true to proceed. On false the callback throws a
   * `ValidationError` before the code is exchanged, and nothing is saved. Without it no state
   * check happens: an app that starts installs from its own link should always pass one.
   */
  verifyState?: (state: string | null, request: Request) => boolean | Promise<boolean>;
}

/** What an OAuth install saved. */
export interface SlackOAuthResult {
  /** The installation's key: the team id, or the enterprise id of an org-wide install. */
  teamId: string;
  /** The Enterprise Grid org of the install, when Slack named one. */
  enterpriseId?: string;
  /** True for an org-wide Grid install (then `teamId` holds the enterprise id). */
  isEnterpriseInstall: boolean;
  /** What was saved, with the plaintext bot token (it is encrypted only at rest). */
  installation: SlackInstallation;
}

/** What the exchange needs from the adapter. */
export interface SlackOAuthDeps {
  /** The app's OAuth client id; undefined makes the callback throw a `ConfigError`. */
  readonly clientId: string | undefined;
  /** The app's OAuth client secret; undefined makes the callback throw a `ConfigError`. */
  readonly clientSecret: string | undefined;
  /** Calls `oauth.v2.access` (without a bot token). */
  readonly api: SlackApi;
  /** Where the exchanged installation is saved. */
  readonly installations: SlackInstallations;
}

/**
 * Slack's OAuth v2 install callback: reads `code` from the request's query, exchanges it with
 * `oauth.v2.access` (client id and secret), and saves the installation under its team id — or
 * under its enterprise id for an org-wide Enterprise Grid install, where Slack sends `team: null`.
 * Throws (nothing saved) without client credentials, without a code, when `verifyState`
 * refuses the state, when Slack refuses, or when the app uses token rotation (unsupported).
 */
export async function handleSlackOAuthCallback(
  deps: SlackOAuthDeps,
  request: Request,
  options: SlackOAuthCallbackOptions = {},
): Promise<SlackOAuthResult> {
  if (deps.clientId === undefined || deps.clientSecret === undefined) {
    throw new ConfigError([
      "slack adapter: handleOAuthCallback needs clientId and clientSecret in the adapter config",
    ]);
  }
  const query = new URL(request.url).searchParams;
  const code = query.get("code");
  if (code === null || code === "") {
    const denied = query.get("error");
    throw new ValidationError(
      denied === null
        ? "slack OAuth callback: the request has no code parameter"
        : `slack OAuth callback: the install was not authorized (${denied})`,
    );
  }
  if (options.verifyState !== undefined) {
    const valid = await options.verifyState(query.get("state"), request);
    if (valid !== true) {
      throw new ValidationError(
        "slack OAuth callback: the state parameter failed verifyState (possible CSRF); nothing was exchanged",
      );
    }
  }
  const redirectUri = options.redirectUri ?? query.get("redirect_uri") ?? undefined;
  const answer = await deps.api.callUnauthenticated("oauth.v2.access", {
    client_id: deps.clientId,
    client_secret: deps.clientSecret,
    code,
    ...(redirectUri === undefined ? {} : { redirect_uri: redirectUri }),
  });
  const botToken = answer.access_token;
  if (typeof botToken !== "string" || botToken === "") {
    throw new ValidationError("slack OAuth callback: oauth.v2.access returned no bot token");
  }
  // A rotating token dies after expires_in (12 hours); storing it would break the workspace
  // silently the next day, so refuse until refreshing is implemented.
  if (answer.refresh_token !== undefined || answer.expires_in !== undefined) {
    throw new ConfigError([
      "slack adapter: token rotation is not supported: oauth.v2.access answered refresh_token/expires_in; turn token rotation off in the Slack app settings",
    ]);
  }
  const isEnterpriseInstall = answer.is_enterprise_install === true;
  const enterpriseId = idOf(answer.enterprise);
  const teamId = isEnterpriseInstall ? enterpriseId : idOf(answer.team);
  if (teamId === undefined) {
    throw new ValidationError(
      isEnterpriseInstall
        ? "slack OAuth callback: an org-wide install answer has no enterprise.id"
        : "slack OAuth callback: oauth.v2.access returned no team.id",
    );
  }
  const installation: SlackInstallation = { botToken, isEnterpriseInstall };
  if (typeof answer.bot_user_id === "string") installation.botUserId = answer.bot_user_id;
  if (enterpriseId !== undefined) installation.enterpriseId = enterpriseId;
  const teamName = isEnterpriseInstall ? nameOf(answer.enterprise) : nameOf(answer.team);
  if (teamName !== undefined) installation.teamName = teamName;
  await deps.installations.set(teamId, installation);
  return {
    teamId,
    ...(enterpriseId === undefined ? {} : { enterpriseId }),
    isEnterpriseInstall,
    installation,
  };
}
