import { type LockScope, STRATEGY_NAMES, type StrategyName } from "@baton/core";

/** What the page can change while the playground runs. */
export interface PlaygroundSettings {
  strategy: StrategyName;
  lockScope: LockScope;
  /** How long the demo bot "thinks" before answering, in seconds. */
  handlerSeconds: number;
}

/** Baton's own defaults (strategy `drop`, thread scope) and a handler slow enough to overlap. */
export const DEFAULT_SETTINGS: PlaygroundSettings = {
  strategy: "drop",
  lockScope: "thread",
  handlerSeconds: 3,
};

/** The longest handler the page offers; well under the 30 s lock TTL's lifetime limits. */
export const MAX_HANDLER_SECONDS = 60;

const LOCK_SCOPES: readonly LockScope[] = ["thread", "channel"];

/**
 * Merges a partial update from the page into `current`, or lists what is wrong with it. Only
 * the three known fields are accepted, so a typo is an error rather than silently ignored.
 */
export function mergeSettings(
  current: PlaygroundSettings,
  input: unknown,
): { ok: true; settings: PlaygroundSettings } | { ok: false; problems: string[] } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return {
      ok: false,
      problems: ["send a JSON object { strategy?, lockScope?, handlerSeconds? }"],
    };
  }
  const record = input as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (!["strategy", "lockScope", "handlerSeconds"].includes(key))
      problems.push(`unknown setting "${key}"`);
  }
  const next = { ...current };
  if (record.strategy !== undefined) {
    if (STRATEGY_NAMES.includes(record.strategy as StrategyName))
      next.strategy = record.strategy as StrategyName;
    else problems.push(`strategy must be one of ${STRATEGY_NAMES.join(", ")}`);
  }
  if (record.lockScope !== undefined) {
    if (LOCK_SCOPES.includes(record.lockScope as LockScope))
      next.lockScope = record.lockScope as LockScope;
    else problems.push(`lockScope must be "thread" or "channel"`);
  }
  if (record.handlerSeconds !== undefined) {
    const seconds = record.handlerSeconds;
    if (
      typeof seconds === "number" &&
      Number.isFinite(seconds) &&
      seconds >= 0 &&
      seconds <= MAX_HANDLER_SECONDS
    ) {
      next.handlerSeconds = seconds;
    } else {
      problems.push(`handlerSeconds must be a number from 0 to ${MAX_HANDLER_SECONDS}`);
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, settings: next };
}

/** Whether going from `a` to `b` needs a new `Chat` (the handler time is read live). */
export function needsRestart(a: PlaygroundSettings, b: PlaygroundSettings): boolean {
  return a.strategy !== b.strategy || a.lockScope !== b.lockScope;
}
