/**
 * Checks shared by the adapters' option resolvers, so every adapter reports a bad value in the
 * same words. Each check appends to a `problems` list instead of throwing: the resolver throws
 * one `ConfigError` naming every bad field.
 */

/**
 * The configured value, else the environment's fallback, trimmed. A blank string counts as
 * unset, because an empty variable in a `.env` file means "not configured", not "empty secret".
 */
export function configOrEnv(
  value: string | undefined,
  fallback: string | undefined,
): string | undefined {
  const chosen = value ?? fallback;
  return chosen === undefined || chosen.trim() === "" ? undefined : chosen.trim();
}

/** Records a problem unless `value` is absent or an absolute `http:`/`https:` URL. */
export function checkHttpUrl(problems: string[], field: string, value: string | undefined): void {
  if (value === undefined) return;
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    problems.push(`${field} must be an absolute URL, got ${JSON.stringify(value)}`);
    return;
  }
  if (protocol !== "https:" && protocol !== "http:") {
    problems.push(`${field} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
}

/**
 * Records a problem unless `value` is an integer ≥ `min` and, when `max` is given, ≤ `max`.
 * The message states the accepted range the way it was asked for.
 */
export function checkInteger(
  problems: string[],
  field: string,
  value: number,
  min: number,
  max?: number,
): void {
  if (Number.isInteger(value) && value >= min && (max === undefined || value <= max)) return;
  const range = max === undefined ? `≥ ${min}` : `in ${min}–${max}`;
  problems.push(`${field} must be an integer ${range}, got ${String(value)}`);
}
