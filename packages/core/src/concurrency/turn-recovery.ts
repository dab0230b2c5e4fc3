import type { QueueEntry } from "../contracts/state.js";
import type { TurnRecord } from "../contracts/turn-state.js";
import { batchByThread, batchOf } from "./batches.js";
import { drainQueue, runEntries } from "./drain.js";
import type { LocalHolders } from "./local-holders.js";
import { LockSession } from "./lock-session.js";
import { holdThenRecheck } from "./queue-turns.js";
import { deliveryKeyOf, type RehydratedEntry, rehydrateEntry } from "./queued-message.js";
import type { StrategyContext, TurnAttempt } from "./strategy.js";

/** Why a turn's messages end `abandoned`. */
const ABANDONED = "interrupted more often than durableTurns.maxAttempts";

/**
 * The sweeper's entry point for interrupted turns (DESIGN §6.1): takes over the turn on `lockKey`
 * with the State's `recoverTurn` — its lock and record in one step — runs it again first, as the
 * next attempt, and then drains the key's queue as any holder does. Past `maxAttempts` the turn is
 * not run: its `onTurnAbandoned` hooks run once and its messages end `abandoned`. Resolves false
 * when there was nothing to recover (another instance was faster, or the lock is live).
 */
export async function recoverTurn(
  context: StrategyContext,
  holders: LocalHolders,
  lockKey: string,
): Promise<boolean> {
  const recover = context.state.recoverTurn;
  const settings = context.durableTurns;
  if (!recover || !settings || context.shutdownSignal.aborted) return false;
  const sentAtMs = context.clock.now();
  const recovered = await recover.call(context.state, lockKey, context.settings.lockTtlMs, {
    startedAt: sentAtMs,
  });
  if (!recovered) return false;
  const { interrupted } = recovered;
  const session = LockSession.recovered(context, holders, recovered.lock, sentAtMs);
  const turn = attemptAfter(interrupted);
  context.logger.info("turn-recovered", {
    lockKey,
    attempt: turn.attempt,
    reason: turn.interrupted.reason,
    messages: interrupted.entries.length,
  });
  await holdThenRecheck(context, holders, session, async (held) => {
    if (held === session) {
      if (turn.attempt > settings.maxAttempts) {
        await abandonTurn(context, held, interrupted.entries, turn);
      } else {
        await runEntries(context, held, lockKey, interrupted.entries, { turn });
      }
    }
    await drainQueue(context, held, lockKey);
  });
  return true;
}

/** The attempt a recovery of `interrupted` makes, with what interrupted the one before. */
function attemptAfter(interrupted: TurnRecord): TurnAttempt {
  return {
    attempt: interrupted.attempt + 1,
    interrupted: {
      attempt: interrupted.attempt,
      startedAt: new Date(interrupted.startedAt),
      reason: interrupted.handedBack ?? "lease-expired",
    },
  };
}

/**
 * A poison turn: interrupted `maxAttempts` times (e.g. its handler kills the process). It is not
 * run again; each thread's batch gets the `onTurnAbandoned` hooks once, here, under the lock, and
 * every message ends `abandoned`. The release then ends the record, so no instance finds it again.
 */
async function abandonTurn(
  context: StrategyContext,
  session: LockSession,
  entries: readonly QueueEntry[],
  turn: TurnAttempt,
): Promise<void> {
  const live: RehydratedEntry[] = [];
  for (const raw of entries) {
    try {
      live.push(rehydrateEntry(raw, (name) => context.adapterNamed(name)));
    } catch (error) {
      const key = deliveryKeyOf(raw) ?? "unknown";
      context.logger.error("message-dropped: an abandoned turn's entry could not be rehydrated", {
        deliveryKey: key,
        error,
      });
      context.settle(key, "error", "corrupt turn record entry");
    }
  }
  session.turnAttempt = turn;
  try {
    for (const batch of batchByThread(live)) {
      context.logger.error("turn-abandoned", {
        lockKey: session.lock.key,
        threadId: batch.threadId,
        messageId: batch.latest.message.id,
        attempts: turn.interrupted.attempt,
      });
      await context.abandonTurn?.(batchOf(session.lock.key, batch), session.batchRun);
      for (const entry of [...batch.skipped, batch.latest]) {
        context.settle(entry.deliveryKey, "abandoned", ABANDONED);
      }
    }
  } finally {
    session.turnAttempt = undefined;
  }
}
