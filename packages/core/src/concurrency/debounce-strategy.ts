import { sleep } from "../clock/clock.js";
import { dequeueAll, runEntries } from "./drain.js";
import type { LocalHolders } from "./local-holders.js";
import type { LockSession } from "./lock-session.js";
import { LockSession as Session } from "./lock-session.js";
import {
  contendAfterEnqueue,
  enqueueDelivery,
  type HeldWork,
  holdThenRecheck,
} from "./queue-turns.js";
import type { Strategy, StrategyContext } from "./strategy.js";

/** The State key holding the time of the latest arrival on a lock key, shared by instances. */
export function arrivalKey(lockKey: string): string {
  return `debounce-arrival:${lockKey}`;
}

/**
 * `debounce`: a trailing-edge quiet period. The handler runs `debounceMs` after the LAST message
 * (but no later than `maxWaitMs` after the period began), with the earlier messages of each
 * thread as `context.skipped`. Messages that arrive while the handler runs start the next quiet
 * period, and run after it without a new webhook.
 */
export function createDebounceStrategy(context: StrategyContext, holders: LocalHolders): Strategy {
  const quietThenRun: HeldWork = (session) => debounceRounds(context, session);
  return {
    name: "debounce",
    async submit(delivery) {
      if (!(await enqueueDelivery(context, delivery))) return;
      await markArrival(context, delivery.lockKey);
      context.logger.debug("message-debouncing", {
        deliveryKey: delivery.key,
        debounceMs: context.settings.debounceMs,
      });
      await contendAfterEnqueue(context, holders, delivery, quietThenRun);
    },
    async drainOrphan(lockKey) {
      const session = await Session.acquire(context, holders, lockKey);
      if (session) await holdThenRecheck(context, holders, session, quietThenRun);
    },
  };
}

async function markArrival(context: StrategyContext, lockKey: string): Promise<void> {
  const { debounceMs, maxWaitMs } = context.settings;
  try {
    await context.state.set(arrivalKey(lockKey), context.clock.now(), maxWaitMs + debounceMs);
  } catch (error) {
    // The message is queued; without the mark the holder simply ends the quiet period earlier.
    context.logger.warn("recording a debounce arrival failed", { lockKey, error });
  }
}

async function debounceRounds(context: StrategyContext, session: LockSession): Promise<void> {
  const lockKey = session.lock.key;
  while (session.usable) {
    if (!(await waitForQuiet(context, session))) return;
    session.noteQueueLook();
    const entries = await dequeueAll(context, lockKey, session);
    if (entries.length === 0) return;
    await runEntries(context, session, lockKey, entries);
    if ((await context.state.queueDepth(lockKey)) === 0) return;
  }
}

/** Waits until `debounceMs` passed since the latest arrival, bounded by `maxWaitMs`. */
async function waitForQuiet(context: StrategyContext, session: LockSession): Promise<boolean> {
  const { debounceMs, maxWaitMs } = context.settings;
  const periodStartMs = context.clock.now();
  for (;;) {
    const lastArrivalMs = (await context.state.get<number>(arrivalKey(session.lock.key))) ?? 0;
    const quietAtMs = Math.max(lastArrivalMs, periodStartMs - debounceMs) + debounceMs;
    const deadlineMs = Math.min(quietAtMs, periodStartMs + maxWaitMs);
    const waitMs = deadlineMs - context.clock.now();
    if (waitMs <= 0) return true;
    try {
      await sleep(context.clock, waitMs, session.runSignal);
    } catch {
      return false;
    }
  }
}
