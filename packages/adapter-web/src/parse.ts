import {
  type Author,
  type JsonValue,
  Message,
  type SerializedMessage,
  ValidationError,
} from "@baton/core";
import { WEB_ID_PATTERN } from "./thread-id.js";

/** A refusal of a request, with the status and wire code it is answered with. */
export interface WebRequestProblem {
  status: 400 | 403 | 413 | 415;
  code:
    | "INVALID_BODY"
    | "FORBIDDEN"
    | "BODY_TOO_LARGE"
    | "TEXT_TOO_LONG"
    | "UNSUPPORTED_MEDIA_TYPE";
  error: string;
}

/** The JSON body of `POST …/messages`. */
export interface WebPostBody {
  /** The thread to post to, `{name}:{userId}:{threadName}`; default the user's `dm` thread. */
  threadId?: string;
  /** The message text: not blank, at most `maxTextLength` characters. */
  text: string;
  /**
   * A client-chosen id (1–64 of `[A-Za-z0-9_.-]`) that makes a retried POST a duplicate instead
   * of a second message. The message id becomes `{userId}.{id}`.
   */
  id?: string;
}

const POST_FIELDS = new Set(["threadId", "text", "id"]);

/**
 * Reads a JSON request body of at most `maxBytes` bytes. The declared `content-length` is
 * checked first and the stream is counted while read, so an oversized body is refused without
 * being buffered. Resolves with the parsed value or the problem to answer.
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; problem: WebRequestProblem }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return refuse(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      "send the message as JSON (content-type: application/json)",
    );
  }
  const tooLarge = () => refuse(413, "BODY_TOO_LARGE", `the body is larger than ${maxBytes} bytes`);
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = new TextDecoder().decode(concat(chunks, size));
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return refuse(400, "INVALID_BODY", `the body is not valid JSON: ${detail}`);
  }
}

/** Validates a `POST …/messages` body; the thread id is checked by the caller. */
export function parsePostBody(
  value: unknown,
  maxTextLength: number,
): { ok: true; body: WebPostBody } | { ok: false; problem: WebRequestProblem } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse(
      400,
      "INVALID_BODY",
      'the body must be a JSON object { "text": "…", "threadId"?: "…" }',
    );
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !POST_FIELDS.has(key));
  if (unknown.length > 0) {
    return refuse(
      400,
      "INVALID_BODY",
      `unknown field(s) ${unknown.map((k) => JSON.stringify(k)).join(", ")}; expected text, threadId, id`,
    );
  }
  const { text, threadId, id } = record;
  if (text === undefined) return refuse(400, "INVALID_BODY", "text is required");
  if (typeof text !== "string") return refuse(400, "INVALID_BODY", "text must be a string");
  if (text.trim() === "") return refuse(400, "INVALID_BODY", "text must not be blank");
  // Characters as people count them (code points), not UTF-16 units.
  const length = [...text].length;
  if (length > maxTextLength) {
    return refuse(
      413,
      "TEXT_TOO_LONG",
      `text is ${length} characters; the limit is ${maxTextLength}`,
    );
  }
  if (threadId !== undefined && typeof threadId !== "string") {
    return refuse(400, "INVALID_BODY", "threadId must be a string when given");
  }
  if (id !== undefined && (typeof id !== "string" || !WEB_ID_PATTERN.test(id))) {
    return refuse(
      400,
      "INVALID_BODY",
      'id must be 1–64 letters, digits, "_", "." or "-" when given',
    );
  }
  const body: WebPostBody = { text };
  if (threadId !== undefined) body.threadId = threadId;
  if (id !== undefined) body.id = id;
  return { ok: true, body };
}

/** The web platform's message payload, as `parseMessage` takes it. */
export interface WebRawMessage {
  id: string;
  threadId: string;
  text: string;
  userId: string;
  /** Default: the user id. */
  userName?: string;
  /** When it was sent, epoch milliseconds. Default: now. */
  dateSentMs?: number;
}

/**
 * Builds a `Message` from a {@link WebRawMessage} or a message's JSON form. A message whose
 * author is `botUserId` is the bot's own (`isMe`). `isMention` stays `undefined`: a browser
 * sends no mention metadata, so the core detects `@{userName}` in the text.
 */
export function parseWebMessage(
  raw: unknown,
  context: { botUserId: string; now: () => number },
): Message {
  const fail = (problem: string): never => {
    throw new ValidationError(problem, { step: "parse web message" });
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return fail("expected an object");
  const record = raw as Record<string, unknown>;
  if (record._type === "baton:Message")
    return Message.fromJSON(record as unknown as SerializedMessage);
  for (const field of ["id", "threadId", "text", "userId"] as const) {
    if (typeof record[field] !== "string" || record[field] === "")
      fail(`${field} must be a non-empty string`);
  }
  if (
    record.userName !== undefined &&
    (typeof record.userName !== "string" || record.userName === "")
  ) {
    fail("userName must be a non-empty string when given");
  }
  const dateSentMs = record.dateSentMs ?? context.now();
  if (typeof dateSentMs !== "number" || !Number.isFinite(dateSentMs))
    fail("dateSentMs must be a number");
  const message = record as unknown as WebRawMessage;
  const isMe = message.userId === context.botUserId;
  const userName = message.userName ?? message.userId;
  const author: Author = {
    userId: message.userId,
    userName,
    fullName: userName,
    isBot: isMe,
    isMe,
  };
  const json: Record<string, JsonValue> = {
    id: message.id,
    threadId: message.threadId,
    text: message.text,
    userId: message.userId,
    userName,
    dateSentMs: dateSentMs as number,
  };
  return new Message({
    id: message.id,
    threadId: message.threadId,
    text: message.text,
    author,
    metadata: { dateSent: new Date(dateSentMs as number), edited: false },
    raw: json,
  });
}

function refuse(
  status: WebRequestProblem["status"],
  code: WebRequestProblem["code"],
  error: string,
): { ok: false; problem: WebRequestProblem } {
  return { ok: false, problem: { status, code, error } };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
