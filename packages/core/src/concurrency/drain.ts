import type { QueueEntry } from "../contracts/state.js";
import { batchByThread, batchOf, type ThreadBatch } from "./batches.js";
import { latestHold } from "./hold-records.js";
import type { LockSession } from "./lock-session.js";
import { deliveryKeyOf, type RehydratedEntry, rehydrateEntry } from "./queued-message.js";
import { StateRetry } from "./state-retry.js";
import type {
  BatchOutcome,
  DeliveryDisposition,
  StrategyContext,
  TurnAttempt,
} from "./strategy.js";
import { afterFailedTake, HANDED_BACK, handBackBatches, narrowTurn } from "./turn-records.js";

/** The most entries one drain round takes, so a flood cannot keep a round from ending. */
const MAX_ENTRIES_PER_ROUND = 1_000;

/**
 * Takes every entry now in the queue (bounded), oldest first. A State failure before the first
 * entry rejects; one after it ends the round with the entries already taken, which are out of the
 * State and so must be run or settled by this drain, or they would end with no disposition.
 *
 * With durable turns the round is one `takeQueuedTurn` under `session`'s lock: the entries leave
 * the queue and become the key's turn record in one step, so a crash right after the dequeue
 * loses nothing — the sweeper recovers the record.
 */
export async function dequeueAll(
  context: StrategyContext,
  lockKey: string,
  session?: LockSession,
): Promise<QueueEntry[]> {
  const take = context.state.takeQueuedTurn;
  if (session && context.durableTurns && take) {
    const startedAt = context.clock.now();
    return take
      .call(context.state, session.lock, { maxEntries: MAX_ENTRIES_PER_ROUND, startedAt })
      .catch(async (error: unknown) => {
        await afterFailedTake(context, session, startedAt);
        throw error;
      });
  }
  const entries: QueueEntry[] = [];
  while (entries.length < MAX_ENTRIES_PER_ROUND) {
    let entry: QueueEntry | null;
    try {
      entry = await context.state.dequeue(lockKey);
    } catch (error) {
      if (entries.length === 0) throw error;
      context.logger.warn("dequeue failed mid-round; running the entries already taken", {
        lockKey,
        taken: entries.length,
        error,
      });
      break;
    }
    if (!entry) break;
    entries.push(entry);
  }
  return entries;
}

/**
 * Drains the queue of `lockKey` while the session is usable: each round takes every entry,
 * records expired ones, and gives each thread its own handler run (latest message, earlier ones
 * as `context.skipped`). A handler error does not end the drain. On lease loss or shutdown the
 * entries taken but not run go back to the queue for the next holder.
 *
 * Without `arrivedSinceLastLook` a round that finds the queue empty ends the drain. With it —
 * only for a caller whose release is the State's fused `releaseAndNext`, which looks at the queue
 * atomically with the release, and which takes the lock again when that look finds an entry —
 * the drain ends after a round unless entries were noted arriving meanwhile: the empty dequeue
 * that would end it is the release's look, done once instead of twice. It is called before each
 * round too, to forget arrivals the round's dequeue is about to see.
 */
export async function drainQueue(
  context: StrategyContext,
  session: LockSession,
  lockKey: string,
  arrivedSinceLastLook?: () => boolean,
): Promise<void> {
  while (session.usable) {
    arrivedSinceLastLook?.();
    session.noteQueueLook();
    const entries = await dequeueAll(context, lockKey, session);
    if (entries.length === 0) return;
    await runEntries(context, session, lockKey, entries);
    if (arrivedSinceLastLook && !arrivedSinceLastLook()) return;
  }
}

/** What {@link runEntries} is told about the entries of a recovered turn. */
export interface RecoveredRun {
  /** The attempt the runs are (`context.attempt`, `context.interrupted`). */
  readonly turn: TurnAttempt;
}

/**
 * Runs drained entries as per-thread batches; see {@link drainQueue}. With `recovered` they are
 * an interrupted turn's: they run as its next attempt and never expire — the turn had begun.
 *
 * With durable turns, entries that cannot run now (lease lost, shutdown) stay in the turn record,
 * which is handed back, instead of going back to the queue; and before each batch after the first
 * the record is narrowed to what is left, so a recovery never repeats a batch that ended.
 */
