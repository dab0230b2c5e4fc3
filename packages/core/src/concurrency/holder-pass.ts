import { notRun } from "./drain.js";
import { currentHold } from "./hold-records.js";
import type { Strategy, StrategyContext } from "./strategy.js";

/**
 * Lets a hold's owner through their own hold (docs/coordination.md, "The holder's messages"):
 * a message whose author's user id is the `owner` of the hold now on its lock key, taken with
 * `ownerPasses: true`, runs its
 * handlers at once, without the lock — as under `concurrent` — instead of waiting in the queue
 * behind the hold. Everyone else's messages go to `strategy` unchanged. The check costs one
 * State read per message (plus one lock inspection when a hold record exists); under
 * `concurrent` nothing waits for a hold, so nothing is checked.
 */
export function passHolderThrough(context: StrategyContext, strategy: Strategy): Strategy {
  if (strategy.name === "concurrent") return strategy;
  const passed: Strategy = {
    name: strategy.name,
    async submit(delivery) {
      const hold = await currentHold(context.state, delivery.lockKey);
      if (hold?.ownerPasses !== true || hold.owner !== delivery.message.author.userId) {
        return strategy.submit(delivery);
      }
      context.logger.debug("message-passes-hold", {
        deliveryKey: delivery.key,
        fence: hold.fence,
      });
      const outcome = await context.runBatch(
        {
          lockKey: delivery.lockKey,
          adapter: delivery.adapter,
          threadId: delivery.threadId,
          message: delivery.message,
          skipped: [],
          tenant: delivery.tenant,
        },
        { signal: context.shutdownSignal },
      );
      if (outcome === "not-run") await notRun(context, delivery.key);
      else context.settle(delivery.key, outcome);
    },
  };
  return strategy.drainOrphan ? { ...passed, drainOrphan: strategy.drainOrphan } : passed;
}
