/** Readers for the loosely typed JSON of Slack install payloads (OAuth answers, deliveries). */

/** A JSON object of unknown shape. */
export type Json = Record<string, unknown>;

/** `value` when it is a non-empty string, else undefined (Slack sends "" for absent ids). */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The non-empty `id` of an object such as `team` or `enterprise` (which may be null). */
export function idOf(value: unknown): string | undefined {
  return text((value as Json | null | undefined)?.id);
}

/** The `name` of an object such as `team` or `enterprise`, when it is a string. */
export function nameOf(value: unknown): string | undefined {
  const name = (value as Json | null | undefined)?.name;
  return typeof name === "string" ? name : undefined;
}
