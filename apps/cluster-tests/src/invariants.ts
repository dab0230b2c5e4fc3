import type { AbandonedEntry, LogEntry, RunEntry } from "./protocol.js";

/** What the merged logs of a run prove or disprove. */
export interface InvariantReport {
  readonly overlaps: string[];
  readonly problems: string[];
  readonly runs: number;
}

const TERMINAL = new Set([
  "abandoned",
  "handled",
  "skipped",
  "dropped-lock-conflict",
  "error",
  "preempted",
  "expired",
  "ignored",
]);

/** One handler run: a worker may run a message again, as a later attempt of its turn. */
export function runKey(run: RunEntry): string {
  return `${run.worker}:${run.messageId}:${run.attempt ?? 1}`;
}

/** True for a handler run's start or end. */
export function isRun(entry: LogEntry): entry is RunEntry {
  return entry.kind === "run-start" || entry.kind === "run-end";
}

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
  const runs = entries.filter(isRun);
  const starts = runs.filter((entry) => entry.kind === "run-start");
  const ends = new Map(
    runs.filter((entry) => entry.kind === "run-end").map((entry) => [runKey(entry), entry]),
  );
  const byLockKey = new Map<string, Array<{ id: string; from: number; to: number }>>();
  for (const start of starts) {
    const end = ends.get(runKey(start));
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
    // An echo of a disposition another worker decided (counted: false) is not a second one.
    if (entry.kind !== "settled" || !TERMINAL.has(entry.outcome) || entry.counted === false) {
      continue;
    }
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

/** What {@link checkDurableInvariants} is told about the run. */
export interface DurableCheckOptions {
  /** `durableTurns.maxAttempts` of every worker. */
  readonly maxAttempts: number;
  /**
   * Workers that died (SIGKILL, SIGTERM, a crash), with when: their runs without a run-end
   * ended then at the latest.
   */
  readonly diedAtMs?: ReadonlyMap<string, number>;
}

/** Terminal dispositions per message id across every worker's log (`queued` is not one). */
export function terminalDispositions(entries: readonly LogEntry[]): Map<string, string[]> {
  const terminal = new Map<string, string[]>();
  for (const entry of entries) {
    // An echo of a disposition another worker decided (counted: false) is not a second one.
    if (entry.kind !== "settled" || !TERMINAL.has(entry.outcome) || entry.counted === false) {
      continue;
    }
    const id = entry.deliveryKey.slice("mock:".length);
    terminal.set(id, [...(terminal.get(id) ?? []), entry.outcome]);
  }
  return terminal;
}

/** One handler run, its start matched with its end (or the death of its worker). */
export interface MatchedRun {
  readonly start: RunEntry;
  readonly end: RunEntry | undefined;
  /** When it ended at the latest: its run-end, its worker's death, or never. */
  readonly toMs: number;
}

/** Every run in the logs, matched by worker, message and attempt. */
export function matchRuns(
  entries: readonly LogEntry[],
  diedAtMs: ReadonlyMap<string, number> = new Map(),
): MatchedRun[] {
  const runs = entries.filter(isRun);
  const ends = new Map(
    runs.filter((run) => run.kind === "run-end").map((run) => [runKey(run), run]),
  );
  return runs
    .filter((run) => run.kind === "run-start")
    .map((start) => {
      const end = ends.get(runKey(start));
      const toMs = end?.atMs ?? diedAtMs.get(start.worker) ?? Number.POSITIVE_INFINITY;
      return { start, end, toMs };
    });
}

/**
 * DESIGN §5 with durable turns (§6.1), over the merged logs of every worker. A turn may run
 * again after an interruption, so a message may run more than once, but:
 * - no two runs overlap on one lock key (invariant 2), a re-run included;
 * - every accepted message has exactly one terminal disposition across all instances, a
 *   hand-back (`queued`) not being one (invariant 1), and it agrees with the runs: handled ⇒ it
 *   ran as a latest message; skipped ⇒ it was folded into a run; dropped/expired ⇒ it never ran;
 * - no turn runs more than `maxAttempts` times, each run of one message has its own attempt, and
 *   a re-run says which attempt it picks up (`interrupted.attempt` = attempt - 1);
 * - `onTurnAbandoned` runs at most once per message, only for an `abandoned` one, with the
 *   attempt past `maxAttempts`.
 */
export function checkDurableInvariants(
  entries: readonly LogEntry[],
  acceptedIds: Iterable<string>,
  options: DurableCheckOptions,
): InvariantReport {
  const overlaps: string[] = [];
  const problems: string[] = [];
  const matched = matchRuns(entries, options.diedAtMs);
  const byLockKey = new Map<string, MatchedRun[]>();
  for (const run of matched) {
    byLockKey.set(run.start.lockKey, [...(byLockKey.get(run.start.lockKey) ?? []), run]);
  }
  for (const [lockKey, runs] of byLockKey) {
    runs.sort((a, b) => a.start.atMs - b.start.atMs);
    for (const [i, current] of runs.entries()) {
      for (const previous of runs.slice(0, i)) {
        if (current.start.atMs < previous.toMs) {
          overlaps.push(
            `${lockKey}: ${current.start.messageId} (attempt ${current.start.attempt}, ${current.start.worker}) started at ${current.start.atMs} before ${previous.start.messageId} (attempt ${previous.start.attempt}, ${previous.start.worker}) ended at ${previous.toMs}`,
          );
        }
      }
    }
  }
  const attemptsAsLatest = new Map<string, RunEntry[]>();
  const foldedInto = new Map<string, number>();
  for (const { start } of matched) {
    attemptsAsLatest.set(start.messageId, [
      ...(attemptsAsLatest.get(start.messageId) ?? []),
      start,
    ]);
    for (const id of start.skipped) foldedInto.set(id, (foldedInto.get(id) ?? 0) + 1);
  }
  const abandonedRuns = new Map<string, AbandonedEntry[]>();
  for (const entry of entries) {
    if (entry.kind !== "abandoned") continue;
    abandonedRuns.set(entry.messageId, [...(abandonedRuns.get(entry.messageId) ?? []), entry]);
  }
  const terminal = terminalDispositions(entries);
  for (const id of acceptedIds) {
    const runs = attemptsAsLatest.get(id) ?? [];
    const folded = foldedInto.get(id) ?? 0;
    const attempts = runs.map((run) => run.attempt ?? 1).sort((a, b) => a - b);
    if (new Set(attempts).size !== attempts.length) {
      problems.push(`${id} ran twice as one attempt: attempts ${attempts.join(", ")}`);
    }
    if (runs.length > options.maxAttempts || folded > options.maxAttempts) {
      problems.push(
        `${id} ran ${runs.length}× and was skipped ${folded}× (maxAttempts ${options.maxAttempts})`,
      );
    }
    if (attempts.some((attempt) => attempt > options.maxAttempts)) {
      problems.push(`${id} ran as attempt ${Math.max(...attempts)} > ${options.maxAttempts}`);
    }
    for (const run of runs) {
      const attempt = run.attempt ?? 1;
      const picked = run.interrupted?.attempt;
      if (attempt === 1 ? picked !== undefined : picked !== attempt - 1) {
        problems.push(`${id} attempt ${attempt} says it picks up attempt ${picked}`);
      }
    }
    if (runs.length > 0 && folded > 0) problems.push(`${id} ran and was also skipped`);
    const hooks = abandonedRuns.get(id) ?? [];
    const outcomes = terminal.get(id) ?? [];
    if (outcomes.length !== 1) {
      problems.push(
        `${id} has ${outcomes.length} terminal dispositions: ${outcomes.join(", ") || "none"}`,
      );
      continue;
    }
    const [outcome] = outcomes;
    if (outcome === "handled" && runs.length === 0) problems.push(`${id} is handled but never ran`);
    if (outcome === "skipped" && folded === 0) problems.push(`${id} is skipped but never folded`);
    if (
      (outcome === "dropped-lock-conflict" || outcome === "expired") &&
      runs.length + folded > 0
    ) {
      problems.push(`${id} is ${outcome} but ran`);
    }
    if (hooks.length > 1) problems.push(`${id}: onTurnAbandoned ran ${hooks.length}×`);
    if (outcome !== "abandoned" && hooks.some((hook) => hook.messageId === id)) {
      problems.push(`${id} is ${outcome} but onTurnAbandoned ran for it`);
    }
    for (const hook of hooks) {
      if (hook.attempt !== options.maxAttempts + 1) {
        problems.push(`${id}: onTurnAbandoned saw attempt ${hook.attempt}`);
      }
    }
  }
  return { overlaps, problems, runs: matched.length };
}
