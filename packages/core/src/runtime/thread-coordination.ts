import { systemClock } from "../clock/clock.js";
import type { Adapter } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import {
  assertHoldOptions,
  type HoldHandle,
  type HoldOptions,
  holdHandleOf,
} from "../coordination/hold.js";
import { type OnceOptions, type OnceResult, type OnceWork, runOnce } from "../coordination/once.js";
import { resolveLockKey } from "../dispatch/message-dispatcher.js";

/** What a thread handle needs for `once` and `hold`; a `Chat` provides its own. */
export interface ThreadCoordination {
  /** Runs `work` once under the claim `key` (already namespaced). */
  once<T>(key: string, work: OnceWork<T>, options: OnceOptions): Promise<OnceResult<T>>;
  /** Takes a hold on the lock key of `threadId`, or `null` when it is busy. */
  hold(adapter: Adapter, threadId: string, options: HoldOptions): Promise<HoldHandle | null>;
}

/**
 * The coordination of a thread handle built outside a `Chat` (tests, tools): the system clock,
 * and the lock key from the adapter's `lockScope` (else `"thread"`), with no handler run to
 * adopt a lock from.
 */
export function standaloneThreadCoordination(
  state: StateAdapter,
  logger: Logger,
): ThreadCoordination {
  return {
    once: (key, work, options) =>
      runOnce({ state, clock: systemClock, logger }, key, work, options),
    async hold(adapter, threadId, options) {
      assertHoldOptions(options, `hold ${threadId}`);
      const lockKey = await resolveLockKey(undefined, adapter, threadId);
      const lock = await state.acquireLock(lockKey, options.ttlMs);
      return lock ? holdHandleOf(lock, threadId, options.owner) : null;
    },
  };
}
