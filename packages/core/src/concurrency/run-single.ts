import { dispositionOf } from "./drain.js";
import type { LockSession } from "./lock-session.js";
import { parkForAnotherInstance } from "./queue-turns.js";
import { NotRunError } from "./state-retry.js";
import type { Delivery, StrategyContext } from "./strategy.js";
import { HANDED_BACK } from "./turn-records.js";

/**
 * Runs the handlers for one delivery on its own, under `session`, and settles it. Rejects with
 * {@link NotRunError} when the State failed before any handler ran: the dispatcher retries or
 * settles it. (Not an async function: one promise per run instead of two, on every message.)
 */
export function runSingle(
  context: StrategyContext,
  session: LockSession,
  delivery: Delivery,
): Promise<void> {
  if (context.shutdownSignal.aborted) return parkForAnotherInstance(context, delivery);
  session.beginRun();
  const running = context.runBatch(
    {
      lockKey: delivery.lockKey,
      adapter: delivery.adapter,
      threadId: delivery.threadId,
      message: delivery.message,
      skipped: [],
      tenant: delivery.tenant,
      // Read atomically with this very lock by the fused accept: no second read needed.
      ...(delivery.fused?.kind === "acquired" && delivery.fused.lock.token === session.lock.token
        ? { subscribed: delivery.fused.subscribed }
        : {}),
    },
    session.batchRun,
  );
  return running.then((outcome) => {
    if (outcome === "not-run") throw new NotRunError(delivery.key);
    const disposition = dispositionOf(outcome, session);
    context.settle(delivery.key, disposition, disposition === "queued" ? HANDED_BACK : undefined);
  });
}
