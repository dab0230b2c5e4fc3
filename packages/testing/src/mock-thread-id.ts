import { ValidationError } from "@baton/core";

/** The decoded form of a mock thread id `{name}:{channel}:{thread}`. */
export interface MockThreadData {
  /** The channel; a channel starting with `D` is a direct conversation. */
  channel: string;
  thread: string;
}

/**
 * `{name}:{channel}:{thread}`. Throws a `ValidationError` for an empty part or one containing
 * `:`, so `decodeMockThreadId(name, encodeMockThreadId(name, data))` always equals `data`.
 */
export function encodeMockThreadId(name: string, data: MockThreadData): string {
  for (const part of ["channel", "thread"] as const) {
    const value = data?.[part];
    if (typeof value !== "string" || value === "" || value.includes(":")) {
      throw new ValidationError(`${part} must be a non-empty string without ":"`, {
        step: "encode thread id",
      });
    }
  }
  return `${name}:${data.channel}:${data.thread}`;
}

/**
 * The inverse of {@link encodeMockThreadId}. Throws a `ValidationError` for another adapter's
 * prefix, a missing or empty part, or extra parts.
 */
export function decodeMockThreadId(name: string, threadId: string): MockThreadData {
  const parts = typeof threadId === "string" ? threadId.split(":") : [];
  const [prefix, channel, thread] = parts;
  if (parts.length !== 3 || prefix !== name || !channel || !thread) {
    throw new ValidationError(
      `${JSON.stringify(threadId)} is not a thread id of adapter "${name}"; expected "${name}:{channel}:{thread}"`,
      { step: "decode thread id" },
    );
  }
  return { channel, thread };
}
