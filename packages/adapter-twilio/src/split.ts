import { ValidationError } from "@baton/core";

/** Twilio's limit on one message body, in characters. */
export const TWILIO_MESSAGE_LIMIT = 1_600;

/**
 * Splits `text` into bodies of at most `limit` characters (code points, so no emoji is cut in
 * half): at a paragraph break when one is near the end of a chunk, else at a line break, else at
 * a space, else hard. Every chunk is non-empty; joining them gives back the text up to the
 * whitespace cut at each boundary. Throws a `ValidationError` for a limit below 1.
 */
export function splitTwilioBody(text: string, limit = TWILIO_MESSAGE_LIMIT): string[] {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ValidationError(`limit must be a positive integer, got ${String(limit)}`, {
      step: "split twilio message body",
    });
  }
  let rest = [...text];
  const chunks: string[] = [];
  while (rest.length > limit) {
    const window = rest.slice(0, limit).join("");
    const cut = breakPoint(window, limit);
    chunks.push(window.slice(0, cut).trimEnd());
    rest = [...window.slice(cut), ...rest.slice(limit)];
    while (rest.length > 0 && /\s/.test(rest[0] as string)) rest = rest.slice(1);
  }
  const last = rest.join("");
  if (last !== "" || chunks.length === 0) chunks.push(last);
  return chunks.filter((chunk, index) => chunk !== "" || index === 0);
}

// A break in the last third of the window keeps chunks reasonably full.
function breakPoint(window: string, limit: number): number {
  const floor = Math.floor(limit / 3);
  for (const separator of ["\n\n", "\n", " "]) {
    const at = window.lastIndexOf(separator);
    if (at > floor) return at + separator.length;
  }
  return window.length;
}

/**
 * `text` cut to at most `limit` characters, ending in `…` when it was longer (for places where a
 * second message makes no sense, such as a quick-reply label).
 */
export function truncateTwilioBody(text: string, limit = TWILIO_MESSAGE_LIMIT): string {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ValidationError(`limit must be a positive integer, got ${String(limit)}`, {
      step: "truncate twilio message body",
    });
  }
  const chars = [...text];
  if (chars.length <= limit) return text;
  return `${chars.slice(0, limit - 1).join("")}…`;
}
