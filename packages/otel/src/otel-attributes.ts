import type { DispatchAttributes } from "@baton/core";
import type { Attributes } from "@opentelemetry/api";

/** Prefix of every attribute this package writes, so Baton's keys never collide with others. */
export const ATTRIBUTE_PREFIX = "baton.";

/** The dispatch attributes a span carries; its outcome is set by `end`, not copied from input. */
export const SPAN_ATTRIBUTE_NAMES = ["adapter", "tenant", "route", "strategy"] as const;

/** The dispatch attributes a metric data point carries. */
export const METRIC_ATTRIBUTE_NAMES = [...SPAN_ATTRIBUTE_NAMES, "outcome"] as const;

/**
 * Copies the named attributes under the `baton.` prefix. An allow-list, not a spread: an extra
 * key from a JavaScript caller (message text, a user id) must never reach a trace or a metric
 * series, where it would leak personal data and explode cardinality.
 */
export function toOtelAttributes(
  attributes: Partial<DispatchAttributes> | undefined,
  names: readonly (keyof DispatchAttributes)[],
): Attributes {
  const result: Attributes = {};
  if (attributes === undefined || attributes === null) return result;
  for (const name of names) {
    const value = attributes[name];
    if (typeof value === "string") result[`${ATTRIBUTE_PREFIX}${name}`] = value;
  }
  return result;
}
