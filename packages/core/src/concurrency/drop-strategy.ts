import { LockError } from "../errors/index.js";
import { passHold } from "./holder-pass.js";
import type { LocalHolders } from "./local-holders.js";
import { LockSession } from "./lock-session.js";
import { orphanDrainer } from "./queue-turns.js";
import { runSingle } from "./run-single.js";
import type { Strategy, StrategyContext } from "./strategy.js";

/**
 * `drop`: a message whose lock is held is dropped — logged with a `LockError` and settled
 * `dropped-lock-conflict` — and nothing runs for it.
 */
export function createDropStrategy(context: StrategyContext, holders: LocalHolders): Strategy {
  return {
    name: "drop",
    // Only messages parked at shutdown ever wait in a queue under `drop`.
    drainOrphan: orphanDrainer(context, holders),
    async submit(delivery) {
      const session = await LockSession.forDelivery(context, holders, delivery);
      if (!session) {
        if (await passHold(context, delivery)) return;
        const error = new LockError(`lock ${delivery.lockKey} is held by another handler`, {
          step: "acquire thread lock",
        });
        context.logger.warn("message-dropped", { deliveryKey: delivery.key, error });
        await context.onLockConflict?.(delivery);
        context.settle(delivery.key, "dropped-lock-conflict", "lock held");
        return;
      }
      try {
        await runSingle(context, session, delivery);
      } finally {
        await session.release();
      }
    },
  };
}
