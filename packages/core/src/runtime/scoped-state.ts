import type { StateAdapter } from "../contracts/state.js";
import { ValidationError } from "../errors/index.js";
import type { JsonValue } from "../model/json.js";

/** How long thread and channel state lives after its last write: 30 days, upstream's value. */
export const THREAD_STATE_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Options of `setState`. */
export interface SetStateOptions {
  /** Replace the whole stored object instead of merging into it. Default false. */
  replace?: boolean;
}

/**
 * The user state of one thread or channel: one JSON object stored under `key`. Merges go through
 * the State's atomic `mergeObject`, so concurrent `update` calls lose no key (upstream reads,
 * merges in memory and writes back, which loses keys under concurrency). Every write sets the
 * TTL again, so state lives {@link THREAD_STATE_TTL_MS} after its last write.
 */
export class ScopedState<TState> {
  constructor(
    private readonly state: StateAdapter,
    /** The State key, e.g. `thread-state:slack:C1:1700.1`. */
    readonly key: string,
    private readonly ttlMs: number = THREAD_STATE_TTL_MS,
  ) {}

  /** The stored object, or `null` when nothing was stored or it expired. */
  async get(): Promise<TState | null> {
    return (await this.state.get(this.key)) as TState | null;
  }

  /**
   * Merges `partial` into the stored object (an absent one counts as `{}`), or replaces it with
   * `replace: true`. Fields whose value is `undefined` are left out, as JSON leaves them out, so
   * every backend stores the same thing; remove a field with `replace: true`. Throws a
   * `ValidationError` prefixed with `step` when `partial` is not a plain object.
   */
  async update(
    partial: Partial<TState>,
    options: SetStateOptions | undefined,
    step: string,
  ): Promise<void> {
    const patch = toJsonObject(partial, step);
    if (options?.replace === true) {
      await this.state.set(this.key, patch, this.ttlMs);
    } else {
      await this.state.mergeObject(this.key, patch, this.ttlMs);
    }
  }
}

function toJsonObject(value: unknown, step: string): { [field: string]: JsonValue } {
  const prototype =
    typeof value === "object" && value !== null ? Object.getPrototypeOf(value) : undefined;
  if (Array.isArray(value) || (prototype !== Object.prototype && prototype !== null)) {
    throw new ValidationError("state must be a plain object", { step });
  }
  const patch: { [field: string]: JsonValue } = {};
  for (const [field, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    if (fieldValue !== undefined) patch[field] = fieldValue as JsonValue;
  }
  return patch;
}
