/**
 * Collects configuration problems and warnings while a config is checked, so every problem is
 * reported in one `ConfigError` instead of one per restart.
 */
export class ConfigProblems {
  readonly problems: string[] = [];
  readonly warnings: string[] = [];

  /** Records a problem of the option at `path` (`concurrency.debounceMs`). */
  add(path: string, problem: string): void {
    this.problems.push(`${path}: ${problem}`);
  }

  /** Records a warning of the option at `path`. */
  warn(path: string, warning: string): void {
    this.warnings.push(`${path}: ${warning}`);
  }

  /**
   * Checks that `value` is a positive finite number of milliseconds; records a problem and
   * returns `undefined` when it is not, so dependent checks can skip it.
   */
  durationMs(path: string, value: unknown): number | undefined {
    if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
    this.add(
      path,
      `must be a positive, finite number of milliseconds, got ${describeValue(value)}`,
    );
    return undefined;
  }

  /** Checks that `value` is an integer ≥ 1; records a problem and returns `undefined` otherwise. */
  positiveInteger(path: string, value: unknown): number | undefined {
    if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
    this.add(path, `must be an integer ≥ 1, got ${describeValue(value)}`);
    return undefined;
  }

  /** Records a problem unless `value` is one of `allowed`; returns it when it is. */
  oneOf<T extends string>(path: string, value: unknown, allowed: readonly T[]): T | undefined {
    if (typeof value === "string" && (allowed as readonly string[]).includes(value)) {
      return value as T;
    }
    this.add(path, `must be ${listChoices(allowed)}, got ${describeValue(value)}`);
    return undefined;
  }
}

/**
 * A short, unambiguous rendering of a config value for a problem message: strings quoted,
 * special numbers spelled out, objects and functions named rather than dumped (they may hold
 * secrets, such as an adapter's token).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (Object.is(value, -0)) return "-0";
    return String(value);
  }
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  if (Array.isArray(value)) return "an array";
  return "an object";
}

/** `"a", "b" or "c"` — the allowed values, quoted, for a problem message. */
export function listChoices(choices: readonly string[]): string {
  const quoted = choices.map((choice) => JSON.stringify(choice));
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** True for `{}`-style objects: not null, not an array, not a class instance like a Date. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The known name closest to `name` when it looks like a typo of it (edit distance at most 2, or
 * the same letters ignoring case), else `undefined`.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance =
      candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= 2 ? best : undefined;
}

function editDistance(a: string, b: string): number {
  // One row of the Levenshtein table is enough; option names are short.
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
