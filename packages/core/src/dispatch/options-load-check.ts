import { ValidationError } from "../errors/index.js";
import type { OptionsLoadResult } from "../model/options-load-result.js";

/**
 * Checks what an `onOptionsLoad` handler answered: an array of options (`{ label, value }`) or
 * of option groups (`{ label, options }`). `undefined` (or `null`) means no answer, so the next
 * handler may answer. Throws a `ValidationError` naming the bad entry.
 */
export function checkOptionsLoadResult(
  value: unknown,
  step: string,
): OptionsLoadResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) {
    throw new ValidationError("an options load handler must answer an array of options", { step });
  }
  value.forEach((entry, index) => {
    const item = entry as { label?: unknown; value?: unknown; options?: unknown } | null;
    const ok =
      typeof item === "object" &&
      item !== null &&
      typeof item.label === "string" &&
      (typeof item.value === "string" || Array.isArray(item.options));
    if (!ok) {
      throw new ValidationError(
        `options[${index}] must be { label, value } or a group { label, options }`,
        { step },
      );
    }
  });
  return value as OptionsLoadResult;
}
