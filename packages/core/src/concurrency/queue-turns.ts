import { drainQueue } from "./drain.js";
import type { LocalHolders } from "./local-holders.js";
import { LockSession } from "./lock-session.js";
import { deliveryKeyOf, toQueueEntry } from "./queued-message.js";
import type { Delivery, StrategyContext } from "./strategy.js";

/** Work done while holding a lock: a drain, or a quiet period followed by a drain. */
export type HeldWork = (session: LockSession) => Promise<void>;

/** How many times a contender retries when the lock changes hands under it. */
const CONTENDER_ATTEMPTS = 3;

/**
 * Runs `work` under `session`, releases, and then re-checks the queue: an entry enqueued between
 * the holder's last look at the queue (an empty dequeue, or none at all when the release is the
 * State's `releaseAndNext`) and the release would otherwise wait with no holder (the lost
 * wake-up). If the queue is not empty the lock is taken again and `work` runs again.
 *
 * When the last local turn on the key ends, the local deliveries still waiting on it are settled
 * ({@link settleStranded}): their entries left the queue without this process draining them.
 */
export async function holdThenRecheck(
  context: StrategyContext,
  holders: LocalHolders,
  session: LockSession,
  work: HeldWork,
): Promise<void> {
  const lockKey = session.lock.key;
  let lapsed = false;
  holders.enterTurns(lockKey);
  try {
    let current: LockSession | null = session;
    while (current) {
      let failed = true;
      try {
        await work(current);
        failed = false;
      } finally {
        // Read before the release: afterwards the keeper is stopped and says nothing more.
        lapsed ||= !current.held || current.adopted;
        await current.release();
        // The work failed (e.g. the State went away mid-drain), so the re-check below is skipped:
        // hand off the local contenders still waiting on this key, or they are never answered.
        if (failed && !holders.has(lockKey)) context.handOff(lockKey);
      }
      current = await reacquireIfPending(context, holders, lockKey, current.queuedAfterRelease);
    }
  } finally {
    const turns = holders.exitTurns(lockKey, lapsed);
    if (turns.done) settleStranded(context, lockKey, turns.lapsed, turns.lastLookStamp);
  }
}

/**
 * Settles the local deliveries of `lockKey` still waiting for a holder of this process, once the
 * last local turn on the key has ended: their entries left the queue, and this process did not
 * drain them. One that waited since before the turns' last look at the queue under the lock
 * (`lastLookStamp`), with the lease held throughout, was not found by that look, and no other
 * process could drain the queue meanwhile: another instance's enqueue evicted it (`drop-oldest`)
 * and recorded it `preempted`, so the waiter gets the same disposition. For any other — a lease
 * lapsed, or it began waiting after that look — another holder may have drained its entry after
 * the release: it is handed off, as one queued behind another instance's holder is.
 */
function settleStranded(
  context: StrategyContext,
  lockKey: string,
  lapsed: boolean,
  lastLookStamp: number | undefined,
): void {
  if (!lapsed && lastLookStamp !== undefined) {
    context.settleWaiting(lockKey, "preempted", EVICTED_REASON, lastLookStamp);
  }
  context.settleWaiting(lockKey, "queued", "held by another instance");
}

/** The reason of a delivery evicted from a full queue by a newer message (`drop-oldest`). */
const EVICTED_REASON = "queue full (drop-oldest)";

async function reacquireIfPending(
  context: StrategyContext,
  holders: LocalHolders,
  lockKey: string,
  queuedAfterRelease: boolean | undefined,
): Promise<LockSession | null> {
  if (context.shutdownSignal.aborted) {
    context.handOff(lockKey);
    return null;
  }
  try {
    // The fused release already looked at the queue atomically with the release: no second read.
    const pending = queuedAfterRelease ?? (await context.state.queueDepth(lockKey)) > 0;
    if (!pending) return null;
    const next = await LockSession.acquire(context, holders, lockKey);
    if (!next && !holders.has(lockKey)) context.handOff(lockKey);
    return next;
  } catch (error) {
    context.logger.warn("re-check of the queue after release failed; the sweeper will drain it", {
      lockKey,
      error,
    });
    context.handOff(lockKey);
    return null;
  }
}

