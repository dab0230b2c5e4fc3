import type { Message } from "./message.js";

/** The fields of a link preview that survive serialization (queues, stored history). */
export interface SerializedLinkPreview {
  url: string;
  title?: string;
  description?: string;
  imageUrl?: string;
  siteName?: string;
}

/**
 * A link found in a message, with the preview the platform unfurled for it. When the link points
 * at another message of the same platform, the adapter can set `fetchMessage` to load it.
 */
export interface LinkPreview extends SerializedLinkPreview {
  /** Loads the linked message (with the adapter's credentials). Never serialized. */
  fetchMessage?: () => Promise<Message>;
}

const PREVIEW_FIELDS = ["title", "description", "imageUrl", "siteName"] as const;

/** Strips what cannot cross a process boundary (`fetchMessage`) and absent fields. */
export function serializeLinkPreview(link: LinkPreview): SerializedLinkPreview {
  const copy: SerializedLinkPreview = { url: link.url };
  for (const field of PREVIEW_FIELDS) {
    const value = link[field];
    if (value !== undefined) copy[field] = value;
  }
  return copy;
}
