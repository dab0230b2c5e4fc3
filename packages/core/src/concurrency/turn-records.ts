import type { QueueEntry } from "../contracts/state.js";
import type { ThreadBatch } from "./batches.js";
import type { LockSession } from "./lock-session.js";
import type { StrategyContext } from "./strategy.js";

/** The reason recorded for the messages of a turn handed back to the State. */
export const HANDED_BACK = "turn handed back for another instance";

/**
 * Batches of a turn that will not run here: the session hands the turn back (its record keeps
 * them) and each message is settled as handed off — another instance runs it.
 */
export function handBackBatches(
  context: StrategyContext,
  session: LockSession,
  batches: readonly ThreadBatch[],
): void {
  session.handBack(session.interruptReason());
  for (const batch of batches) {
    for (const entry of [...batch.skipped, batch.latest]) {
      context.settle(entry.deliveryKey, "queued", HANDED_BACK);
    }
  }
}

/**
 * Narrows the turn record to the batches still to run, so a recovery does not run again a batch
 * that already ended. One State call, only for a round of several threads (channel scope).
 * Best effort: if it fails, a recovery would repeat ended batches, which at-least-once allows.
 */
export async function narrowTurn(
  context: StrategyContext,
  session: LockSession,
  rest: readonly ThreadBatch[],
  rawByKey: ReadonlyMap<string, QueueEntry>,
): Promise<void> {
  const write = context.state.writeTurn;
  if (!write) return;
  const entries: QueueEntry[] = [];
  for (const batch of rest) {
    for (const entry of [...batch.skipped, batch.latest]) {
      const raw = rawByKey.get(entry.deliveryKey);
      if (raw) entries.push(raw);
    }
  }
  try {
    await write.call(context.state, session.lock, { entries, startedAt: context.clock.now() });
  } catch (error) {
    context.logger.warn("narrowing the turn record failed; a recovery may repeat ended runs", {
      lockKey: session.lock.key,
      error,
    });
  }
}

/**
 * A `takeQueuedTurn` failed: the State may still have moved entries into the record before its
 * answer was lost, and ending the turn at the release would then delete them. The record tells:
 * the take's own `startedAt` under this lock's fence means it happened, and the turn is handed
 * back so a sweeper runs those entries. A record that cannot be read is handed back too — at worst
 * the previous, finished turn runs again (at-least-once), never a loss.
 */
export async function afterFailedTake(
  context: StrategyContext,
  session: LockSession,
  startedAt: number,
): Promise<void> {
  try {
    const record = await context.state.inspectTurn?.(session.lock.key);
    const applied = record?.fence === session.lock.fence && record.startedAt === startedAt;
    if (!applied) return;
  } catch (error) {
    context.logger.warn("reading the turn record after a failed take failed; handing it back", {
      lockKey: session.lock.key,
      error,
    });
  }
  session.handBack("lease-lost");
}
