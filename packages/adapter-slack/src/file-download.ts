import { AdapterError, type Attachment } from "@baton/core";
import { SLACK_ADAPTER_NAME } from "./thread-id.js";
import { currentSlackToken } from "./token-context.js";

/** How a file download finds its bot token and where it may send it. */
export interface SlackFileAccess {
  /** The adapter's own `botToken`, read at download time (undefined in a multi-workspace app). */
  readonly defaultToken: () => string | undefined;
  readonly multiWorkspace: boolean;
  /** The bot token of an installation (team id, or enterprise id of an org-wide install). */
  readonly installationToken: (
    installationId: string,
    isEnterpriseInstall: boolean,
  ) => Promise<string | undefined>;
  /** The configured Web API URL: its origin (a proxy, the test fake) may serve files too. */
  readonly apiUrl: string | undefined;
}

/**
 * True when `url` is somewhere Slack serves private files: https on `slack.com` or one of its
 * subdomains (`files.slack.com`), or the origin of the configured `apiUrl`. The bot token is
 * sent with the download, so it goes nowhere else, whatever an attachment's metadata says.
 */
export function isSlackFileUrl(url: string, apiUrl: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (apiUrl !== undefined && parsed.origin === new URL(apiUrl).origin) return true;
  if (parsed.protocol !== "https:") return false;
  const host = parsed.hostname;
  return ["slack.com", "slack-gov.com"].some((root) => host === root || host.endsWith(`.${root}`));
}

/** The most redirects one download follows. */
const MAX_REDIRECTS = 3;

/**
 * Downloads `url`, sending `token` as a bearer only to Slack file URLs: redirects are followed
 * by hand (at most {@link MAX_REDIRECTS}), each hop checked again, so a redirect off Slack is
 * fetched without the token. Refuses Slack's HTML sign-in page as content.
 */
async function download(url: string, token: string, apiUrl: string | undefined) {
  let target = url;
  for (let hop = 0; ; hop += 1) {
    const headers: Record<string, string> = isSlackFileUrl(target, apiUrl)
      ? { Authorization: `Bearer ${token}` }
      : {};
    const response = await fetch(target, { headers, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      if (hop >= MAX_REDIRECTS) {
        throw new AdapterError(
          SLACK_ADAPTER_NAME,
          `slack: downloading ${url} redirected too often`,
        );
      }
      await response.body?.cancel();
      target = new URL(location, target).toString();
      continue;
    }
    if (!response.ok) {
      throw new AdapterError(
        SLACK_ADAPTER_NAME,
        `slack: downloading ${url} failed with HTTP ${response.status}`,
      );
    }
    // Slack answers a token without files:read with its sign-in page, status 200.
    if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
      throw new AdapterError(
        SLACK_ADAPTER_NAME,
        `slack: downloading ${url} returned a web page, not the file (does the token have files:read?)`,
      );
    }
    return new Uint8Array(await response.arrayBuffer());
  }
}

/**
 * The attachment with `fetchData` (upstream's `rehydrateAttachment`) and the facts to fetch it
 * again after serialization in `fetchMetadata` (`url`, `teamId`, `enterpriseId`,
 * `isEnterpriseInstall`). The token is chosen at download time: in a multi-workspace app the
 * installation of the metadata's workspace, else the workspace token current when the attachment
 * was made (a delivery, `withBotToken`), else the adapter's `botToken`, read again at each
 * download. Without a URL the attachment comes back unchanged (the same object).
 */
export function withSlackFileFetcher(attachment: Attachment, access: SlackFileAccess): Attachment {
  const meta = attachment.fetchMetadata ?? {};
  const url = attachment.url ?? meta.url ?? meta.slackUrl;
  if (url === undefined || url === "") return attachment;
  const context = currentSlackToken();
  const teamId = meta.teamId ?? context?.teamId;
  // An org-wide install is keyed by its enterprise id, which differs from the workspace's.
  const contextEnterprise =
    context?.installationId !== undefined && context.installationId !== context.teamId
      ? context.installationId
      : undefined;
  const enterpriseId = meta.enterpriseId ?? contextEnterprise;
  const isEnterpriseInstall =
    meta.isEnterpriseInstall ?? (contextEnterprise === undefined ? undefined : "true");
  const snapshot = context?.token;
  const fetchMetadata: Record<string, string> = {
    ...meta,
    url,
    ...(teamId === undefined ? {} : { teamId }),
    ...(enterpriseId === undefined ? {} : { enterpriseId }),
    ...(isEnterpriseInstall === undefined ? {} : { isEnterpriseInstall }),
  };
  const tokenForDownload = async (): Promise<string> => {
    if (access.multiWorkspace && teamId !== undefined) {
      const enterprise = isEnterpriseInstall === "true" && enterpriseId !== undefined;
      const key = enterprise ? enterpriseId : teamId;
      const token = await access.installationToken(key, enterprise);
      if (token === undefined) {
        throw new AdapterError(
          SLACK_ADAPTER_NAME,
          `slack: Installation not found for team ${key}, so its file cannot be downloaded`,
        );
      }
      return token;
    }
    const token = snapshot ?? access.defaultToken();
    if (token === undefined) {
      throw new AdapterError(
        SLACK_ADAPTER_NAME,
        "slack: no bot token to download the file with (botToken, a delivery's workspace, or withBotToken)",
      );
    }
    return token;
  };
  return {
    ...attachment,
    url,
    fetchMetadata,
    fetchData: async () => {
      if (!isSlackFileUrl(url, access.apiUrl)) {
        throw new AdapterError(
          SLACK_ADAPTER_NAME,
          `slack: refusing to send the bot token to ${url}, which is not a Slack file URL`,
        );
      }
      return download(url, await tokenForDownload(), access.apiUrl);
    },
  };
}
