import type { DeliveryDisposition } from "../concurrency/strategy.js";
import type { DeliveryResult } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type {
  DispatchAttributes,
  DispatchEvent,
  DispatchOutcome,
  DispatchSpan,
  Observer,
} from "../contracts/observer.js";

interface Pending {
  readonly lockKey: string;
  readonly span: DispatchSpan | undefined;
  /** Aborts this delivery's handler (detach timeout); absent when nothing bounds it. */
  readonly signal: AbortSignal | undefined;
  readonly outcome: TrackedOutcome;
}

/**
 * The disposition of a tracked delivery, as {@link DeliveryRegistry.track} hands it out: known
 * at once once settled, or awaited. Most deliveries are settled before anyone asks, so no promise
 * is made for them.
 */
export class TrackedOutcome {
  private settledWith: DeliveryResult | undefined;
  private waiters: Array<(result: DeliveryResult) => void> | undefined;

  /** The disposition, once settled; `undefined` before. */
  get result(): DeliveryResult | undefined {
    return this.settledWith;
  }

  /** Resolves with the disposition (at once when already settled). */
  wait(): Promise<DeliveryResult> {
    if (this.settledWith) return Promise.resolve(this.settledWith);
    return new Promise((resolve) => {
      this.waiters ??= [];
      this.waiters.push(resolve);
    });
  }

  /** Records the disposition; only the first call counts. */
  settle(result: DeliveryResult): void {
    if (this.settledWith) return;
    this.settledWith = result;
    const waiters = this.waiters;
    this.waiters = undefined;
    for (const resolve of waiters ?? []) resolve(result);
  }
}

/**
 * The deliveries this process accepted and has not yet settled. Each gets exactly one
 * disposition: the first `settle` wins, closes its dispatch span and resolves the promise the
 * caller of `processMessage` awaits. Dispositions of deliveries accepted elsewhere (drained from
 * the shared queue) are counted and logged here too, so nothing ends unseen.
 */
export class DeliveryRegistry {
  private readonly pending = new Map<string, Pending>();
  /**
   * Per lock key, the pending deliveries waiting for a local holder ({@link markWaiting}), with
   * the stamp of when each began to wait.
   */
  private readonly waiting = new Map<string, Map<string, number>>();

  constructor(
    private readonly observer: Observer | undefined,
    private readonly logger: Logger,
    private readonly attributes: Omit<DispatchAttributes, "adapter">,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * True when an observer listens to dispatch events: callers skip building events (and their
   * timestamps) nobody reads.
   */
  get observesEvents(): boolean {
    return this.observer?.onDispatchEvent !== undefined;
  }

  /** True when an observer records durations. */
  get recordsDurations(): boolean {
    return this.observer?.recordDurationMs !== undefined;
  }

  /** Reports one step of a delivery to the observer's event stream; never throws. */
  emit(event: Omit<DispatchEvent, "atMs">): void {
    if (!this.observer?.onDispatchEvent) return;
    this.safely("onDispatchEvent", () =>
      this.observer?.onDispatchEvent?.({ ...event, atMs: this.now() }),
    );
  }

  /** Opens the span of a delivery that has not been accepted yet (before dedupe). */
  startSpan(adapter: string, tenant?: string): DispatchSpan | undefined {
    if (!this.observer?.startDispatch) return undefined;
    const attributes: DispatchAttributes = { adapter, ...this.attributes };
    if (tenant !== undefined) attributes.tenant = tenant;
    const span = this.safely("startDispatch", () => this.observer?.startDispatch?.(attributes));
    return span && endsOnce(span);
  }

  /** Adds the route a delivery took to its span. */
  noteRoute(key: string, route: string): void {
    if (!this.observer?.startDispatch) return;
    const span = this.pending.get(key)?.span;
    this.safely("setAttributes", () => span?.setAttributes({ route }));
  }

  /** The signal that bounds a local delivery's handler, if any. */
  signalOf(key: string): AbortSignal | undefined {
    return this.pending.get(key)?.signal;
  }

  /** Ends a span whose delivery never reached a strategy (ignored, duplicate, error). */
  endSpan(span: DispatchSpan | undefined, outcome: DispatchOutcome, reason?: string): void {
    if (!span) return;
    this.safely("end span", () => span?.end(outcome, reason));
  }

  /** Starts tracking an accepted delivery; its disposition comes through the returned outcome. */
  track(
    key: string,
    lockKey: string,
    span: DispatchSpan | undefined,
    signal?: AbortSignal,
  ): TrackedOutcome {
    if (this.observesEvents) this.emit({ kind: "accepted", deliveryKey: key, lockKey });
    const outcome = new TrackedOutcome();
    this.pending.set(key, { lockKey, span, signal, outcome });
    return outcome;
  }

  isSettled(key: string): boolean {
    return !this.pending.has(key);
  }

  /**
   * Records `disposition` for `key`; only the first call for a tracked key has an effect. Counted
   * on the observer unless `counted` is false (another process already counted it).
   */
  settle(key: string, disposition: DeliveryDisposition, reason?: string, counted = true): void {
    const entry = this.pending.get(key);
    // A hand-off is counted by the instance the delivery is tracked on, once (ADR 0011): not for
    // a key this instance does not track, or no longer does (its disposition was already given,
    // e.g. at shutdown, before its turn was handed back).
    if (disposition === "queued" && !entry) counted = false;
    if (counted) this.count(key, disposition);
    if (this.observesEvents) {
      this.emit({
        kind: "settled",
        deliveryKey: key,
        outcome: disposition,
        counted,
        ...(entry ? { lockKey: entry.lockKey } : {}),
        ...(reason === undefined ? {} : { reason }),
      });
    }
    if (!entry) {
      this.logger.debug("delivery settled", { deliveryKey: key, outcome: disposition, reason });
      return;
    }
    this.pending.delete(key);
    this.stopWaiting(entry.lockKey, key);
    // A hand-off ends this instance's part: its handler run, if any, is reported by the instance
    // that drains the entry (ADR 0011).
    this.endSpan(entry.span, spanOutcome(disposition), reason);
    entry.outcome.settle(
      reason === undefined ? { outcome: disposition } : { outcome: disposition, reason },
    );
  }

  /** Settles every waiting delivery of `lockKey` as handed off to another process. */
  handOff(lockKey: string): void {
    for (const [key, entry] of [...this.pending]) {
      if (entry.lockKey === lockKey) this.settle(key, "queued", "held by another instance");
    }
  }

  /**
   * Notes that a tracked delivery's strategy part has ended with its message left in the State
   * queue for a holder of this process, at `stamp` (a `LocalHolders.stamp`), so
   * {@link settleWaiting} may settle it.
   */
  markWaiting(key: string, stamp: number): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    const keys = this.waiting.get(entry.lockKey);
    if (keys) keys.set(key, stamp);
    else this.waiting.set(entry.lockKey, new Map([[key, stamp]]));
  }

