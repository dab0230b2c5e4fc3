import { currentHold } from "./hold-records.js";
import { NotRunError } from "./state-retry.js";
import type { Delivery, Strategy, StrategyContext } from "./strategy.js";

/**
 * Lets a hold's owner through their own hold (docs/coordination.md, "The holder's messages"):
 * when the hold now on the delivery's lock key was taken with `ownerPasses: true` and the
 * message's author id is its `owner`, the handlers run at once, without the lock — as under
 * `concurrent` — and this resolves true; otherwise it does nothing and resolves false. `queue`
 * and `drop` call it only after their lock attempt failed, so an uncontended message never pays
 * for it. Rejects with {@link NotRunError} when the State failed before the handlers ran.
 */
export async function passHold(context: StrategyContext, delivery: Delivery): Promise<boolean> {
  const hold = await currentHold(context.state, delivery.lockKey);
  if (hold?.ownerPasses !== true || hold.owner !== delivery.message.author.userId) return false;
  context.logger.debug("message-passes-hold", { deliveryKey: delivery.key, fence: hold.fence });
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
  if (outcome === "not-run") throw new NotRunError(delivery.key);
  context.settle(delivery.key, outcome);
  return true;
}

/**
 * `debounce` and `burst` enqueue every message before they try the lock, so they check
 * {@link passHold} first: one State read per message (plus a lock inspection when a hold record
 * exists). `queue` and `drop` check it themselves on their contended path; `concurrent` never
 * waits for a hold. Other strategies are returned unchanged.
 */
export function passHolderThrough(context: StrategyContext, strategy: Strategy): Strategy {
  if (strategy.name !== "debounce" && strategy.name !== "burst") return strategy;
  const passed: Strategy = {
    name: strategy.name,
    async submit(delivery) {
      if (await passHold(context, delivery)) return;
      await strategy.submit(delivery);
    },
  };
  return strategy.drainOrphan ? { ...passed, drainOrphan: strategy.drainOrphan } : passed;
}