export async function runEntries(
  context: StrategyContext,
  session: LockSession,
  lockKey: string,
  entries: readonly QueueEntry[],
  recovered?: RecoveredRun,
): Promise<void> {
  const live = await rehydrateLive(context, lockKey, entries, recovered === undefined);
  const batches = batchByThread(live.map(({ rehydrated }) => rehydrated));
  const rawByKey = new Map(live.map(({ raw, rehydrated }) => [rehydrated.deliveryKey, raw]));
  const durable = context.durableTurns !== undefined;
  session.turnAttempt = recovered?.turn;
  try {
    for (const [index, batch] of batches.entries()) {
      const rest = batches.slice(index);
      if (!session.usable) {
        if (durable) handBackBatches(context, session, rest);
        else await requeue(context, lockKey, rest, rawByKey);
        return;
      }
      if (durable && index > 0) await narrowTurn(context, session, rest, rawByKey);
      if (!(await runThreadBatch(context, session, batch))) {
        // The State failed past its retries while the lease lasted, or the lease or the runtime
        // ended during them: the batch goes back to the queue (or stays in the turn record) for
        // the next holder.
        if (durable) {
          handBackBatches(context, session, rest);
          return;
        }
        await requeue(context, lockKey, [batch], rawByKey);
      } else if (session.handingBack) {
        handBackBatches(context, session, batches.slice(index + 1));
        return;
      }
    }
  } finally {
    session.turnAttempt = undefined;
  }
}

/**
 * Runs one thread's batch and settles it. Routing that fails on the State is retried in place
 * (the lock is still held) with the context's backoff; resolves false, settling nothing, when
 * the session stopped being usable before a handler ran, so the caller requeues the batch.
 */
async function runThreadBatch(
  context: StrategyContext,
  session: LockSession,
  batch: ThreadBatch,
): Promise<boolean> {
  session.beginRun();
  const nowMs = context.clock.now();
  for (const entry of [...batch.skipped, batch.latest]) {
    context.recordDurationMs?.("baton.queue.wait", nowMs - entry.enqueuedAt);
  }
  context.logger.debug("message-dequeued", {
    threadId: batch.threadId,
    messageId: batch.latest.message.id,
    skipped: batch.skipped.length,
  });
  const runOnce = () => context.runBatch(batchOf(session.lock.key, batch), session.batchRun);
  let outcome = await runOnce();
  if (outcome === "not-run" && context.stateRetry) {
    const retry = new StateRetry(context.stateRetry, context.clock);
    while (outcome === "not-run" && session.usable && (await retry.wait(session.runSignal))) {
      context.logger.warn("routing a drained batch failed on the State; retrying", {
        threadId: batch.threadId,
        messageId: batch.latest.message.id,
        attempt: retry.attempt,
      });
      outcome = await runOnce();
    }
  }
  if (outcome === "not-run") {
    if (!session.usable && context.stateRetry) return false;
    for (const entry of [...batch.skipped, batch.latest]) {
      await notRun(context, entry.deliveryKey);
    }
    return true;
  }
  const latest = dispositionOf(outcome, session);
  context.settle(batch.latest.deliveryKey, latest, latest === "queued" ? HANDED_BACK : undefined);
  for (const entry of batch.skipped) {
    // Skipped only into a run a handler really got; otherwise they share the latest's fate.
    if (latest === "ignored")
      context.settle(entry.deliveryKey, "ignored", "no handler for the batch");
    else if (latest === "queued") context.settle(entry.deliveryKey, "queued", HANDED_BACK);
    else context.settle(entry.deliveryKey, "skipped", `folded into ${batch.latest.message.id}`);
  }
  return true;
}

/**
 * Settles a delivery whose handlers never started because the State failed, removing its dedupe
 * mark first so a retry by the platform is processed.
 */
export async function notRun(context: StrategyContext, deliveryKey: string): Promise<void> {
  await context.unaccept(deliveryKey);
  context.settle(deliveryKey, "error", "state failed before the handler");
}

