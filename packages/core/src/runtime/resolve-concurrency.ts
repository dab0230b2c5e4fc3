import { STRATEGY_NAMES } from "../concurrency/strategy.js";
import type { ConcurrencyOptions, ResolvedConcurrency, StrategyName } from "./chat-config-types.js";
import { type ConfigProblems, describeValue, isPlainObject } from "./config-problems.js";
import { checkKnownKeys } from "./known-keys.js";

export { STRATEGY_NAMES };

const DEFAULT_LOCK_TTL_MS = 30_000;
const DEFAULT_DEBOUNCE_MS = 1_500;
/** `maxWaitMs` defaults to this many quiet periods, so a chatty thread still gets an answer. */
const MAX_WAIT_DEBOUNCE_FACTOR = 10;
/** Lease keeper cadence (DESIGN §6): extend every TTL/3, so two extends can fail before expiry. */
const EXTEND_FRACTION_OF_TTL = 3;

/**
 * The concurrency settings used when the config gives none: upstream's defaults (strategy
 * `drop`, lock TTL 30 s, `debounceMs` 1 500, `maxQueueSize` 10, `drop-oldest`, `queueEntryTtlMs`
 * 90 000, `maxConcurrent` unbounded) plus Baton's lease settings. The derived fields
 * (`maxWaitMs`, `extendTimeoutMs`, `sweepIntervalMs`) are recomputed from the fields they
 * derive from when those are overridden. Frozen.
 */
export const DEFAULT_CONCURRENCY: ResolvedConcurrency = Object.freeze({
  strategy: "drop",
  lockTtlMs: DEFAULT_LOCK_TTL_MS,
  debounceMs: DEFAULT_DEBOUNCE_MS,
  maxWaitMs: DEFAULT_DEBOUNCE_MS * MAX_WAIT_DEBOUNCE_FACTOR,
  maxQueueSize: 10,
  onQueueFull: "drop-oldest",
  queueEntryTtlMs: 90_000,
  maxConcurrent: Number.POSITIVE_INFINITY,
  maxLockLifetimeMs: 600_000,
  extendTimeoutMs: DEFAULT_LOCK_TTL_MS / EXTEND_FRACTION_OF_TTL,
  sweepIntervalMs: DEFAULT_LOCK_TTL_MS,
});

const CONCURRENCY_KEYS: readonly (keyof ConcurrencyOptions)[] = Object.keys(
  DEFAULT_CONCURRENCY,
) as (keyof ConcurrencyOptions)[];

/** The independent durations: checked alone, defaulted from {@link DEFAULT_CONCURRENCY}. */
const BASE_DURATIONS = [
  "lockTtlMs",
  "debounceMs",
  "queueEntryTtlMs",
  "maxLockLifetimeMs",
] as const satisfies readonly (keyof ConcurrencyOptions)[];

/**
 * Checks the `concurrency` option and fills every default. Problems and warnings go to `found`;
 * when there are problems the returned value is a best effort that must not be used.
 */
