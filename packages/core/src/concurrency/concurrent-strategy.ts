import type { LocalHolders } from "./local-holders.js";
import { orphanDrainer, parkForAnotherInstance } from "./queue-turns.js";
import { NotRunError } from "./state-retry.js";
import type { Strategy, StrategyContext } from "./strategy.js";

interface ThreadSlots {
  running: number;
  /** Deliveries waiting for a slot, first come first served. */
  waiting: Array<() => void>;
}

/**
 * `concurrent`: no lock. At most `maxConcurrent` handlers run per thread at once (in this
 * process); more wait for a slot in arrival order. Idle threads leave no entry behind.
 */
export function createConcurrentStrategy(
  context: StrategyContext,
  holders: LocalHolders,
): Strategy {
  const slotsByThread = new Map<string, ThreadSlots>();
  const { maxConcurrent } = context.settings;

  async function takeSlot(threadId: string): Promise<void> {
    const slots = slotsByThread.get(threadId) ?? { running: 0, waiting: [] };
    slotsByThread.set(threadId, slots);
    if (slots.running < maxConcurrent) {
      slots.running += 1;
      return;
    }
    await new Promise<void>((resolve) => slots.waiting.push(resolve));
  }

  function giveSlot(threadId: string): void {
    const slots = slotsByThread.get(threadId);
    if (!slots) return;
    const next = slots.waiting.shift();
    if (next) {
      next();
      return;
    }
    slots.running -= 1;
    if (slots.running === 0) slotsByThread.delete(threadId);
  }

  return {
    name: "concurrent",
    // Only messages parked at shutdown ever wait in a queue under `concurrent`.
    drainOrphan: orphanDrainer(context, holders),
    async submit(delivery) {
      await takeSlot(delivery.threadId);
      try {
        if (context.shutdownSignal.aborted) {
          await parkForAnotherInstance(context, delivery);
          return;
        }
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
      } finally {
        giveSlot(delivery.threadId);
      }
    },
  };
}
