import { sleep } from "../clock/clock.js";
import { drainQueue } from "./drain.js";
import type { LocalHolders } from "./local-holders.js";
import { LockSession } from "./lock-session.js";
import {
  contendAfterEnqueue,
  enqueueDelivery,
  type HeldWork,
  holdThenRecheck,
  orphanDrainer,
} from "./queue-turns.js";
import type { Strategy, StrategyContext } from "./strategy.js";

/**
 * `burst` (upstream semantics): the first message of a burst opens a window of `debounceMs`;
 * when it closes the queue is drained like `queue` — the latest message of each thread runs with
 * the rest of the burst as `context.skipped`. Messages arriving while a handler runs are drained
 * after it without another window.
 */
export function createBurstStrategy(context: StrategyContext, holders: LocalHolders): Strategy {
  const windowThenDrain: HeldWork = async (session) => {
    try {
      await sleep(context.clock, context.settings.debounceMs, session.runSignal);
    } catch {
      return;
    }
    await drainQueue(context, session, session.lock.key);
  };
  return {
    name: "burst",
    async submit(delivery) {
      if (!(await enqueueDelivery(context, delivery))) return;
      await contendAfterEnqueue(context, holders, delivery, windowThenDrain);
    },
    drainOrphan: orphanDrainer(context, holders),
  };
}
