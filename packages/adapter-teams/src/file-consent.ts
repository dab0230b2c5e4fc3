import { randomUUID } from "node:crypto";
import type { Logger, StateAdapter } from "@baton/core";
import type { TeamsApi, TeamsOutboundActivity } from "./api.js";
import type { TeamsOutboundFile } from "./outbound-files.js";
import type { TeamsActivity } from "./parse.js";
import { baseConversationId } from "./thread-id.js";

/** The attachment that asks the user to accept a file into their OneDrive. */
export const FILE_CONSENT_CONTENT_TYPE = "application/vnd.microsoft.teams.card.file.consent";
/** The attachment that shows an uploaded file (preview, open, download). */
export const FILE_INFO_CONTENT_TYPE = "application/vnd.microsoft.teams.card.file.info";
/** The invoke Teams sends when the user accepts or declines a file consent card. */
export const FILE_CONSENT_INVOKE = "fileConsent/invoke";

/** How long an upload in progress holds its file against a second accept (a Teams retry). */
const UPLOAD_CLAIM_TTL_MS = 10 * 60 * 1000;

/** What the State keeps of an offered file until the user answers its consent card. */
interface PendingFile {
  readonly filename: string;
  readonly mimeType: string;
  readonly conversationId: string;
  readonly dataBase64: string;
  [key: string]: string;
}

/** The State key of an offered file. */
export function fileConsentKey(fileId: string): string {
  return `teams:file-consent:${fileId}`;
}

function claimKey(fileId: string): string {
  return `teams:file-consent-claim:${fileId}`;
}

/**
 * Keeps each file's bytes in the State for `ttlMs` — the user may answer on another instance, or
 * hours later — and returns its file consent card: name, size and the id that comes back in
 * the accept or decline.
 */
export async function offerTeamsFiles(
  state: StateAdapter,
  files: readonly TeamsOutboundFile[],
  conversationId: string,
  ttlMs: number,
): Promise<Record<string, unknown>[]> {
  const cards: Record<string, unknown>[] = [];
  for (const file of files) {
    const fileId = randomUUID();
    const pending: PendingFile = {
      filename: file.filename,
      mimeType: file.mimeType,
      conversationId: baseConversationId(conversationId),
      dataBase64: Buffer.from(file.bytes).toString("base64"),
    };
    await state.set(fileConsentKey(fileId), pending, ttlMs);
    const context = { batonFileId: fileId };
    cards.push({
      contentType: FILE_CONSENT_CONTENT_TYPE,
      name: file.filename,
      content: {
        description: file.filename,
        sizeInBytes: file.bytes.byteLength,
        acceptContext: context,
        declineContext: context,
      },
    });
  }
  return cards;
}

/** What answering a file consent needs. */
export interface FileConsentDeps {
  readonly state: StateAdapter;
  readonly api: TeamsApi;
  logger(): Logger;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * OneDrive's upload session: the whole file in one PUT (`Content-Range: bytes 0-(n-1)/n`), no
 * credentials (the upload URL is pre-authorized), redirects refused.
 */
async function upload(uploadUrl: string, bytes: Uint8Array): Promise<void> {
  const response = await fetch(uploadUrl, {
    method: "PUT",
    headers: {
      "content-type": "application/octet-stream",
      "content-range": `bytes 0-${bytes.byteLength - 1}/${bytes.byteLength}`,
    },
    body: new Uint8Array(bytes),
    redirect: "error",
  });
  if (!response.ok) throw new Error(`teams: the file upload was refused: ${response.status}`);
}

/**
 * A `fileConsent/invoke`: on accept, uploads the offered file to the upload URL Teams gave and
 * posts a file card for it into the conversation; on decline, forgets the file. A consent that
 * is not Baton's, expired, answered already, or from another conversation changes nothing. A
 * failed upload leaves the file offered (a retried accept can still deliver it) and rejects.
 */
export async function answerFileConsent(
  deps: FileConsentDeps,
  activity: TeamsActivity,
): Promise<void> {
  const logger = deps.logger();
  const value = record(activity.value);
  const fileId = text(record(value?.context)?.batonFileId);
  if (fileId === undefined) {
    logger.debug("teams: a file consent without Baton's file id was ignored");
    return;
  }
  const pending = await deps.state.get<PendingFile>(fileConsentKey(fileId));
  if (pending === null) {
    logger.warn("teams: a file consent came after its file expired or was answered", { fileId });
    return;
  }
  if (pending.conversationId !== baseConversationId(activity.conversation.id)) {
    logger.warn("teams: a file consent from another conversation was ignored", { fileId });
    return;
  }
  if (value?.action === "decline") {
    await deps.state.delete(fileConsentKey(fileId));
    return;
  }
  const info = record(value?.uploadInfo);
  const uploadUrl = text(info?.uploadUrl);
  if (value?.action !== "accept" || info === undefined || uploadUrl === undefined) return;
  if (!/^https?:\/\//.test(uploadUrl)) {
    logger.warn("teams: a file consent's upload URL is not http(s)", { fileId });
    return;
  }
  if (!(await deps.state.setIfNotExists(claimKey(fileId), true, UPLOAD_CLAIM_TTL_MS))) return;
  try {
    await upload(uploadUrl, new Uint8Array(Buffer.from(pending.dataBase64, "base64")));
  } catch (error) {
    await deps.state.delete(claimKey(fileId));
    throw error;
  }
  await deps.state.delete(fileConsentKey(fileId));
  await deps.api.send(activity.serviceUrl, activity.conversation.id, fileCard(info, pending));
}

/** The message that shows the uploaded file, from what Teams reported of the upload. */
function fileCard(info: Record<string, unknown>, pending: PendingFile): TeamsOutboundActivity {
  return {
    type: "message",
    attachments: [
      {
        contentType: FILE_INFO_CONTENT_TYPE,
        contentUrl: text(info.contentUrl),
        name: text(info.name) ?? pending.filename,
        content: { uniqueId: text(info.uniqueId), fileType: text(info.fileType) },
      },
    ],
  } as unknown as TeamsOutboundActivity;
}
