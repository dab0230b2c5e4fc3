import type { LogEntry, RunEntry } from "./protocol.js";

/** What the merged logs of a run prove or disprove. */
export interface InvariantReport {
  readonly overlaps: string[];
  readonly problems: string[];
  readonly runs: number;
}

const TERMINAL = new Set([
  "handled",
  "skipped",
  "dropped-lock-conflict",
  "error",
  "preempted",
  "expired",
  "ignored",
]);

/**
 * Checks DESIGN §5 over the merged logs of every worker:
 * - no two handler runs overlap on one lock key (invariant 2);
 * - every accepted message has exactly one terminal disposition across all instances, and it
 *   agrees with the runs: handled ⇒ it ran as the latest message of exactly one run; error ⇒
 *   it ran at most once;
 *   skipped ⇒ it was folded into exactly one run; dropped/expired/preempted ⇒ it never ran
 *   (invariant 1);
 * - no message ran twice, duplicates included (invariant 4).
 */
export function checkInvariants(
  entries: readonly LogEntry[],
  acceptedIds: Iterable<string>,
  /** Workers killed on purpose, with when they died: their unfinished runs ended then. */
  diedAtMs: ReadonlyMap<string, number> = new Map(),
): InvariantReport {
  const overlaps: string[] = [];
  const problems: string[] = [];
  const runs = entries.filter((entry): entry is RunEntry => entry.kind !== "settled");
  const starts = runs.filter((entry) => entry.kind === "run-start");
  const ends = new Map(
    runs
      .filter((entry) => entry.kind === "run-end")
      .map((entry) => [`${entry.worker}:${entry.messageId}`, entry]),
  );
  const byLockKey = new Map<string, Array<{ id: string; from: number; to: number }>>();
  for (const start of starts) {
    const end = ends.get(`${start.worker}:${start.messageId}`);
    const list = byLockKey.get(start.lockKey) ?? [];
    const to = end?.atMs ?? diedAtMs.get(start.worker) ?? Number.POSITIVE_INFINITY;
    list.push({ id: start.messageId, from: start.atMs, to });
    byLockKey.set(start.lockKey, list);
  }
  for (const [lockKey, runs] of byLockKey) {
    runs.sort((a, b) => a.from - b.from);
    for (let i = 1; i < runs.length; i += 1) {
      const previous = runs[i - 1];
      const current = runs[i];
      if (previous && current && current.from < previous.to) {
        overlaps.push(
          `${lockKey}: ${current.id} started at ${current.from} before ${previous.id} ended at ${previous.to}`,
        );
      }
    }
  }

  const ranAsLatest = new Map<string, number>();
  const foldedInto = new Map<string, number>();
  for (const start of starts) {
    ranAsLatest.set(start.messageId, (ranAsLatest.get(start.messageId) ?? 0) + 1);
    for (const id of start.skipped) foldedInto.set(id, (foldedInto.get(id) ?? 0) + 1);
  }
  const terminal = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.kind !== "settled" || !TERMINAL.has(entry.outcome)) continue;
    const id = entry.deliveryKey.slice("mock:".length);
    terminal.set(id, [...(terminal.get(id) ?? []), entry.outcome]);
  }
  for (const id of acceptedIds) {
    const outcomes = terminal.get(id) ?? [];
    const ran = ranAsLatest.get(id) ?? 0;
    const folded = foldedInto.get(id) ?? 0;
    if (ran + folded > 1) problems.push(`${id} ran ${ran}× and was skipped ${folded}×`);
    if (outcomes.length !== 1) {
      problems.push(
        `${id} has ${outcomes.length} terminal dispositions: ${outcomes.join(", ") || "none"}`,
      );
      continue;
    }
    const [outcome] = outcomes;
    if (outcome === "handled" && ran !== 1) problems.push(`${id} is handled but ran ${ran}×`);
    // `error` also covers a State failure before any handler started (the mark is removed so
    // the platform's retry is processed), so it may have run once or not at all.
    if (outcome === "error" && ran > 1) problems.push(`${id} is error but ran ${ran}×`);
    if (outcome === "skipped" && folded !== 1)
      problems.push(`${id} is skipped but was folded ${folded}×`);
    if ((outcome === "dropped-lock-conflict" || outcome === "expired") && ran + folded > 0) {
      problems.push(`${id} is ${outcome} but ran`);
    }
  }
  return { overlaps, problems, runs: starts.length };
}
