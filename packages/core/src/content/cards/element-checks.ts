import { ValidationError } from "../../errors/index.js";

/**
 * Checks shared by the card and modal builders. Each throws a ValidationError whose message names
 * the element and the field, so a bad card fails where it is built, not later on a platform.
 */

/** Drops `undefined` properties, so an element serializes to exactly the fields it was given. */
export function compact<T extends object>(element: T): T {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(element)) {
    if (value !== undefined) result[key] = value;
  }
  return result as T;
}

/** Renders a received value for an error message. */
export function describeReceived(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || value === undefined || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** The options object of a builder: a plain object, or a ValidationError. */
export function requireOptions(element: string, options: unknown): Record<string, unknown> {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ValidationError(
      `${element} requires an options object, got ${describeReceived(options)}`,
    );
  }
  return options as Record<string, unknown>;
}

/** A required, non-empty string field. `article` phrases the message ("an 'id' prop"). */
export function requireText(element: string, field: string, value: unknown): string {
  if (typeof value !== "string" || value.length === 0) {
    const article = /^[aeio]/i.test(field) ? "an" : "a";
    throw new ValidationError(
      `${element} requires ${article} '${field}' prop (a non-empty string), got ${describeReceived(value)}`,
    );
  }
  return value;
}

/** An optional string field: `undefined` or a string (empty allowed). */
export function optionalString(element: string, field: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === "string") return value;
  throw new ValidationError(
    `${element} '${field}' must be a string, got ${describeReceived(value)}`,
  );
}

/** An optional boolean field. */
export function optionalBoolean(
  element: string,
  field: string,
  value: unknown,
): boolean | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  throw new ValidationError(
    `${element} '${field}' must be a boolean, got ${describeReceived(value)}`,
  );
}

/** An optional field restricted to a closed set of strings. */
export function optionalChoice<T extends string>(
  element: string,
  field: string,
  value: unknown,
  choices: readonly T[],
): T | undefined {
  if (value === undefined || choices.includes(value as T)) return value as T | undefined;
  const allowed = choices.map((choice) => JSON.stringify(choice)).join(", ");
  throw new ValidationError(
    `${element} '${field}' must be one of ${allowed}, got ${describeReceived(value)}`,
  );
}

/** An optional finite number; `integer` also requires a whole number, `minimum` a lower bound. */
export function optionalNumber(
  element: string,
  field: string,
  value: unknown,
  rules: { integer?: boolean; minimum?: number } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const kind = rules.integer ? "an integer" : "a finite number";
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    (rules.integer && !Number.isInteger(value))
  ) {
    throw new ValidationError(
      `${element} '${field}' must be ${kind}, got ${describeReceived(value)}`,
    );
  }
  if (rules.minimum !== undefined && value < rules.minimum) {
    throw new ValidationError(
      `${element} '${field}' must be at least ${rules.minimum}, got ${value}`,
    );
  }
  return value;
}

/** An absolute URL (any scheme): platforms resolve nothing relative to the bot. */
export function requireUrl(element: string, field: string, value: unknown): string {
  const url = requireText(element, field, value);
  if (!URL.canParse(url)) {
    throw new ValidationError(
      `${element} '${field}' must be an absolute URL, got ${JSON.stringify(url)}`,
    );
  }
  return url;
}

/** An optional absolute URL. */
export function optionalUrl(element: string, field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : requireUrl(element, field, value);
}

/** An optional array of strings (copied, so later changes to the caller's array do not leak in). */
export function optionalStringList(
  element: string,
  field: string,
  value: unknown,
): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new ValidationError(
      `${element} '${field}' must be an array of strings, got ${describeReceived(value)}`,
    );
  }
  return [...value];
}

/** An array field (copied). */
export function requireList(element: string, field: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) {
    throw new ValidationError(
      `${element} '${field}' must be an array, got ${describeReceived(value)}`,
    );
  }
  return [...value];
}

/** The `type` tag of a value, or `undefined` when it is not an object carrying a string tag. */
export function typeTag(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const tag = (value as { type?: unknown }).type;
  return typeof tag === "string" ? tag : undefined;
}

/**
 * Children of a container: an array whose items all carry one of `allowed` type tags. The error
 * names the index and what was found there.
 */
export function requireChildren<T>(
  element: string,
  field: string,
  value: unknown,
  allowed: readonly string[],
): T[] {
  const children = requireList(element, field, value);
  children.forEach((child, index) => {
    const tag = typeTag(child);
    if (tag === undefined || !allowed.includes(tag)) {
      const found = tag === undefined ? describeReceived(child) : `a "${tag}" element`;
      throw new ValidationError(
        `${element} '${field}[${index}]' must be one of ${allowed.map((t) => `"${t}"`).join(", ")} elements, got ${found}`,
      );
    }
  });
  return children as T[];
}
