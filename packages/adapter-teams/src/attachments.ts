import type { Attachment } from "@baton/core";

/** How attachment bytes are fetched: anonymously (file links) or with the bot's token. */
export interface TeamsAttachmentFetchers {
  /** A fetcher for a public or pre-signed URL (file-download cards, SharePoint links). */
  createAnonymousFetchData(url: string): () => Promise<Uint8Array>;
  /** Downloads a connector-hosted URL with the bot's token. */
  fetchAuthenticated(url: string): Promise<Uint8Array>;
}

const FILE_DOWNLOAD_INFO = "application/vnd.microsoft.teams.file.download.info";

const MIME_BY_EXTENSION: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
  ".zip": "application/zip",
  ".mp4": "video/mp4",
  ".mp3": "audio/mpeg",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xls": "application/vnd.ms-excel",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".ppt": "application/vnd.ms-powerpoint",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

function mimeOf(fileType: string | undefined, name: string | undefined): string | undefined {
  const extension = fileType
    ? `.${fileType.replace(/^\./, "").toLowerCase()}`
    : /\.[a-z0-9]+$/i.exec(name ?? "")?.[0]?.toLowerCase();
  return extension === undefined ? undefined : MIME_BY_EXTENSION[extension];
}

/** The MIME type a file name's extension stands for (`report.pdf` → `application/pdf`), if known. */
export function mimeTypeOfName(name: string): string | undefined {
  return mimeOf(undefined, name);
}

function kindOf(mimeType: string | undefined): Attachment["type"] {
  if (mimeType?.startsWith("image/")) return "image";
  if (mimeType?.startsWith("video/")) return "video";
  if (mimeType?.startsWith("audio/")) return "audio";
  return "file";
}

/** True for loopback, link-local, private and metadata addresses (and their numeric spellings). */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "::1" || host === "::")
    return true;
  if (/^(fc|fd|fe80)/.test(host) && host.includes(":")) return true;
  if (/^\d+$/.test(host)) return true; // a bare decimal IPv4 (2130706433 = 127.0.0.1)
  const octets = host.split(".").map(Number);
  if (octets.length !== 4 || octets.some((n) => !Number.isInteger(n))) return false;
  const [a = 0, b = 0] = octets;
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/** Downloads `url` without credentials; internal addresses are refused (no SSRF through files). */
export function createAnonymousAttachmentFetchData(url: string): () => Promise<Uint8Array> {
  return async () => {
    const parsed = new URL(url);
    if (isInternalHost(parsed.hostname)) {
      throw new Error(`Refusing to fetch an internal attachment URL: ${parsed.origin}`);
    }
    const response = await fetch(url, { redirect: "error" });
    if (!response.ok) throw new Error(`attachment download failed: ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

/**
 * The adapter's fetchers: file links anonymously ({@link createAnonymousAttachmentFetchData}),
 * connector content with the bot's token from `botToken`; redirects are refused either way.
 */
export function createTeamsAttachmentFetchers(
  botToken: () => Promise<string>,
): TeamsAttachmentFetchers {
  return {
    createAnonymousFetchData: createAnonymousAttachmentFetchData,
    fetchAuthenticated: async (url) => {
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${await botToken()}` },
        redirect: "error",
      });
      if (!response.ok) throw new Error(`teams: attachment download failed: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}

/** The bot's token goes only to https URLs on the connector's own origin. */
function botFetchData(
  url: string,
  connectorOrigin: string | undefined,
  fetchers: TeamsAttachmentFetchers,
) {
  return async () => {
    const parsed = new URL(url);
    if (
      connectorOrigin === undefined ||
      parsed.protocol !== "https:" ||
      parsed.origin !== connectorOrigin
    ) {
      throw new Error("Refusing to send a bot token to an untrusted attachment URL");
    }
    return fetchers.fetchAuthenticated(url);
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * A Teams attachment as a Baton attachment with a lazy fetcher: file-download cards (OneDrive /
 * SharePoint links) anonymously with the MIME type from their file type; inline content on the
 * connector's own https origin with the bot's token; other inline URLs anonymously. Cards and
 * entries without a URL are not attachments (undefined).
 */
export function createTeamsAttachment(
  raw: Record<string, unknown>,
  connectorUrl: string,
  fetchers: TeamsAttachmentFetchers,
): Attachment | undefined {
  const contentType = typeof raw.contentType === "string" ? raw.contentType : "";
  const name = typeof raw.name === "string" ? raw.name : undefined;
  if (contentType === FILE_DOWNLOAD_INFO) {
    const content = (raw.content ?? {}) as { downloadUrl?: unknown; fileType?: unknown };
    if (typeof content.downloadUrl !== "string") return undefined;
    const url = content.downloadUrl;
    const mimeType = mimeOf(
      typeof content.fileType === "string" ? content.fileType : undefined,
      name,
    );
    return {
      type: kindOf(mimeType),
      url,
      ...(name === undefined ? {} : { name }),
      ...(mimeType === undefined ? {} : { mimeType }),
      fetchMetadata: { url },
      fetchData: fetchers.createAnonymousFetchData(url),
    };
  }
  const url = typeof raw.contentUrl === "string" ? raw.contentUrl : undefined;
  if (contentType.startsWith("application/vnd.microsoft.card") || url === undefined)
    return undefined;
  const connectorOrigin = originOf(connectorUrl);
  const mimeType = contentType === "" ? undefined : contentType;
  const onConnector = url.startsWith("https:") && originOf(url) === connectorOrigin;
  const fetchMetadata: Record<string, string> = onConnector
    ? { url, auth: "bot", connectorOrigin: connectorOrigin ?? "" }
    : { url };
  return {
    type: kindOf(mimeType),
    url,
    ...(name === undefined ? {} : { name }),
    ...(mimeType === undefined ? {} : { mimeType }),
    fetchMetadata,
    fetchData: onConnector
      ? botFetchData(url, connectorOrigin, fetchers)
      : fetchers.createAnonymousFetchData(url),
  };
}

/**
 * Gives a deserialized attachment its fetcher back: `auth: "bot"` ones with the bot's token —
 * re-checking that the URL is https on the recorded connector origin — the rest anonymously.
 */
export function rehydrateTeamsAttachment(
  attachment: Attachment,
  fetchers: TeamsAttachmentFetchers,
): Attachment {
  const metadata = attachment.fetchMetadata as Record<string, string> | undefined;
  const url = metadata?.url ?? attachment.url;
  if (url === undefined) return { ...attachment };
  const fetchData =
    metadata?.auth === "bot"
      ? botFetchData(url, metadata.connectorOrigin || undefined, fetchers)
      : fetchers.createAnonymousFetchData(url);
  return { ...attachment, fetchData };
}
