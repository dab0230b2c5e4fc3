import {
  type AdapterPostableMessage,
  type Attachment,
  type FileUpload,
  ValidationError,
} from "@baton/core";
import { mimeTypeOfName } from "./attachments.js";

/** The picture formats Teams documents for images in a bot's message: PNG, JPEG and GIF. */
export const TEAMS_INLINE_IMAGE_TYPES: readonly string[] = Object.freeze([
  "image/png",
  "image/jpeg",
  "image/gif",
]);

/** The largest picture Teams documents for a bot's message: 1 MB (1 048 576 bytes). */
export const TEAMS_INLINE_IMAGE_MAX_BYTES = 1024 * 1024;

/** A file of a post, its bytes read. */
export interface TeamsOutboundFile {
  readonly filename: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
}

/** An image shown in the message itself: bytes as a base64 `data:` URI, or a hosted https URL. */
export interface TeamsInlineImage {
  readonly contentType: string;
  readonly contentUrl: string;
  readonly name?: string;
}

/** What a post's `files` and `attachments` become on Teams. */
export interface TeamsPostFiles {
  /** Pictures Teams shows inline, in every kind of conversation. */
  readonly images: TeamsInlineImage[];
  /** Everything else: only a personal chat can take them, through a file consent card. */
  readonly offered: TeamsOutboundFile[];
}

const STEP = "attach files to a teams message";

async function bytesOf(data: Uint8Array | ArrayBuffer | Blob): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(await data.arrayBuffer());
}

/** True for the bytes of a picture Teams shows inline: a documented format, at most 1 MB. */
export function isTeamsInlineImage(file: TeamsOutboundFile): boolean {
  return (
    TEAMS_INLINE_IMAGE_TYPES.includes(file.mimeType) &&
    file.bytes.byteLength <= TEAMS_INLINE_IMAGE_MAX_BYTES
  );
}

function fileOf(filename: string, mimeType: string | undefined, bytes: Uint8Array) {
  if (bytes.byteLength === 0) {
    throw new ValidationError(`${filename} is empty: Teams takes no empty files`, { step: STEP });
  }
  const type = mimeType ?? mimeTypeOfName(filename) ?? "application/octet-stream";
  return { filename, mimeType: type.toLowerCase(), bytes };
}

async function uploadOf(file: FileUpload): Promise<TeamsOutboundFile> {
  return fileOf(file.filename, file.mimeType, await bytesOf(file.data));
}

/**
 * An existing attachment: its bytes when it has them (`data`, else `fetchData`); an image with
 * neither is shown from its https URL, which the Teams client fetches itself.
 */
async function attachmentOf(
  attachment: Attachment,
  index: number,
): Promise<TeamsOutboundFile | TeamsInlineImage> {
  const name = attachment.name ?? `attachment-${index + 1}`;
  if (attachment.data !== undefined) {
    return fileOf(name, attachment.mimeType, await bytesOf(attachment.data));
  }
  if (attachment.fetchData !== undefined) {
    return fileOf(name, attachment.mimeType, await attachment.fetchData());
  }
  const url = attachment.url;
  if (attachment.type === "image" && url !== undefined && url.startsWith("https://")) {
    const path = new URL(url).pathname;
    const contentType =
      attachment.mimeType ?? mimeTypeOfName(attachment.name ?? "") ?? mimeTypeOfName(path);
    if (contentType === undefined || !contentType.startsWith("image/")) {
      throw new ValidationError(
        `attachments[${index}]: an image shown from its URL needs an image mimeType`,
        { step: STEP },
      );
    }
    return { contentType, contentUrl: url, ...(attachment.name ? { name: attachment.name } : {}) };
  }
  throw new ValidationError(
    `attachments[${index}] needs data, fetchData, or (for an image) an https URL`,
    { step: STEP },
  );
}

function dataUri(file: TeamsOutboundFile): TeamsInlineImage {
  const base64 = Buffer.from(file.bytes).toString("base64");
  return {
    contentType: file.mimeType,
    contentUrl: `data:${file.mimeType};base64,${base64}`,
    name: file.filename,
  };
}

/**
 * Reads a post's `files` and `attachments` (bytes loaded, MIME types guessed from the name when
 * absent) and sorts them: PNG, JPEG and GIF pictures up to 1 MB — and images by https URL —
 * become inline images; every other file must be offered through a file consent card.
 */
export async function collectTeamsFiles(message: AdapterPostableMessage): Promise<TeamsPostFiles> {
  const extras = (typeof message === "object" && message !== null ? message : {}) as {
    files?: readonly FileUpload[];
    attachments?: readonly Attachment[];
  };
  const images: TeamsInlineImage[] = [];
  const offered: TeamsOutboundFile[] = [];
  const sort = (item: TeamsOutboundFile | TeamsInlineImage) => {
    if ("contentUrl" in item) images.push(item);
    else if (isTeamsInlineImage(item)) images.push(dataUri(item));
    else offered.push(item);
  };
  for (const file of extras.files ?? []) sort(await uploadOf(file));
  for (const [index, attachment] of (extras.attachments ?? []).entries()) {
    sort(await attachmentOf(attachment, index));
  }
  return { images, offered };
}
