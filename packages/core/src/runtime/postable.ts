import type { PostableMessage } from "../contracts/adapter.js";
import { ValidationError } from "../errors/index.js";

/**
 * Returns `message` when it is a non-empty string, `{ markdown }` or `{ raw }` with a non-empty
 * string; otherwise throws a `ValidationError` prefixed with `step`, before any platform call.
 * Platforms reject empty text with errors that do not say which call sent it; this one does.
 * Whitespace is allowed: a single space is a deliberate "nothing to say" on some platforms.
 */
export function assertPostable(message: unknown, step: string): PostableMessage {
  if (typeof message === "string") {
    if (message === "") throw new ValidationError("message text must not be empty", { step });
    return message;
  }
  if (typeof message === "object" && message !== null) {
    if (Symbol.asyncIterator in message) {
      throw new ValidationError(
        "streaming a message (an async iterable) is not supported by post() yet; " +
          "collect the text and post a string",
        { step },
      );
    }
    const record = message as { markdown?: unknown; raw?: unknown };
    for (const field of ["markdown", "raw"] as const) {
      if (!(field in record)) continue;
      const text = record[field];
      if (typeof text !== "string") {
        throw new ValidationError(`${field} must be a string, got ${typeof text}`, { step });
      }
      if (text === "") throw new ValidationError(`${field} must not be empty`, { step });
      return message as PostableMessage;
    }
  }
  throw new ValidationError("message must be a string, { markdown } or { raw }", { step });
}
