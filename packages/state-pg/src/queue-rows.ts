import {
  type EnqueueOptions,
  type EnqueueResult,
  type JsonValue,
  type QueueEntry,
  StateError,
} from "@baton/core";

/** A queue entry as the statements return it. */
export interface QueueEntryRow {
  value: JsonValue;
  enqueued_at_ms: number;
  expires_at_ms: number;
}

/** The one row of the enqueue statement (sql.ts). */
export interface EnqueueRow {
  depth_before: number;
  inserted: number;
  evicted: QueueEntry[];
}

/** Turns the enqueue statement's row into the contract's answer. */
export function enqueueOutcome(
  step: string,
  row: EnqueueRow | undefined,
  entry: QueueEntry,
  options: EnqueueOptions,
): EnqueueResult {
  if (!row) {
    throw new StateError("unavailable", "the enqueue statement returned no row", { step });
  }
  if (row.inserted === 0) {
    // drop-newest on a full queue: the new entry is refused and handed back, a copy as always.
    return { depth: row.depth_before, evicted: [structuredClone(entry)] };
  }
  // What this enqueue saw; a concurrent dequeue can only have made the queue shorter since,
  // and may have taken a head this call meant to evict (hence the bound).
  const depth = Math.min(options.maxSize, row.depth_before - row.evicted.length + 1);
  return { depth, evicted: row.evicted };
}
