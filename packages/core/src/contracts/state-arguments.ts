import { ValidationError } from "../errors/index.js";
import type { EnqueueOptions } from "./state.js";

// Argument checks every State backend runs before it writes anything, in one place so every
// backend rejects the same calls with the same words (the conformance suite asserts the codes).

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
export function assertStateKey(step: string, key: string): void {
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

/** Rejects a `limit` or `maxLength` that is not a positive integer. */
export function assertPositiveInteger(step: string, name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new ValidationError(`${name} must be a positive integer, got ${value}`, { step });
  }
}
