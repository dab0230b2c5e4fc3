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
 *
 * No lost wake-up: the holder looks at the queue after its release ({@link holdThenRecheck}) and
 * takes the lock again for anything it finds. When the State's `releaseAndNext` makes that look
 * part of the release itself, the holder does not also dequeue before releasing, unless a
 * contender of this process noted an arrival ({@link LocalHolders.noteArrival}): an uncontended
 * message then costs the State two calls, accept and release.
 */
export function createQueueStrategy(context: StrategyContext, holders: LocalHolders): Strategy {
  // Read per run, not once: the State's methods are what they are when the release happens.
  const releaseLooks = () => context.state.releaseAndNext !== undefined;
  const drain: HeldWork = (session) => {
    const lockKey = session.lock.key;
    return drainQueue(
      context,
      session,
      lockKey,
      releaseLooks() ? () => holders.takeArrival(lockKey) : undefined,
    );
  };
  return {
    name: "queue",
    async submit(delivery) {
      const session = await LockSession.forDelivery(context, holders, delivery);
      if (session) {
        await holdThenRecheck(context, holders, session, async (held) => {
          if (held === session) {
            await runSingle(context, held, delivery);
            if (releaseLooks() && !holders.takeArrival(held.lock.key)) return;
          }
          await drain(held);
        });
        return;
      }
      if (await passHold(context, delivery)) return;
      if (!(await enqueueDelivery(context, delivery))) return;
      holders.noteArrival(delivery.lockKey);
      await contendAfterEnqueue(context, holders, delivery, drain);
    },
    drainOrphan: orphanDrainer(context, holders),
  };
}
