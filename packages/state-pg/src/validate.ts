import { ValidationError } from "@baton/core";

export {
  assertEnqueueOptions,
  assertOptionalTtlMs,
  assertPlainObject,
  assertStateKey as assertKey,
  assertTtlMs,
} from "@baton/core";

// The same checks, in the same words, as the reference backend (@baton/state-memory), so a caller
// sees one behaviour whichever backend it runs on. They run before any statement is sent, so an
// invalid call writes nothing.

/** Rejects a `maxLength` that is given but not a positive integer. */
export function assertOptionalMaxLength(step: string, maxLength: number | undefined): void {
  if (maxLength !== undefined && !(Number.isInteger(maxLength) && maxLength >= 1)) {
    throw new ValidationError(`maxLength must be a positive integer, got ${maxLength}`, { step });
  }
}

/** Rejects a `limit` that is not a positive integer. */
export function assertLimit(step: string, limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new ValidationError(`limit must be a positive integer, got ${limit}`, { step });
  }
}

/** Serializes a JSON value for a jsonb parameter, rejecting what JSON cannot carry. */
export function toJson(step: string, value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new ValidationError(`the value must be JSON, got ${String(value)}`, { step });
  }
  return text;
}
