import type { Clock } from "@baton/core";
import { createMemoryState, type MemoryState, type MemoryStateOptions } from "@baton/state-memory";

/** Options of {@link createTestState}. */
export interface TestStateOptions {
  /** The clock that judges every expiry; pass a fake clock. Default: the system clock. */
  clock?: Pick<Clock, "now">;
  /** How often, at most, a write sweeps expired entries out of memory. Default: the backend's. */
  purgeIntervalMs?: number;
}

/**
 * A connected `MemoryState` from `@baton/state-memory`, the reference backend, so tests use the
 * real token-checking, expiry-aware State instead of a second fake. Expiry follows `clock`.
 */
export async function createTestState(options: TestStateOptions = {}): Promise<MemoryState> {
  const memoryOptions: MemoryStateOptions = {};
  if (options.clock) memoryOptions.clock = options.clock;
  if (options.purgeIntervalMs !== undefined)
    memoryOptions.purgeIntervalMs = options.purgeIntervalMs;
  const state = createMemoryState(memoryOptions);
  await state.connect();
  return state;
}
