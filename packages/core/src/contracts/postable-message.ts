import type { Root } from "mdast";
import type { CardElement } from "../content/cards/card-types.js";
import type { Attachment } from "../model/attachment.js";

/**
 * A file uploaded with a post (upstream's `FileUpload`). Only adapters whose `files` capability is
 * true receive one; elsewhere the post is refused with a `NotSupportedError` before any call.
 */
export interface FileUpload {
  /** The file's bytes. */
  data: Uint8Array | ArrayBuffer | Blob;
  /** The name the platform shows, e.g. `report.pdf`. */
  filename: string;
  /** The MIME type; adapters guess from the name when absent. */
  mimeType?: string;
}

/** What every structured post may carry besides its content. */
interface PostableExtras {
  /** Existing attachments (links, images by URL) to show with the message. */
  attachments?: Attachment[];
  /** Files to upload with the message; needs the adapter's `files` capability. */
  files?: FileUpload[];
}

/** Text the platform takes verbatim, in its own markup (upstream's `PostableRaw`). */
export interface PostableRaw extends PostableExtras {
  raw: string;
}

/** Markdown, parsed once into mdast and rendered by the adapter (upstream's `PostableMarkdown`). */
export interface PostableMarkdown extends PostableExtras {
  markdown: string;
}

/** An mdast tree, rendered by the adapter (upstream's `PostableAst`). */
export interface PostableAst extends PostableExtras {
  ast: Root;
}

/** @deprecated The card root is `CardElement` (content/cards); kept for early adapters. */
export type CardElementLike = CardElement;

/** A card with its optional text for platforms without cards (upstream's `PostableCard`). */
export interface PostableCard {
  card: CardElement;
  /** Shown instead of the card where cards cannot be rendered; default: the card's own text. */
  fallbackText?: string;
  files?: FileUpload[];
}

/**
 * What an adapter's `postMessage`, `editMessage`, `postEphemeral` and `scheduleMessage` receive
 * (upstream's `AdapterPostableMessage`): every postable kind but streams and postable objects,
 * already validated by the core. An adapter whose `cards` capability is false never receives a
 * card: the core sends `{ markdown: fallback text }` instead. JSX cards arrive as plain card
 * elements.
 */
export type AdapterPostableMessage =
  | string
  | PostableRaw
  | PostableMarkdown
  | PostableAst
  | PostableCard
  | CardElement;

/**
 * A stream of reply text: plain string chunks (the AI SDK's `textStream`) or typed chunks (its
 * `fullStream`, whose text parts are `{ type: "text-delta", text }`). The streaming layer says which
 * chunk types it reads.
 */
export type PostableStream = AsyncIterable<string | { readonly type: string }>;

/**
 * What a handler can post with `thread.post` / `channel.post` (upstream's `PostableMessage`):
 * a non-empty string (markdown is not parsed: the adapter posts it as plain text), `{ markdown }`,
 * `{ ast }`, `{ raw }`, a card (`{ card }` or a card element), or a stream.
 */
export type PostableMessage = AdapterPostableMessage | PostableStream;
