import type { AdapterPostableMessage } from "../contracts/postable-message.js";
import { ValidationError } from "../errors/index.js";

const KINDS = "a string, { markdown }, { ast }, { raw }, a card or a stream";

/**
 * Returns `message` when it is a postable an adapter can receive — a non-empty string,
 * `{ markdown }` / `{ raw }` with a non-empty string, `{ ast }` with an mdast root, `{ card }` or a
 * bare card element — with well-formed `files` and `attachments`; otherwise throws a
 * `ValidationError` prefixed with `step` and naming the bad field, before any platform call.
 * Platforms reject empty text with errors that do not say which call sent it; this one does.
 * Whitespace is allowed: a single space is a deliberate "nothing to say" on some platforms.
 */
export function assertPostable(message: unknown, step: string): AdapterPostableMessage {
  if (typeof message === "string") {
    if (message === "") throw new ValidationError("message text must not be empty", { step });
    return message;
  }
  if (typeof message !== "object" || message === null) {
    throw new ValidationError(`message must be ${KINDS}, got ${describe(message)}`, { step });
  }
  if (Symbol.asyncIterator in message) {
    throw new ValidationError("a stream cannot be sent here; post() takes streams", { step });
  }
  const record = message as Record<string, unknown>;
  if (record.type === "card") return message as AdapterPostableMessage;
  if ("card" in record) {
    const card = record.card as { type?: unknown } | null;
    if (typeof card !== "object" || card === null || card.type !== "card") {
      throw new ValidationError('card must be a card element (type "card")', { step });
    }
    if (record.fallbackText !== undefined && typeof record.fallbackText !== "string") {
      throw new ValidationError("fallbackText must be a string", { step });
    }
    assertFiles(record.files, step);
    return message as AdapterPostableMessage;
  }
  for (const field of ["markdown", "raw"] as const) {
    if (!(field in record)) continue;
    const text = record[field];
    if (typeof text !== "string") {
      throw new ValidationError(`${field} must be a string, got ${describe(text)}`, { step });
    }
    if (text === "") throw new ValidationError(`${field} must not be empty`, { step });
    assertExtras(record, step);
    return message as AdapterPostableMessage;
  }
  if ("ast" in record) {
    const ast = record.ast as { type?: unknown; children?: unknown } | null;
    if (typeof ast !== "object" || ast === null || ast.type !== "root") {
      throw new ValidationError('ast must be an mdast root (type "root")', { step });
    }
    if (!Array.isArray(ast.children)) {
      throw new ValidationError("ast.children must be an array", { step });
    }
    assertExtras(record, step);
    return message as AdapterPostableMessage;
  }
  throw new ValidationError(`message must be ${KINDS}`, { step });
}

/** True when the postable carries files to upload. */
export function hasFiles(message: AdapterPostableMessage): boolean {
  if (typeof message !== "object" || !("files" in message)) return false;
  return Array.isArray(message.files) && message.files.length > 0;
}

function assertExtras(record: Record<string, unknown>, step: string): void {
  assertFiles(record.files, step);
  const attachments = record.attachments;
  if (attachments === undefined) return;
  if (!Array.isArray(attachments)) {
    throw new ValidationError("attachments must be an array", { step });
  }
  attachments.forEach((attachment, index) => {
    const type = (attachment as { type?: unknown } | null)?.type;
    if (typeof type !== "string") {
      throw new ValidationError(`attachments[${index}].type must be a string`, { step });
    }
  });
}

/** Throws a `ValidationError` naming the bad entry unless `files` is absent or well formed. */
export function assertFiles(files: unknown, step: string): void {
  if (files === undefined) return;
  if (!Array.isArray(files)) throw new ValidationError("files must be an array", { step });
  files.forEach((file, index) => {
    const record = file as { filename?: unknown; data?: unknown } | null;
    if (typeof record?.filename !== "string" || record.filename === "") {
      throw new ValidationError(`files[${index}].filename must be a non-empty string`, { step });
    }
    const data = record.data;
    const ok =
      data instanceof Uint8Array ||
      data instanceof ArrayBuffer ||
      (typeof Blob !== "undefined" && data instanceof Blob);
    if (!ok) {
      throw new ValidationError(`files[${index}].data must be bytes or a Blob`, { step });
    }
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}
