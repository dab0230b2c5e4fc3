import { ValidationError } from "@baton/core";

/** The thread name of a user's direct conversation with the bot: `web:{userId}:dm`. */
export const DM_THREAD_NAME = "dm";

/**
 * What user ids and thread names may contain: letters, digits, `_`, `.` and `-`, 1–64 of them.
 * No `:`, so a thread id splits back into exactly its parts, and nothing a URL, an SSE line or
 * an HTML attribute would have to escape.
 */
export const WEB_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The decoded form of a web thread id `{name}:{userId}:{threadName}`. */
export interface WebThreadData {
  /** The user the thread belongs to, as the host's `identify` named them. */
  userId: string;
  /** The thread's name within the user's conversations; `dm` is the direct conversation. */
  threadName: string;
}

/**
 * `{name}:{userId}:{threadName}`. Throws a `ValidationError` when a part does not match
 * {@link WEB_ID_PATTERN}, so decoding the result always gives `data` back.
 */
export function encodeWebThreadId(name: string, data: WebThreadData): string {
  const step = "encode web thread id";
  assertPart(data?.userId, "userId", step);
  assertPart(data?.threadName, "threadName", step);
  return `${name}:${data.userId}:${data.threadName}`;
}

/**
 * The inverse of {@link encodeWebThreadId}. Throws a `ValidationError` for another adapter's
 * prefix, a missing part, an extra part or a part outside {@link WEB_ID_PATTERN}.
 */
export function decodeWebThreadId(name: string, threadId: string): WebThreadData {
  const step = "decode web thread id";
  if (typeof threadId !== "string") {
    throw new ValidationError(`thread id must be a string, got ${typeof threadId}`, { step });
  }
  const parts = threadId.split(":");
  if (parts.length !== 3 || parts[0] !== name) {
    throw new ValidationError(
      `${JSON.stringify(threadId)} is not a thread id of the "${name}" adapter ("${name}:{userId}:{threadName}")`,
      { step },
    );
  }
  const [, userId = "", threadName = ""] = parts;
  assertPart(userId, "userId", step);
  assertPart(threadName, "threadName", step);
  return { userId, threadName };
}

/** `{name}:{userId}`: all threads of one user form one channel (the unit of channel lock scope). */
export function webChannelId(name: string, threadId: string): string {
  return `${name}:${decodeWebThreadId(name, threadId).userId}`;
}

/** Throws a `ValidationError` unless `value` matches {@link WEB_ID_PATTERN}. */
export function assertPart(value: unknown, what: string, step: string): asserts value is string {
  if (typeof value !== "string" || !WEB_ID_PATTERN.test(value)) {
    throw new ValidationError(
      `${what} must be 1–64 letters, digits, "_", "." or "-", got ${JSON.stringify(value)}`,
      { step },
    );
  }
}
