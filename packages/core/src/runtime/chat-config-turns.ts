import type { DurableTurnSettings, StrategyName } from "../concurrency/strategy.js";
import { type ConfigProblems, describeValue } from "./config-problems.js";
import { checkKnownKeys } from "./known-keys.js";

/**
 * The `durableTurns` option (DESIGN §6.1): a handler run interrupted by a crash, a shutdown or a
 * lost lease is run again by another instance, up to `maxAttempts` runs in all.
 */
export interface DurableTurnsOptions {
  /**
   * Runs of one turn at most, the first included. A turn interrupted that many times (a poison
   * turn, e.g. its handler crashes the process) ends `abandoned` and `onTurnAbandoned` runs.
   * An integer from 1 to 100; default 3. 1 keeps the records, so a turn is never lost without a
   * disposition, but never runs a handler twice.
   */
  maxAttempts?: number;
}

/** Runs of one turn when `durableTurns.maxAttempts` is not given (ADR 0031). */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** More runs than this cannot be a deliberate policy; it would hide a poison turn for hours. */
const MAX_MAX_ATTEMPTS = 100;

const TURN_KEYS = ["maxAttempts"] as const;

/**
 * Checks `durableTurns`: absent → on with the defaults when the State keeps turn records (off,
 * with a warning, when it does not); `false` → off (`null`); an object → on, and then the State
 * must keep turn records. Problems and warnings go to `found`.
 */
export function resolveDurableTurns(
  found: ConfigProblems,
  value: unknown,
  state: unknown,
  strategy: StrategyName,
): DurableTurnSettings | null {
  if (value === false) return null;
  const supported = keepsTurnRecords(state);
  if (value === undefined) {
    if (supported) return DEFAULT_TURNS;
    if (state !== undefined && state !== null && strategy !== "concurrent") {
      found.warn(
        "durableTurns",
        `the State backend ${describeValue(stateName(state))} keeps no turn records (no recoverTurn), so a handler run interrupted by a crash or a shutdown is not run again; use a Baton backend, or set durableTurns: false to silence this`,
      );
    }
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    found.add(
      "durableTurns",
      `must be false or an object { maxAttempts? }, got ${describeValue(value)}`,
    );
    return null;
  }
  checkKnownKeys(found, "durableTurns", value, TURN_KEYS);
  const given = value as DurableTurnsOptions;
  let maxAttempts = DEFAULT_MAX_ATTEMPTS;
  if (given.maxAttempts !== undefined) {
    const checked = found.positiveInteger("durableTurns.maxAttempts", given.maxAttempts);
    if (checked !== undefined && checked > MAX_MAX_ATTEMPTS) {
      found.add(
        "durableTurns.maxAttempts",
        `must be at most ${MAX_MAX_ATTEMPTS}, got ${checked}: a turn that fails that often is a poison turn`,
      );
    } else if (checked !== undefined) maxAttempts = checked;
  }
  if (!supported && state !== undefined && state !== null) {
    found.add(
      "durableTurns",
      `the State backend ${describeValue(stateName(state))} keeps no turn records (no recoverTurn); use @baton/state-memory, -redis or -pg, or set durableTurns: false`,
    );
    return null;
  }
  if (strategy === "concurrent") {
    found.warn("durableTurns", "has no effect under the concurrent strategy, which holds no lock");
  }
  return Object.freeze({ maxAttempts });
}

const DEFAULT_TURNS: DurableTurnSettings = Object.freeze({ maxAttempts: DEFAULT_MAX_ATTEMPTS });

function keepsTurnRecords(state: unknown): boolean {
  return (
    typeof state === "object" &&
    state !== null &&
    typeof (state as { recoverTurn?: unknown }).recoverTurn === "function"
  );
}

function stateName(state: unknown): unknown {
  return typeof state === "object" && state !== null ? (state as { name?: unknown }).name : state;
}
