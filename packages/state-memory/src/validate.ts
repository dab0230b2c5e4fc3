import { ValidationError } from "@baton/core";

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
