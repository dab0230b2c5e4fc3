import type { Logger } from "../contracts/logger.js";
import type { Attachment } from "../model/attachment.js";
import type { AiFilePart } from "./ai-message.js";

/** MIME types sent to the model as text files (upstream's list); other files are skipped. */
const TEXT_MIME_PREFIXES = [
  "text/",
  "application/json",
  "application/xml",
  "application/javascript",
  "application/typescript",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
] as const;

/** The media type of an image whose platform reported none (upstream's default). */
const DEFAULT_IMAGE_MIME = "image/png";

/** True for the MIME types a model can read as text. */
export function isTextMimeType(mimeType: string): boolean {
  return TEXT_MIME_PREFIXES.some((prefix) => mimeType.startsWith(prefix));
}

/** True for attachment kinds no model input takes (video, audio): reported, never sent. */
export function isUnsupportedAttachment(attachment: Attachment): boolean {
  return attachment.type === "video" || attachment.type === "audio";
}

/**
 * The attachment as an inline file part — images and text files only — or `null` when it is of
 * another kind or its content cannot be had. The content comes from `data` when the adapter
 * already downloaded it, else from `fetchData()` (the adapter's authenticated download); a bare
 * URL is never handed to the model, since platform file URLs need the bot's credentials. A
 * failed download is logged and skips the attachment, not the message.
 */
export async function attachmentToPart(
  attachment: Attachment,
  logger: Logger,
): Promise<AiFilePart | null> {
  const mimeType = partMimeType(attachment);
  if (mimeType === undefined) return null;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await contentOf(attachment);
  } catch (error) {
    logger.error(`toAiMessages: failed to fetch ${attachment.type} data`, {
      name: attachment.name,
      error,
    });
    return null;
  }
  if (bytes === undefined) return null;
  const part: AiFilePart = {
    type: "file",
    data: `data:${mimeType};base64,${toBase64(bytes)}`,
    mediaType: mimeType,
  };
  if (attachment.name !== undefined) part.filename = attachment.name;
  return part;
}

function partMimeType(attachment: Attachment): string | undefined {
  if (attachment.type === "image") return attachment.mimeType ?? DEFAULT_IMAGE_MIME;
  if (attachment.type === "file" && attachment.mimeType && isTextMimeType(attachment.mimeType)) {
    return attachment.mimeType;
  }
  return undefined;
}

async function contentOf(attachment: Attachment): Promise<Uint8Array | undefined> {
  const { data } = attachment;
  if (data instanceof Uint8Array) return data;
  if (data !== undefined && typeof data.arrayBuffer === "function") {
    return new Uint8Array(await data.arrayBuffer());
  }
  if (attachment.fetchData) return attachment.fetchData();
  return undefined;
}

/** Base64 without Node's `Buffer`, so the module also runs on edge runtimes. */
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  // Chunks keep String.fromCharCode's argument list well under engine limits.
  const chunkBytes = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunkBytes) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + chunkBytes));
  }
  return btoa(binary);
}
