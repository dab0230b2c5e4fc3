import type { FakeSlackIdentity } from "./fake-slack-methods.js";

/** A workspace (or Enterprise Grid org) the fake's app is installed in, beyond the default one. */
export interface FakeSlackWorkspace {
  readonly teamId: string;
  /** The workspace's bot token: calls with it act as this workspace's bot. */
  readonly botToken: string;
  readonly botUserId?: string;
  readonly botId?: string;
  readonly teamName?: string;
  /** The Grid org the workspace belongs to, or the org of an org-wide install. */
  readonly enterpriseId?: string;
  /** An org-wide install: `oauth.v2.access` answers `team: null`. */
  readonly isEnterpriseInstall?: boolean;
  /** The app has token rotation on: `oauth.v2.access` also answers `refresh_token`/`expires_in`. */
  readonly tokenRotation?: boolean;
}

/**
 * The fake's installs: bot tokens per workspace (each call is answered as the bot of its
 * token's workspace, so a test sees which workspace's token was used) and OAuth codes that
 * `oauth.v2.access` exchanges once for a workspace's token, as Slack does.
 */
export class FakeSlackWorkspaces {
  private readonly byToken = new Map<string, FakeSlackWorkspace>();
  private readonly codes = new Map<string, FakeSlackWorkspace>();

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  add(workspace: FakeSlackWorkspace): void {
    this.byToken.set(workspace.botToken, workspace);
  }

  /** Registers `code` as the OAuth code of an install of `workspace` (its token is added too). */
  grant(code: string, workspace: FakeSlackWorkspace): void {
    this.add(workspace);
    this.codes.set(code, workspace);
  }

  /** The identity of a workspace token's bot, or undefined for a token the fake does not know. */
  identityOf(token: string): FakeSlackIdentity | undefined {
    const workspace = this.byToken.get(token);
    if (workspace === undefined) return undefined;
    return {
      teamId: workspace.teamId,
      botUserId: workspace.botUserId ?? `U0BOT${workspace.teamId}`,
      botId: workspace.botId ?? `B0BOT${workspace.teamId}`,
    };
  }

  /** Slack's `oauth.v2.access`: client credentials and a one-time code, for a bot token. */
  exchange(args: Record<string, unknown>): Record<string, unknown> {
    if (args.client_id !== this.clientId) return { ok: false, error: "invalid_client_id" };
    if (args.client_secret !== this.clientSecret) return { ok: false, error: "bad_client_secret" };
    const code = typeof args.code === "string" ? args.code : "";
    const workspace = this.codes.get(code);
    if (workspace === undefined) return { ok: false, error: "invalid_code" };
    this.codes.delete(code);
    const identity = this.identityOf(workspace.botToken) as FakeSlackIdentity;
    const orgWide = workspace.isEnterpriseInstall === true;
    return {
      ok: true,
      app_id: "A0FAKEAPP1",
      access_token: workspace.botToken,
      token_type: "bot",
      scope: "chat:write,app_mentions:read",
      bot_user_id: identity.botUserId,
      team: orgWide ? null : { id: workspace.teamId, name: workspace.teamName ?? workspace.teamId },
      enterprise:
        workspace.enterpriseId === undefined
          ? null
          : { id: workspace.enterpriseId, name: `Org ${workspace.enterpriseId}` },
      is_enterprise_install: orgWide,
      ...(workspace.tokenRotation === true
        ? { refresh_token: `xoxe-1-refresh-${workspace.teamId}`, expires_in: 43_200 }
        : {}),
    };
  }
}