/**
 * Puts a contender's message in the State queue. Returns false when the queue refused it
 * (`drop-newest` on a full queue); entries evicted to make room are settled `preempted`.
 * Rejects when the State fails: nothing was queued.
 */
export async function enqueueDelivery(
  context: StrategyContext,
  delivery: Delivery,
): Promise<boolean> {
  const { maxQueueSize, onQueueFull, queueEntryTtlMs } = context.settings;
  // Behind a hold the entry lives longer: the drain judges that from the hold's record, so the
  // uncontended path pays nothing for it.
  const entry = toQueueEntry(delivery, context.clock.now(), queueEntryTtlMs);
  const result = await context.state.enqueue(delivery.lockKey, entry, {
    maxSize: maxQueueSize,
    onFull: onQueueFull,
  });
  let accepted = true;
  for (const evicted of result.evicted) {
    const key = deliveryKeyOf(evicted) ?? "unknown";
    if (key === delivery.key) accepted = false;
    // drop-oldest: a newer message superseded the evicted head; drop-newest: the new one is refused.
    const event = onQueueFull === "drop-oldest" ? "message-superseded" : "message-dropped";
    context.logger.info(event, { deliveryKey: key, reason: "queue full", onQueueFull });
    context.settle(key, "preempted", `queue full (${onQueueFull})`);
  }
  if (accepted) {
    context.logger.debug("message-queued", { deliveryKey: delivery.key, depth: result.depth });
    context.onQueued?.(delivery);
  }
  return accepted;
}

/**
 * After enqueueing, tries the lock again so a message never waits while no one holds its lock.
 * Becomes the holder (and runs `work`) when the lock is free; leaves the message to a local
 * holder, whose re-check after release guarantees the drain; or hands it off to a holder in
 * another process. Never rejects: the message is safe in the queue whatever happens here.
 */
export async function contendAfterEnqueue(
  context: StrategyContext,
  holders: LocalHolders,
  delivery: Delivery,
  work: HeldWork,
): Promise<void> {
  const { lockKey } = delivery;
  try {
    for (let attempt = 0; attempt < CONTENDER_ATTEMPTS; attempt += 1) {
      const session = await LockSession.acquire(context, holders, lockKey);
      if (session) {
        await holdThenRecheck(context, holders, session, work);
        return;
      }
      if (holders.has(lockKey)) return;
      const info = await context.state.inspectLock(lockKey);
      if (info && !holders.holdsFence(lockKey, info.fence)) break;
    }
  } catch (error) {
    context.logger.warn("lock retry after enqueue failed; the sweeper will drain the queue", {
      lockKey,
      error,
    });
  }
  if (!holders.has(lockKey)) context.settle(delivery.key, "queued", "held by another instance");
}

/**
 * The sweeper's entry point for strategies that drain like `queue`: takes the lock of a queue
 * whose holder is gone and drains it, re-checking after release.
 */
export function orphanDrainer(
  context: StrategyContext,
  holders: LocalHolders,
): (lockKey: string) => Promise<void> {
  return async (lockKey) => {
    const session = await LockSession.acquire(context, holders, lockKey);
    if (!session) return;
    await holdThenRecheck(context, holders, session, (held) =>
      drainQueue(context, held, held.lock.key),
    );
  };
}

/**
 * Shutdown began between acceptance and the handler: no handler may start now, so the message
 * waits in the State queue of its lock key for a sweeper of any instance, settled `queued`.
 * Nothing accepted is lost; if even the queue fails, the dedupe mark goes so a retry is processed.
 */
export async function parkForAnotherInstance(
  context: StrategyContext,
  delivery: Delivery,
): Promise<void> {
  try {
    if (await enqueueDelivery(context, delivery)) {
      context.settle(delivery.key, "queued", "parked at shutdown");
    }
  } catch (error) {
    context.logger.error("parking a message at shutdown failed", { key: delivery.key, error });
    await context.unaccept(delivery.key);
    context.settle(delivery.key, "error", "state failed before the handler");
  }
}
