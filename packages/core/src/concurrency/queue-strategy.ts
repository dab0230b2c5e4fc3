import { drainQueue } from "./drain.js";
import { passHold } from "./holder-pass.js";
import type { LocalHolders } from "./local-holders.js";
import { LockSession } from "./lock-session.js";
import {
  contendAfterEnqueue,
  enqueueDelivery,
  type HeldWork,
  holdThenRecheck,
  orphanDrainer,
} from "./queue-turns.js";
import { runSingle } from "./run-single.js";
import type { Strategy, StrategyContext } from "./strategy.js";

/**
 * `queue`: the first message takes the lock and runs; messages arriving meanwhile wait in the
 * State queue. After each run the holder drains: per thread, the latest queued message runs with
 * the earlier ones as `context.skipped`.
 */
export function createQueueStrategy(context: StrategyContext, holders: LocalHolders): Strategy {
  const drain: HeldWork = (session) => drainQueue(context, session, session.lock.key);
  return {
    name: "queue",
    async submit(delivery) {
      const session = await LockSession.acquire(context, holders, delivery.lockKey, delivery.fused);
      if (session) {
        await holdThenRecheck(context, holders, session, async (held) => {
          if (held === session) await runSingle(context, held, delivery);
          await drain(held);
        });
        return;
      }
      if (await passHold(context, delivery)) return;
      if (!(await enqueueDelivery(context, delivery))) return;
      await contendAfterEnqueue(context, holders, delivery, drain);
    },
    drainOrphan: orphanDrainer(context, holders),
  };
}