  /**
   * Settles the deliveries of `lockKey` marked by {@link markWaiting} and not settled yet; with
   * `waitingBefore`, only those marked with a smaller stamp. A terminal disposition is not
   * counted again: the process that decided it counted it (ADR 0011).
   */
  settleWaiting(
    lockKey: string,
    disposition: DeliveryDisposition,
    reason: string,
    waitingBefore = Number.POSITIVE_INFINITY,
  ): void {
    const keys = this.waiting.get(lockKey);
    if (!keys) return;
    for (const [key, stamp] of [...keys]) {
      if (stamp < waitingBefore) this.settle(key, disposition, reason, disposition === "queued");
    }
  }

  private stopWaiting(lockKey: string, key: string): void {
    const keys = this.waiting.get(lockKey);
    if (!keys?.delete(key)) return;
    if (keys.size === 0) this.waiting.delete(lockKey);
  }

  /** Settles every waiting delivery, e.g. at shutdown when their entries stay queued. */
  settleAll(disposition: DeliveryDisposition, reason: string): void {
    for (const key of [...this.pending.keys()]) this.settle(key, disposition, reason);
  }

  get size(): number {
    return this.pending.size;
  }

  private count(key: string, disposition: DeliveryDisposition): void {
    if (!this.observer?.count) return;
    // A delivery key is `{adapter}:{messageId}`, so the adapter is known even for deliveries
    // accepted by another instance and drained here.
    const adapter = key.slice(0, Math.max(0, key.indexOf(":")));
    this.safely("count", () =>
      this.observer?.count?.("baton.deliveries", 1, {
        ...this.attributes,
        adapter,
        outcome: spanOutcome(disposition),
      }),
    );
  }

  /** Records a duration for the observer; never throws. */
  recordDurationMs(
    name: string,
    durationMs: number,
    attributes: Partial<DispatchAttributes>,
  ): void {
    if (!this.observer?.recordDurationMs) return;
    this.safely("recordDurationMs", () =>
      this.observer?.recordDurationMs?.(name, durationMs, { ...this.attributes, ...attributes }),
    );
  }

  /** An observer that throws must never break dispatch. */
  private safely<T>(what: string, call: () => T): T | undefined {
    try {
      return call();
    } catch (error) {
      this.logger.warn(`observer failed in ${what}; dispatch continues`, { error });
      return undefined;
    }
  }
}

/** The closed-set outcome of a disposition: a `queued` one was handed off (ADR 0011). */
function spanOutcome(disposition: DeliveryDisposition): DispatchOutcome {
  return disposition === "queued" ? "handed-off" : disposition;
}

/** A span whose first `end` wins, so no path can close it twice. */
function endsOnce(span: DispatchSpan): DispatchSpan {
  let ended = false;
  return {
    setAttributes: (attributes) => {
      if (!ended) span.setAttributes(attributes);
    },
    end: (outcome, reason) => {
      if (ended) return;
      ended = true;
      span.end(outcome, reason);
    },
  };
}
