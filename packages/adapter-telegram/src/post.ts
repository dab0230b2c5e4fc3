import {
  type AdapterPostableMessage,
  type Attachment,
  type CardElement,
  type FileUpload,
  isCardElement,
  parseMarkdown,
  toPlainText,
  ValidationError,
} from "@baton/core";
import type { TelegramApi } from "./api.js";
import {
  cardToTelegramInlineKeyboard,
  cardToTelegramMarkdown,
  type TelegramCallbackEncoder,
  type TelegramInlineKeyboard,
} from "./cards.js";
import { TelegramParseEntitiesError } from "./errors.js";
import { TelegramFormatConverter } from "./format.js";
import { splitTelegramMarkdown, splitTelegramText } from "./split.js";
import type { TelegramThreadData } from "./thread-id.js";
import { TELEGRAM_CAPTION_LIMIT, TELEGRAM_MESSAGE_LIMIT, truncateForTelegram } from "./truncate.js";

/** One message's text and how Telegram should parse it. */
export interface TelegramText {
  readonly text: string;
  /** `MarkdownV2`, or `undefined` for text sent as typed. */
  readonly parseMode: "MarkdownV2" | undefined;
  /** The plain text, sent instead when Telegram cannot parse `text`. */
  readonly plain: string;
}

/** A postable message, rendered for Telegram. */
export interface TelegramRendered {
  /** The messages to send, in order (more than one when the text exceeds 4 096 characters). */
  readonly parts: readonly TelegramText[];
  readonly keyboard: TelegramInlineKeyboard | undefined;
  readonly files: readonly FileUpload[];
  readonly attachments: readonly Attachment[];
}

/** The Telegram message object fields the adapter reads back. */
export interface TelegramSentMessage {
  readonly message_id: number;
  readonly chat: { readonly id: number };
  readonly date?: number;
  readonly text?: string;
}

function cardOf(message: AdapterPostableMessage): CardElement | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if ("card" in message) return message.card as CardElement;
  return isCardElement(message) ? (message as CardElement) : undefined;
}

const CONVERTER = new TelegramFormatConverter();

function markdownParts(
  markdown: string | ReturnType<typeof parseMarkdown>,
  split: boolean,
): TelegramText[] {
  const ast = typeof markdown === "string" ? parseMarkdown(markdown) : markdown;
  const plain = toPlainText(ast);
  const parts = split ? splitTelegramMarkdown(ast) : [CONVERTER.fromAst(ast)];
  return parts.map((text, index) => ({
    text,
    parseMode: "MarkdownV2" as const,
    plain: parts.length === 1 ? plain : text,
  }));
}

/**
 * Renders a postable: a string or `{ raw }` as typed (no `parse_mode`, split at 4 096), markdown
 * and ASTs as MarkdownV2 (split between blocks), a card as its MarkdownV2 text with its buttons
 * as an inline keyboard on the last part. `encode` turns a button payload into `callback_data`.
 */
export function renderTelegramPost(
  message: AdapterPostableMessage,
  encode?: TelegramCallbackEncoder,
  options: { split?: boolean } = {},
): TelegramRendered {
  const split = options.split ?? true;
  const splitText = (text: string) => (split ? splitTelegramText(text) : [text]);
  const extras = (typeof message === "object" && message !== null ? message : {}) as {
    files?: readonly FileUpload[];
    attachments?: readonly Attachment[];
  };
  const files = extras.files ?? [];
  const attachments = extras.attachments ?? [];
  const card = cardOf(message);
  if (card !== undefined) {
    const text = cardToTelegramMarkdown(card);
    return {
      parts:
        text === "" ? [] : markdownParts(text, split).map((part) => ({ ...part, text: part.text })),
      keyboard: cardToTelegramInlineKeyboard(card, encode),
      files,
      attachments,
    };
  }
  let parts: TelegramText[];
  if (typeof message === "string") {
    parts = splitText(message).map((text) => ({ text, parseMode: undefined, plain: text }));
  } else if ("raw" in message) {
    parts = splitText(message.raw).map((text) => ({
      text,
      parseMode: undefined,
      plain: text,
    }));
  } else if ("markdown" in message) {
    parts = markdownParts(message.markdown, split);
  } else if ("ast" in message) {
    parts = markdownParts(message.ast, split);
  } else {
    throw new ValidationError("a Telegram post needs text, markdown, an AST or a card", {
      step: "render telegram post",
    });
  }
  // A part that shows nothing (an empty quote, say) is one Telegram refuses as empty text.
  return {
    parts: parts.filter((part) => part.text.trim() !== "" && part.plain.trim() !== ""),
    keyboard: undefined,
    files,
    attachments,
  };
}

/** The fields that address a chat and, in a forum, a topic. */
export function chatParams(thread: TelegramThreadData): Record<string, unknown> {
  return {
    chat_id: thread.chatId,
    ...(thread.messageThreadId === undefined ? {} : { message_thread_id: thread.messageThreadId }),
  };
}

/**
 * Sends with `parse_mode`, and once more as plain text when Telegram says it cannot parse the
 * entities — the reader gets the words, not an error.
 */
