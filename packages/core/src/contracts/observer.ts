/**
 * How a delivery ended. Exactly one per dispatch span (DESIGN §8).
 * - `handled`: a handler ran to completion for it.
 * - `skipped`: it was folded into another message's `context.skipped`, and that run was handled.
 * - `dropped-lock-conflict`: the lock was held and the strategy drops.
 * - `duplicate`: its message id was already accepted.
 * - `ignored`: nothing applies (self message, no matching handler).
 * - `error`: the State or a handler failed.
 * - `preempted`: evicted from a full queue, or its run stopped on lease loss or shutdown (without
 *   durable turns; with them such a run's turn is handed back: `handed-off`).
 * - `admission-rejected`: refused at the admission bound, nothing written.
 * - `expired`: waited in a queue past its `expiresAt`.
 * - `handed-off`: its part on this instance ended with its entry still in the State queue, for a
 *   holder in another process (or a sweeper, or the next start after shutdown) to drain, or its turn handed back for another instance to run again (durable
 *   turns); this span says nothing about whether it ran — the draining instance counts that
 *   (ADR 0011).
 * - `abandoned`: its turn was interrupted `durableTurns.maxAttempts` times (a poison turn) and is
 *   not run again; `onTurnAbandoned` ran for it once (DESIGN §6.1).
 */
export type DispatchOutcome =
  | "handled"
  | "skipped"
  | "dropped-lock-conflict"
  | "duplicate"
  | "ignored"
  | "error"
  | "preempted"
  | "admission-rejected"
  | "expired"
  | "handed-off"
  | "abandoned";

/** Every {@link DispatchOutcome}, for exhaustive checks. */
export const DISPATCH_OUTCOMES: readonly DispatchOutcome[] = [
  "handled",
  "skipped",
  "dropped-lock-conflict",
  "duplicate",
  "ignored",
  "error",
  "preempted",
  "admission-rejected",
  "expired",
  "handed-off",
  "abandoned",
];

/**
 * Low-cardinality attributes only: never message text, user ids or thread ids, so metrics
 * backends are not flooded and no personal data leaves the process.
 */
export interface DispatchAttributes {
  adapter: string;
  tenant?: string;
  /** The route that ran ("mention", "subscribed", "direct-message", "patterns", "none"). */
  route?: string;
  strategy?: string;
  /** On counters: the {@link DispatchOutcome} counted (a `queued` delivery counts as `handed-off`). */
  outcome?: string;
}

/** One delivery's span. `end` is called exactly once. */
export interface DispatchSpan {
  /** Adds attributes learned along the way (route, strategy). */
  setAttributes(attributes: Partial<DispatchAttributes>): void;
  /** Closes the span; `reason` is a short fixed phrase, never user content. */
  end(outcome: DispatchOutcome, reason?: string): void;
}

/**
 * One step in the life of one delivery, for development tools (the playground's timeline, a
 * debug log). Unlike spans and counters these carry identifiers — delivery key, lock key,
 * thread id — so they are high-cardinality: never export them as metric attributes.
 */
export interface DispatchEvent {
  /**
   * - `accepted`: passed admission and dedupe; `queued`: waits in the State queue of its lock
   *   key; `run-started` / `run-finished`: a handler run for it (as latest message) began or
   *   ended, with `skippedKeys` folded in; `settled`: its disposition is final (or `queued` for
   *   another instance), in `outcome`.
   */
  kind: "accepted" | "queued" | "run-started" | "run-finished" | "settled";
  deliveryKey: string;
  lockKey?: string;
  threadId?: string;
  /** Deliveries folded into this run's `context.skipped` (run events only). */
  skippedKeys?: string[];
  /**
   * Run events only: which attempt of its turn the run is (`context.attempt`: 1 on a first run,
   * above 1 for an interrupted turn run again — durable turns).
   */
  attempt?: number;
  /** The disposition (`settled` only): a {@link DispatchOutcome} or `queued`. */
  outcome?: string;
  /**
   * `settled` only: true when this instance decided the disposition and counted it on
   * `baton.deliveries`; false when it only echoes one another instance decided and counted (a
   * local waiter whose entry that instance drained or evicted, ADR 0011). Collecting dispositions
   * across instances, count the `counted` ones.
   */
  counted?: boolean;
  reason?: string;
  /** When it happened, by the runtime's clock. */
  atMs: number;
}

/**
 * Receives Baton's telemetry. Every member is optional; an observer that throws is caught and
 * logged, never breaking dispatch.
 */
export interface Observer {
  /** Opens the span of one delivery. */
  startDispatch?(attributes: DispatchAttributes): DispatchSpan;
  /**
   * Adds `value` to the named counter. Baton counts `baton.deliveries` once per disposition,
   * with the `outcome` attribute.
   */
  count?(name: string, value: number, attributes: Partial<DispatchAttributes>): void;
  /**
   * Records a duration in milliseconds: `baton.handler.duration` per handler run and
   * `baton.queue.wait` per message taken from a queue.
   */
  recordDurationMs?(
    name: string,
    durationMs: number,
    attributes: Partial<DispatchAttributes>,
  ): void;
  /** Every step of every delivery (see {@link DispatchEvent}); for local tools, not metrics. */
  onDispatchEvent?(event: DispatchEvent): void;
}
