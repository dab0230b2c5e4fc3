import type { RehydratedEntry } from "./queued-message.js";
import type { Batch } from "./strategy.js";

/** The entries of one thread, in arrival order: the last is answered, the rest are skipped. */
export interface ThreadBatch {
  readonly threadId: string;
  readonly latest: RehydratedEntry;
  readonly skipped: readonly RehydratedEntry[];
}

/**
 * Groups drained entries by thread, keeping arrival order within each thread and the order in
 * which threads first appeared. Under channel lock scope one queue holds several threads; each
 * gets its own batch, so no message or skipped context crosses into another thread.
 */
export function batchByThread(entries: readonly RehydratedEntry[]): ThreadBatch[] {
  const byThread = new Map<string, RehydratedEntry[]>();
  for (const entry of entries) {
    const list = byThread.get(entry.threadId);
    if (list) list.push(entry);
    else byThread.set(entry.threadId, [entry]);
  }
  const batches: ThreadBatch[] = [];
  for (const [threadId, list] of byThread) {
    const latest = list[list.length - 1];
    if (latest) batches.push({ threadId, latest, skipped: list.slice(0, -1) });
  }
  return batches;
}

/** The handler batch of one thread's drained entries, run on `lockKey`. */
export function batchOf(lockKey: string, batch: ThreadBatch): Batch {
  return {
    lockKey,
    adapter: batch.latest.adapter,
    threadId: batch.threadId,
    message: batch.latest.message,
    skipped: batch.skipped.map((entry) => entry.message),
    tenant: batch.latest.tenant,
  };
}