export async function sendWithFallback<T>(
  part: TelegramText,
  send: (text: string, parseMode: string | undefined) => Promise<T>,
): Promise<T> {
  try {
    return await send(part.text, part.parseMode);
  } catch (error) {
    if (!(error instanceof TelegramParseEntitiesError) || part.parseMode === undefined) throw error;
    return send(part.plain || part.text, undefined);
  }
}

async function uploadOf(file: FileUpload): Promise<{ source: Buffer; filename: string }> {
  const data = file.data;
  const source =
    data instanceof Uint8Array
      ? Buffer.from(data)
      : data instanceof ArrayBuffer
        ? Buffer.from(data)
        : Buffer.from(await data.arrayBuffer());
  return { source, filename: file.filename };
}

/** How Telegram takes a file: each kind has its own method and field. */
type UploadKind = "photo" | "video" | "audio" | "document";

const UPLOAD_METHODS: Record<UploadKind, string> = {
  photo: "sendPhoto",
  video: "sendVideo",
  audio: "sendAudio",
  document: "sendDocument",
};

function kindOfFile(name: string | undefined, mimeType: string | undefined): UploadKind {
  if (mimeType?.startsWith("image/") || /\.(png|jpe?g|gif|webp)$/i.test(name ?? "")) return "photo";
  if (mimeType?.startsWith("video/") || /\.(mp4|mov|webm)$/i.test(name ?? "")) return "video";
  if (mimeType?.startsWith("audio/") || /\.(mp3|m4a|ogg|wav)$/i.test(name ?? "")) return "audio";
  return "document";
}

const KIND_OF_ATTACHMENT: Record<Attachment["type"], UploadKind> = {
  image: "photo",
  video: "video",
  audio: "audio",
  file: "document",
};

/** An attachment as an upload: its bytes (given, or loaded with `fetchData`), else its URL. */
async function attachmentUpload(
  attachment: Attachment,
): Promise<{ media: unknown; kind: UploadKind }> {
  const kind = KIND_OF_ATTACHMENT[attachment.type];
  const filename = attachment.name ?? (kind === "photo" ? "image.jpg" : "file");
  const data = attachment.data ?? (attachment.fetchData ? await attachment.fetchData() : undefined);
  if (data !== undefined) {
    return {
      media: await uploadOf({
        data,
        filename,
        ...(attachment.mimeType ? { mimeType: attachment.mimeType } : {}),
      }),
      kind,
    };
  }
  if (attachment.url === undefined || !/^https?:\/\//.test(attachment.url)) {
    throw new ValidationError("a Telegram attachment needs data, fetchData or a public URL", {
      step: "post telegram message",
    });
  }
  return { media: attachment.url, kind };
}

/**
 * Sends a rendered post into a chat (or topic): text parts with `sendMessage` (the keyboard on
 * the last), then each file with `sendPhoto` or `sendDocument` — the text becomes the first
 * file's caption when it is a single part that fits Telegram's caption limit.
 */
export async function sendTelegramPost(
  api: TelegramApi,
  thread: TelegramThreadData,
  rendered: TelegramRendered,
): Promise<TelegramSentMessage[]> {
  const target = chatParams(thread);
  const uploads = [
    ...(await Promise.all(
      rendered.files.map(async (file) => ({
        media: (await uploadOf(file)) as unknown,
        kind: kindOfFile(file.filename, file.mimeType),
      })),
    )),
    ...(await Promise.all(rendered.attachments.map(attachmentUpload))),
  ];
  const sent: TelegramSentMessage[] = [];
  const [only] = rendered.parts;
  const caption =
    uploads.length > 0 &&
    rendered.parts.length === 1 &&
    only &&
    only.text.length <= TELEGRAM_CAPTION_LIMIT
      ? only
      : undefined;
  const textParts = caption === undefined ? rendered.parts : [];
  if (textParts.length === 0 && uploads.length === 0) {
    throw new ValidationError("a Telegram message needs text or a file", {
      step: "post telegram message",
    });
  }
  for (const [index, part] of textParts.entries()) {
    const last = index === textParts.length - 1 && uploads.length === 0;
    sent.push(
      await sendWithFallback(part, (text, parseMode) =>
        api.call<TelegramSentMessage>("sendMessage", {
          ...target,
          text: truncateForTelegram(
            text,
            TELEGRAM_MESSAGE_LIMIT,
            parseMode ? "MarkdownV2" : "plain",
          ),
          ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
          ...(last && rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
        }),
      ),
    );
  }
  for (const [index, upload] of uploads.entries()) {
    const method = UPLOAD_METHODS[upload.kind];
    const field = upload.kind;
    const withCaption = index === 0 && caption !== undefined;
    const last = index === uploads.length - 1;
    const send = (text: string | undefined, parseMode: string | undefined) =>
      api.call<TelegramSentMessage>(method, {
        ...target,
        [field]: upload.media,
        ...(text === undefined ? {} : { caption: text }),
        ...(parseMode === undefined ? {} : { parse_mode: parseMode }),
        ...(last && rendered.keyboard ? { reply_markup: rendered.keyboard } : {}),
      });
    sent.push(
      withCaption ? await sendWithFallback(caption, send) : await send(undefined, undefined),
    );
  }
  return sent;
}
