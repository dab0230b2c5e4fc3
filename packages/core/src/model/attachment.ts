/** The kinds of attachment a message can carry. */
export type AttachmentType = "image" | "file" | "video" | "audio";

/** Fields of an attachment that survive serialization (queues, stored history). */
export interface SerializedAttachment {
  type: AttachmentType;
  url?: string;
  name?: string;
  mimeType?: string;
  /** Size in bytes. */
  size?: number;
  /** Pixel width of an image or video. */
  width?: number;
  /** Pixel height of an image or video. */
  height?: number;
  /**
   * String facts an adapter needs to fetch the content again after rehydration (file id, team id).
   * Kept through serialization, unlike `data` and `fetchData`.
   */
  fetchMetadata?: Record<string, string>;
}

/** A file, image or media item attached to a message. */
export interface Attachment extends SerializedAttachment {
  /** The content, when the adapter already downloaded it. Never serialized. */
  data?: Uint8Array | Blob;
  /** Downloads the content on demand (with the adapter's credentials). Never serialized. */
  fetchData?: () => Promise<Uint8Array>;
}

/** Strips the fields that cannot cross a process boundary. */
export function serializeAttachment(attachment: Attachment): SerializedAttachment {
  const { data: _data, fetchData: _fetchData, ...rest } = attachment;
  const copy: SerializedAttachment = { ...rest };
  if (rest.fetchMetadata) copy.fetchMetadata = { ...rest.fetchMetadata };
  return copy;
}
