import type { Message, WebhookOptions } from "@baton/core";
import type { WebClient } from "@slack/web-api";
import type { SlackFileAccess } from "./file-download.js";
import type { SlackInstallationRouting } from "./installation-routing.js";
import { type SlackInstallation, SlackInstallations } from "./installations.js";
import type { SlackSelf } from "./message.js";
import {
  handleSlackOAuthCallback,
  type SlackOAuthCallbackOptions,
  type SlackOAuthResult,
} from "./oauth.js";
import type { ResolvedSlackOptions } from "./options.js";
import { SlackAdapterBase } from "./slack-adapter-base.js";
import { currentSlackToken, runWithSlackToken, type SlackTokenContext } from "./token-context.js";
import { handleSlackWebhook } from "./webhook.js";

/**
 * The multi-workspace layer of the Slack adapter (upstream's method names): the installation
 * store in the Chat's State, the OAuth v2 callback, and `withBotToken` for work outside a
 * delivery. In multi-workspace mode (no `botToken`; `clientId` or `installationProvider` set)
 * every webhook delivery runs with its workspace's token and bot user.
 */
export abstract class SlackAdapterInstalls extends SlackAdapterBase {
  /** The installations (`slack:installation:{teamId}` keys unless `installationKeyPrefix`). */
  protected readonly installations: SlackInstallations;

  constructor(options: ResolvedSlackOptions) {
    super(options);
    this.installations = new SlackInstallations({
      state: () => this.host?.getState(),
      keyPrefix: options.installationKeyPrefix,
      key: options.encryptionKeyBytes,
      provider: options.installationProvider,
      clock: options.clock,
    });
    this.api.onTokenRefused = () => {
      const installationId = currentSlackToken()?.installationId;
      if (installationId !== undefined) this.installations.forget(installationId);
    };
  }

  /**
   * The WebClient of the current token (upstream's name; `client` is the same): the delivery's
   * workspace, `withBotToken`'s token, else `botToken`. Throws in a multi-workspace app outside
   * any of them, as there is no token to bind.
   */
  get webClient(): WebClient {
    return this.api.webClient;
  }

  /** True when tokens come per workspace from installations instead of one `botToken`. */
  get isMultiWorkspace(): boolean {
    return this.options.multiWorkspace;
  }

  /**
   * Saves a workspace's installation (call it from your own OAuth route, or let
   * {@link handleOAuthCallback} do it). The token is encrypted when `encryptionKey` is set.
   * Throws before the Chat initialized the adapter: the State is not known yet.
   */
  setInstallation(teamId: string, installation: SlackInstallation): Promise<void> {
    return this.installations.set(teamId, installation);
  }

  /** A workspace's installation, its token decrypted; null when it has none. */
  getInstallation(teamId: string): Promise<SlackInstallation | null> {
    return this.installations.get(teamId);
  }

  /** Removes a workspace's installation (`app_uninstalled` does it by itself). */
  deleteInstallation(teamId: string): Promise<void> {
    return this.installations.delete(teamId);
  }

  /**
   * The OAuth v2 redirect route: exchanges the request's `code` (`oauth.v2.access`) and saves the
   * installation, keyed by team id, or by enterprise id for an org-wide install. Resolves with
   * that key and the installation; throws, saving nothing, when the exchange fails.
   */
  handleOAuthCallback(
    request: Request,
    options?: SlackOAuthCallbackOptions,
  ): Promise<SlackOAuthResult> {
    return handleSlackOAuthCallback(
      {
        clientId: this.options.clientId,
        clientSecret: this.options.clientSecret,
        api: this.api,
        installations: this.installations,
      },
      request,
      options,
    );
  }

  /**
   * A handler run outside the delivery that brought its message — a queued message drained by
   * the sweeper, by another instance, after a restart — runs with its installation's token, bot
   * user and workspace, as inside the delivery: the core's tenant is the installation id. Inside
   * that installation's delivery already, and in a single-workspace app, `fn` runs as it is.
   * Rejects (the run ends as `error`) when the installation store cannot be read.
   */
  runForTenant<T>(tenant: string | undefined, message: Message, fn: () => Promise<T>): Promise<T> {
    if (!this.options.multiWorkspace || tenant === undefined) return fn();
    if (currentSlackToken()?.installationId === tenant) return fn();
    return this.tenantContext(tenant, message).then((context) =>
      context === undefined ? fn() : runWithSlackToken(context, fn),
    );
  }

  private async tenantContext(
    installationId: string,
    message: Message,
  ): Promise<SlackTokenContext | undefined> {
    // Slack's enterprise ids start with E, its team ids with T.
    const isEnterpriseInstall = installationId.startsWith("E");
    const installation = await this.installations.resolve(installationId, isEnterpriseInstall);
    if (installation === null) {
      this.logger().warn(
        "slack: a queued message's installation is gone; it runs without a token",
        {
          installationId,
        },
      );
      return undefined;
    }
    // A Slack message id is `{team}:{channel}:{ts}`: the workspace the message was posted in.
    const team = message.id.slice(0, Math.max(message.id.indexOf(":"), 0));
    return {
      token: installation.botToken,
      installationId,
      ...(team === "" || team === "_" ? {} : { teamId: team }),
      ...(installation.botUserId === undefined ? {} : { botUserId: installation.botUserId }),
      ...(isEnterpriseInstall ? { isEnterpriseInstall: true } : {}),
    };
  }

  /**
   * Runs `fn` with `token` as the bot token of every Slack call inside it (and of what it starts):
   * for cron jobs and workflows of a multi-workspace app, outside any webhook delivery.
   * Concurrent calls with different tokens never see each other's.
   */
  withBotToken<T>(token: string, fn: () => T, options: { installationId?: string } = {}): T {
    const { installationId } = options;
    return runWithSlackToken(
      { token, ...(installationId === undefined ? {} : { installationId }) },
      fn,
    );
  }

  override async handleWebhook(request: Request, options?: WebhookOptions): Promise<Response> {
    const routing = this.installationRouting();
    if (routing === undefined || this.isSocketMode) return super.handleWebhook(request, options);
    return handleSlackWebhook(
      { ...this.webhookTarget(), installations: routing },
      request,
      options,
    );
  }

  /** The installation's bot user inside a delivery, so its own messages are told apart. */
  protected override self(): SlackSelf {
    const own = super.self();
    const botUserId = currentSlackToken()?.botUserId;
    return botUserId === undefined ? own : { ...own, botUserId };
  }

  /** File downloads of a multi-workspace app take the token of the file's installation. */
  protected override fileAccess(): SlackFileAccess {
    return {
      ...super.fileAccess(),
      multiWorkspace: this.options.multiWorkspace,
      installationToken: async (installationId, isEnterpriseInstall) =>
        (await this.installations.resolve(installationId, isEnterpriseInstall))?.botToken,
    };
  }

  private installationRouting(): SlackInstallationRouting | undefined {
    if (!this.options.multiWorkspace) return undefined;
    return {
      installations: this.installations,
      external: this.options.installationProvider !== undefined,
      logger: this.logger(),
    };
  }
}