/**
 * A run that failed after its lease was lost, or after shutdown aborted it, was stopped from
 * outside, not by its own fault: `preempted`.
 *
 * With durable turns the turn is not lost with the run: it is handed back (ADR 0031), and its
 * messages end `queued` here — their one terminal disposition is recorded by the instance that
 * runs the turn again. That holds whatever the run came to once the turn is no longer this
 * run's: after a lost lease (another instance may already run it again) or a hand-back at
 * shutdown's deadline, even a run that returned must not record a second disposition.
 */
export function dispositionOf(
  outcome: Exclude<BatchOutcome, "not-run">,
  session: LockSession,
): DeliveryDisposition {
  // A run whose handler took a hold stopped nothing from outside: its own error stays `error`.
  if (session.adopted) return outcome;
  if (session.handingBack) return "queued";
  if (!session.held && session.handBack("lease-lost")) return "queued";
  if (outcome !== "error" || session.usable) return outcome;
  return session.handBack(session.interruptReason()) ? "queued" : "preempted";
}

async function rehydrateLive(
  context: StrategyContext,
  lockKey: string,
  entries: readonly QueueEntry[],
  expire: boolean,
): Promise<Array<{ raw: QueueEntry; rehydrated: RehydratedEntry }>> {
  const live: Array<{ raw: QueueEntry; rehydrated: RehydratedEntry }> = [];
  const nowMs = context.clock.now();
  for (const raw of entries) {
    const key = deliveryKeyOf(raw) ?? "unknown";
    if (expire && (await expiresAtMs(context, lockKey, raw)) <= nowMs) {
      context.logger.info("message-expired", {
        deliveryKey: key,
        waitedMs: nowMs - raw.enqueuedAt,
      });
      context.settle(key, "expired", "waited in the queue past queueEntryTtlMs");
      continue;
    }
    try {
      live.push({ raw, rehydrated: rehydrateEntry(raw, (name) => context.adapterNamed(name)) });
    } catch (error) {
      context.logger.error("message-dropped: a queued entry could not be rehydrated", {
        deliveryKey: key,
        error,
      });
      context.settle(key, "error", "corrupt queue entry");
    }
  }
  return live;
}

/**
 * When an entry expires: its own stamp, or — when it was still alive as the key's latest hold
 * began and was queued before that hold ended — the hold's latest known end (extends and a
 * release included) plus `queueEntryTtlMs`. Read only for entries past their stamp.
 */
async function expiresAtMs(
  context: StrategyContext,
  lockKey: string,
  raw: QueueEntry,
): Promise<number> {
  if (raw.expiresAt > context.clock.now()) return raw.expiresAt;
  try {
    const hold = await latestHold(context.state, lockKey);
    const heldBack = hold && raw.expiresAt > hold.takenAt && raw.enqueuedAt <= hold.expiresAt;
    return heldBack
      ? Math.max(raw.expiresAt, hold.expiresAt + context.settings.queueEntryTtlMs)
      : raw.expiresAt;
  } catch (error) {
    context.logger.warn("reading a hold record for a queued entry failed", { lockKey, error });
    return raw.expiresAt;
  }
}

async function requeue(
  context: StrategyContext,
  lockKey: string,
  batches: readonly ThreadBatch[],
  rawByKey: ReadonlyMap<string, QueueEntry>,
): Promise<void> {
  const { maxQueueSize, onQueueFull } = context.settings;
  for (const batch of batches) {
    for (const entry of [...batch.skipped, batch.latest]) {
      const raw = rawByKey.get(entry.deliveryKey);
      if (!raw) continue;
      try {
        const result = await context.state.enqueue(lockKey, raw, {
          maxSize: maxQueueSize,
          onFull: onQueueFull,
        });
        for (const evicted of result.evicted) {
          context.settle(deliveryKeyOf(evicted) ?? "unknown", "preempted", "queue full on requeue");
        }
      } catch (error) {
        context.logger.error("message-dropped: requeue after lease loss failed", { error });
        context.settle(entry.deliveryKey, "error", "requeue failed");
      }
    }
  }
}
