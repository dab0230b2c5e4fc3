/**
 * Round trips one implementation made to its server in a measured window, by operation: the
 * Redis command name (`EVALSHA`, `SET`, …) or the first SQL keyword (`INSERT`, `BEGIN`, …).
 */
export interface RoundTripSnapshot {
  readonly total: number;
  readonly byOperation: Readonly<Record<string, number>>;
}

/** Counts round trips on the client side; `reset()` starts a window, `snapshot()` reads it. */
export interface RoundTripCounter {
  reset(): void;
  snapshot(): RoundTripSnapshot;
}

/** A tally of operations, shared by the Redis and Postgres counters. */
export class OperationTally implements RoundTripCounter {
  private counts = new Map<string, number>();
  private total = 0;

  /** Records one round trip of `operation`. */
  add(operation: string): void {
    this.total += 1;
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
  }

  reset(): void {
    this.counts = new Map();
    this.total = 0;
  }

  snapshot(): RoundTripSnapshot {
    const byOperation = Object.fromEntries(
      [...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b)),
    );
    return { total: this.total, byOperation };
  }
}

/** The counter of the memory backend: nothing crosses a network, so it always reads 0. */
export const NO_ROUND_TRIPS: RoundTripCounter = {
  reset() {},
  snapshot: () => ({ total: 0, byOperation: {} }),
};