export function resolveConcurrency(found: ConfigProblems, value: unknown): ResolvedConcurrency {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (typeof value === "string") {
    const strategy = checkStrategy(found, "concurrency", value);
    return Object.freeze({ ...DEFAULT_CONCURRENCY, strategy });
  }
  if (!isPlainObject(value)) {
    found.add(
      "concurrency",
      `must be a strategy name or an object { strategy, … }, got ${describeValue(value)}`,
    );
    return DEFAULT_CONCURRENCY;
  }
  checkKnownKeys(found, "concurrency", value, CONCURRENCY_KEYS);
  const options = value as Partial<Record<keyof ConcurrencyOptions, unknown>>;
  const strategy = checkStrategy(found, "concurrency.strategy", options.strategy);

  const base = { ...DEFAULT_CONCURRENCY } as {
    -readonly [K in keyof ResolvedConcurrency]: ResolvedConcurrency[K];
  };
  base.strategy = strategy;
  // Fields given but invalid; a relation involving one of them is not checked, since its
  // problem is already reported and comparing against a default would only add noise.
  const invalid = new Set<keyof ConcurrencyOptions>();
  for (const field of BASE_DURATIONS) {
    if (options[field] === undefined) continue;
    const checked = found.durationMs(`concurrency.${field}`, options[field]);
    if (checked === undefined) invalid.add(field);
    else base[field] = checked;
  }
  base.maxWaitMs = base.debounceMs * MAX_WAIT_DEBOUNCE_FACTOR;
  base.extendTimeoutMs = base.lockTtlMs / EXTEND_FRACTION_OF_TTL;
  base.sweepIntervalMs = base.lockTtlMs;
  for (const field of ["maxWaitMs", "extendTimeoutMs", "sweepIntervalMs"] as const) {
    if (options[field] === undefined) continue;
    const checked = found.durationMs(`concurrency.${field}`, options[field]);
    if (checked === undefined) invalid.add(field);
    else base[field] = checked;
  }

  if (options.maxQueueSize !== undefined) {
    const size = found.positiveInteger("concurrency.maxQueueSize", options.maxQueueSize);
    if (size !== undefined) base.maxQueueSize = size;
  }
  if (options.onQueueFull !== undefined) {
    const policy = found.oneOf("concurrency.onQueueFull", options.onQueueFull, [
      "drop-oldest",
      "drop-newest",
    ] as const);
    if (policy !== undefined) base.onQueueFull = policy;
  }
  if (options.maxConcurrent !== undefined) {
    const max = checkMaxConcurrent(found, options.maxConcurrent);
    if (max !== undefined) base.maxConcurrent = max;
    if (strategy !== "concurrent") {
      found.warn(
        "concurrency.maxConcurrent",
        `has no effect with strategy ${JSON.stringify(strategy)}; it only applies to "concurrent"`,
      );
    }
  }
  checkRelations(found, base, options, invalid);
  return Object.freeze(base);
}

function checkStrategy(found: ConfigProblems, path: string, value: unknown): StrategyName {
  const allowed = `use ${STRATEGY_NAMES.slice(0, -1).join(", ")} or ${STRATEGY_NAMES.at(-1)}`;
  if (value === undefined) {
    found.add(path, `required (${allowed})`);
  } else if (typeof value !== "string") {
    found.add(path, `must be a strategy name, got ${describeValue(value)} (${allowed})`);
  } else if (!(STRATEGY_NAMES as readonly string[]).includes(value)) {
    found.add(path, `unknown strategy ${JSON.stringify(value)} (${allowed})`);
  } else {
    return value as StrategyName;
  }
  return DEFAULT_CONCURRENCY.strategy;
}

function checkMaxConcurrent(found: ConfigProblems, value: unknown): number | undefined {
  // Infinity is the documented "no cap" value, so it is the one non-integer accepted.
  if (value === Number.POSITIVE_INFINITY) return value;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  found.add(
    "concurrency.maxConcurrent",
    `must be an integer ≥ 1, or Infinity for no cap, got ${describeValue(value)}`,
  );
  return undefined;
}

/**
 * Checks between fields. A derived default always satisfies its relation, so only a value the
 * user gave is checked, and only when both sides were valid on their own.
 */
function checkRelations(
  found: ConfigProblems,
  resolved: ResolvedConcurrency,
  given: Partial<Record<keyof ConcurrencyOptions, unknown>>,
  invalid: ReadonlySet<keyof ConcurrencyOptions>,
): void {
  const usable = (field: keyof ConcurrencyOptions) =>
    given[field] !== undefined && !invalid.has(field);
  const comparable = (field: keyof ConcurrencyOptions) => !invalid.has(field);
  if (usable("maxWaitMs") && comparable("debounceMs") && resolved.maxWaitMs < resolved.debounceMs) {
    found.add(
      "concurrency.maxWaitMs",
      `must be ≥ concurrency.debounceMs (${resolved.debounceMs}), since it bounds how far the ` +
        `quiet period can be pushed back, got ${resolved.maxWaitMs}`,
    );
  }
  if (
    usable("extendTimeoutMs") &&
    comparable("lockTtlMs") &&
    resolved.extendTimeoutMs >= resolved.lockTtlMs
  ) {
    found.add(
      "concurrency.extendTimeoutMs",
      `must be less than concurrency.lockTtlMs (${resolved.lockTtlMs}), so a hung extend is ` +
        `noticed before the lock expires, got ${resolved.extendTimeoutMs}`,
    );
  }
}
