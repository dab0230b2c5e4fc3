import type { Clock } from "../clock/clock.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import {
  HOLD_INDEX_LENGTH,
  HOLD_RECORD_GRACE_MS,
  type HoldLapsedEvent,
  type HoldLapsedHandler,
  type HoldRecord,
  holdEndedKey,
  type IndexedHold,
  indexedHolds,
  readHoldRecord,
} from "./hold-records.js";

/** What noticing lapses needs. */
export interface HoldLapseDeps {
  readonly state: StateAdapter;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The handlers of `chat.onHoldLapsed`, read at each notice. */
  readonly handlers: readonly HoldLapsedHandler[];
  /**
   * Ids of holds this instance knows ended (by anyone), kept across sweeps so that a sweep
   * reads only the records of holds that are due and not yet settled.
   */
  readonly settled: Set<string>;
}

/**
 * Claims the end of a hold: true for exactly one caller per hold, across instances — the
 * releaser (`how: "released"`) or the first instance to notice the lapse (`"lapsed"`).
 */
export function claimHoldEnd(
  state: StateAdapter,
  key: string,
  fence: number,
  how: "released" | "lapsed",
): Promise<boolean> {
  return state.setIfNotExists(holdEndedKey(key, fence), how, HOLD_RECORD_GRACE_MS);
}

/** Gives the end claim back, so another instance (one with handlers) can notice the lapse. */
export function unclaimHoldEnd(state: StateAdapter, key: string, fence: number): Promise<void> {
  return state.delete(holdEndedKey(key, fence));
}

/**
 * One lapse sweep: every indexed hold past its expiry whose lock no longer carries its fence,
 * and whose end nobody claimed, is claimed here and its handlers run (awaited, so a sweep's
 * notices come before the queue drains that follow it). Without handlers nothing is claimed:
 * an instance that cannot act leaves the lapse to one that can. Never rejects.
 */
export async function sweepLapsedHolds(deps: HoldLapseDeps): Promise<void> {
  if (deps.handlers.length === 0) return;
  let holds: IndexedHold[];
  try {
    holds = await indexedHolds(deps.state);
  } catch (error) {
    deps.logger.warn("sweep for lapsed holds failed", { error });
    return;
  }
  for (const { id, key, fence, expiresAt } of holds) {
    if (deps.settled.has(id) || deps.clock.now() < expiresAt) continue;
    try {
      const record = await readHoldRecord(deps.state, key, fence);
      if (!record) {
        deps.settled.add(id); // past its grace period: nothing left to notice
        continue;
      }
      if (deps.clock.now() < record.expiresAt) continue;
      if ((await deps.state.inspectLock(key))?.fence === fence) continue;
      const won = await claimHoldEnd(deps.state, key, fence, "lapsed");
      remember(deps.settled, id);
      if (won) await emitHoldLapsed(deps, record);
    } catch (error) {
      deps.logger.warn("checking a hold for a lapse failed; the next sweep retries", {
        key,
        fence,
        error,
      });
    }
  }
}

/** Remembers a settled hold, forgetting the oldest beyond twice the index's length. */
function remember(settled: Set<string>, id: string): void {
  settled.add(id);
  if (settled.size <= 2 * HOLD_INDEX_LENGTH) return;
  const oldest = settled.values().next().value;
  if (oldest !== undefined) settled.delete(oldest);
}

/** Runs every lapse handler for `record`; a failing handler is logged and does not stop others. */
export async function emitHoldLapsed(deps: HoldLapseDeps, record: HoldRecord): Promise<void> {
  const event: HoldLapsedEvent = {
    threadId: record.threadId,
    key: record.key,
    fence: record.fence,
    expiredAt: record.expiresAt,
    ...(record.owner === undefined ? {} : { owner: record.owner }),
  };
  deps.logger.info("hold-lapsed", { key: record.key, fence: record.fence });
  for (const handler of deps.handlers) {
    try {
      await handler(event);
    } catch (error) {
      deps.logger.error("an onHoldLapsed handler failed", { key: record.key, error });
    }
  }
}
