import type { DeliveryDisposition } from "../concurrency/strategy.js";
import type { DeliveryResult } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type {
  DispatchAttributes,
  DispatchOutcome,
  DispatchSpan,
  Observer,
} from "../contracts/observer.js";

interface Pending {
  readonly lockKey: string;
  readonly span: DispatchSpan | undefined;
  readonly resolve: (result: DeliveryResult) => void;
}

/**
 * The deliveries this process accepted and has not yet settled. Each gets exactly one
 * disposition: the first `settle` wins, closes its dispatch span and resolves the promise the
 * caller of `processMessage` awaits. Dispositions of deliveries accepted elsewhere (drained from
 * the shared queue) are counted and logged here too, so nothing ends unseen.
 */
export class DeliveryRegistry {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly observer: Observer | undefined,
    private readonly logger: Logger,
    private readonly attributes: Omit<DispatchAttributes, "adapter">,
  ) {}

  /** Opens the span of a delivery that has not been accepted yet (before dedupe). */
  startSpan(adapter: string): DispatchSpan | undefined {
    return this.safely("startDispatch", () =>
      this.observer?.startDispatch?.({ adapter, ...this.attributes }),
    );
  }

  /** Ends a span whose delivery never reached a strategy (ignored, duplicate, error). */
  endSpan(span: DispatchSpan | undefined, outcome: DispatchOutcome, reason?: string): void {
    this.safely("end span", () => span?.end(outcome, reason));
  }

  /** Starts waiting for the disposition of an accepted delivery. */
  track(key: string, lockKey: string, span: DispatchSpan | undefined): Promise<DeliveryResult> {
    return new Promise((resolve) => this.pending.set(key, { lockKey, span, resolve }));
  }

  isSettled(key: string): boolean {
    return !this.pending.has(key);
  }

  /** Records `disposition` for `key`; only the first call for a tracked key has an effect. */
  settle(key: string, disposition: DeliveryDisposition, reason?: string): void {
    const entry = this.pending.get(key);
    this.count(disposition);
    if (!entry) {
      this.logger.debug("delivery settled", { deliveryKey: key, outcome: disposition, reason });
      return;
    }
    this.pending.delete(key);
    if (disposition !== "queued") this.endSpan(entry.span, disposition, reason);
    entry.resolve(
      reason === undefined ? { outcome: disposition } : { outcome: disposition, reason },
    );
  }

  /** Settles every waiting delivery of `lockKey` as handed off to another process. */
  handOff(lockKey: string): void {
    for (const [key, entry] of [...this.pending]) {
      if (entry.lockKey === lockKey) this.settle(key, "queued", "held by another instance");
    }
  }

  /** Settles every waiting delivery, e.g. at shutdown when their entries stay queued. */
  settleAll(disposition: DeliveryDisposition, reason: string): void {
    for (const key of [...this.pending.keys()]) this.settle(key, disposition, reason);
  }

  get size(): number {
    return this.pending.size;
  }

  private count(disposition: DeliveryDisposition): void {
    this.safely("count", () =>
      this.observer?.count?.(`baton.delivery.${disposition}`, 1, this.attributes),
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
