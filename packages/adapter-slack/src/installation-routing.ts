import { type Logger, type WebhookOptions, webhookErrorResponse } from "@baton/core";
import { idOf, type Json, text } from "./install-fields.js";
import type { SlackInstallations } from "./installations.js";
import type { SlackWebhookPayload } from "./parse.js";
import { runWithSlackToken } from "./token-context.js";
import { ack, detach } from "./webhook-target.js";

/** Which installation a delivery is for. */
export interface SlackInstallationRef {
  /** The installation key: the enterprise id of an org-wide install, else the team id. */
  readonly installationId: string;
  /** True for an org-wide Enterprise Grid install, keyed by its enterprise id. */
  readonly isEnterpriseInstall: boolean;
  /** The workspace the event happened in, when Slack names it. */
  readonly teamId: string | undefined;
}

function ref(
  isEnterpriseInstall: boolean,
  enterpriseId: string | undefined,
  teamId: string | undefined,
): SlackInstallationRef | undefined {
  const installationId = isEnterpriseInstall ? enterpriseId : teamId;
  return installationId === undefined ? undefined : { installationId, isEnterpriseInstall, teamId };
}

/**
 * The installation of a verified delivery. Events name it in `authorizations[0]` (Slack's
 * authoritative field: the top-level team of a Slack Connect event can be the other side's),
 * else at the top level; commands in their form fields (`is_enterprise_install` is the string
 * "true"); interactions in `team` / `enterprise` objects.
 */
export function installationOf(payload: SlackWebhookPayload): SlackInstallationRef | undefined {
  switch (payload.kind) {
    case "event": {
      const raw = payload.raw;
      const auth = (raw.authorizations as Json[] | undefined)?.[0];
      if (auth !== undefined) {
        return ref(
          auth.is_enterprise_install === true,
          text(auth.enterprise_id),
          text(auth.team_id) ?? text(raw.team_id),
        );
      }
      return ref(raw.is_enterprise_install === true, text(raw.enterprise_id), text(raw.team_id));
    }
    case "command": {
      const params = payload.params;
      return ref(
        params.is_enterprise_install === "true",
        text(params.enterprise_id),
        text(params.team_id),
      );
    }
    case "interaction": {
      const body = payload.payload;
      const enterprise = idOf(body.enterprise);
      const team = idOf(body.team) ?? text(body.team_id);
      const user = body.user as Json | undefined;
      return ref(
        body.is_enterprise_install === true,
        enterprise ?? text(body.enterprise_id),
        team ?? text(user?.team_id),
      );
    }
    default:
      return undefined;
  }
}

/** True for the events that end an installation: the app removed, or its bot token revoked. */
function isUninstall(payload: SlackWebhookPayload): boolean {
  if (payload.kind !== "event") return false;
  const { event } = payload;
  if (event.type === "app_uninstalled") return true;
  if (event.type !== "tokens_revoked") return false;
  const bot = (event.tokens as Json | undefined)?.bot;
  return Array.isArray(bot) && bot.length > 0;
}

/** What {@link routeWithInstallation} needs. */
export interface SlackInstallationRouting {
  readonly installations: SlackInstallations;
  /** True when the installations come from an external provider (nothing to delete here). */
  readonly external: boolean;
  readonly logger: Logger;
}

/**
 * A multi-workspace delivery: resolves the installation's token (from this process's recent
 * reads, else one State read) and runs the delivery inside it, so every call its handlers make
 * uses that workspace's token. A delivery for an unknown installation is answered 200 and
 * dropped (Slack would retry an error; nothing here can act without a token). An uninstall
 * deletes the installation after the answer.
 */
export async function routeWithInstallation(
  routing: SlackInstallationRouting,
  payload: SlackWebhookPayload,
  options: WebhookOptions,
  run: () => Promise<Response>,
): Promise<Response> {
  const found = installationOf(payload);
  if (found === undefined) return run();
  const { installations, logger } = routing;
  if (isUninstall(payload)) {
    if (routing.external) {
      logger.info("slack: uninstall seen; the installation provider owns its removal", found);
      return ack();
    }
    detach(
      async () => {
        await installations.delete(found.installationId);
        logger.info("slack: installation removed", { installationId: found.installationId });
      },
      logger,
      "uninstall",
      options,
    );
    return ack();
  }
  let installation: Awaited<ReturnType<SlackInstallations["resolve"]>>;
  try {
    installation = await installations.resolve(found.installationId, found.isEnterpriseInstall);
  } catch (error) {
    // Logged here because a refused record (plaintext under a key, a record that fails to
    // decrypt) is a security signal the HTTP answer alone would hide.
    logger.error("slack: the delivery's installation could not be read", {
      installationId: found.installationId,
      error: error instanceof Error ? error.message : String(error),
    });
    // A State outage answers 503 so Slack retries the delivery later.
    return webhookErrorResponse(error);
  }
  if (installation === null) {
    logger.warn("slack: a delivery for an unknown installation was dropped", found);
    return payload.kind === "event" ? ack() : ack();
  }
  return runWithSlackToken(
    {
      token: installation.botToken,
      installationId: found.installationId,
      ...(found.teamId === undefined ? {} : { teamId: found.teamId }),
      ...(installation.botUserId === undefined ? {} : { botUserId: installation.botUserId }),
      ...(found.isEnterpriseInstall ? { isEnterpriseInstall: true } : {}),
      ...eventContextOf(payload, found.teamId),
    },
    run,
  );
}

/**
 * Where an event happened, as Slack saw it: its channel and, when the channel is seen from
 * another workspace than the delivery's (`context_team_id`), that workspace.
 */
export function eventContextOf(
  payload: SlackWebhookPayload,
  teamId: string | undefined,
): { contextTeamId?: string; contextChannel?: string } {
  if (payload.kind !== "event") return {};
  const contextTeamId = text(payload.raw.context_team_id);
  const channel = payload.event.channel ?? payload.event.item?.channel;
  if (contextTeamId === undefined || contextTeamId === teamId || channel === undefined) return {};
  return { contextTeamId, contextChannel: channel };
}
