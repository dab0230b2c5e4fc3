import { type EnqueueOptions, ValidationError } from "@baton/core";

// The same checks, in the same words, as the reference backend (@baton/state-memory), so a caller
// sees one behaviour whichever backend it runs on. They run before any statement is sent, so an
// invalid call writes nothing.

/** Rejects a TTL that is not a positive finite number of milliseconds. */
export function assertTtlMs(step: string, ttlMs: number): void {
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new ValidationError(`ttlMs must be a positive number of milliseconds, got ${ttlMs}`, {
      step,
    });
  }
}

/** Like {@link assertTtlMs}, but `undefined` (no expiry) is allowed. */
export function assertOptionalTtlMs(step: string, ttlMs: number | undefined): void {
  if (ttlMs !== undefined) assertTtlMs(step, ttlMs);
}

/** Rejects an empty or non-string key. */
export function assertKey(step: string, key: string): void {
  if (typeof key !== "string" || key.length === 0) {
    throw new ValidationError(`key must be a non-empty string, got ${JSON.stringify(key)}`, {
      step,
    });
  }
}

/** Rejects anything but a plain JSON object (arrays and null included). */
export function assertPlainObject(step: string, what: string, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError(`${what} must be a plain object, got ${JSON.stringify(value)}`, {
      step,
    });
  }
}

/** Rejects a `maxSize` below 1 or an unknown `onFull`, listing both problems at once. */
export function assertEnqueueOptions(options: EnqueueOptions): void {
  const problems: string[] = [];
  if (!Number.isInteger(options?.maxSize) || options.maxSize < 1) {
    problems.push(`maxSize must be a positive integer, got ${options?.maxSize}`);
  }
  if (options?.onFull !== "drop-oldest" && options?.onFull !== "drop-newest") {
    problems.push(
      `onFull must be "drop-oldest" or "drop-newest", got ${JSON.stringify(options?.onFull)}`,
    );
  }
  if (problems.length > 0) throw new ValidationError(problems.join("; "), { step: "enqueue" });
}

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
