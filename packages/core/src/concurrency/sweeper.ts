import type { ClockTimer } from "../clock/clock.js";
import type { LocalHolders } from "./local-holders.js";
import type { Strategy, StrategyContext } from "./strategy.js";
import { recoverTurn } from "./turn-recovery.js";

/** How many pending queues one sweep looks at. */
const KEYS_PER_SWEEP = 100;

/**
 * Finds queues whose holder is gone and drains them. Every instance runs one: when a holder
 * crashes, its lock expires after one TTL and the next sweep (every `sweepIntervalMs`) takes the
 * lock and drains the queue — no new webhook needed. Sweeps never overlap.
 *
 * With durable turns a sweep first looks for interrupted turns (a turn record whose lock is free
 * or expired) and runs each again before its queue ({@link recoverTurn}); a turn handed back at
 * shutdown is free at once, so it runs again within one sweep interval.
 */
export class Sweeper {
  private timer: ClockTimer | undefined;
  private stopped = true;
  private readonly drains = new Set<Promise<void>>();

  constructor(
    private readonly context: StrategyContext,
    private readonly strategy: Strategy,
    private readonly holders: LocalHolders,
    /** Looks for lapsed holds first, so their notices come before the drains of their queues. */
    private readonly sweepHolds?: () => Promise<void>,
  ) {}

  start(): void {
    if (!this.strategy.drainOrphan || !this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** Stops sweeping and waits for drains it started. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.context.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.drains]);
  }

  /** One sweep: starts a drain for every pending queue no local holder is working on. */
  async sweepOnce(): Promise<void> {
    const drainOrphan = this.strategy.drainOrphan?.bind(this.strategy);
    if (!drainOrphan) return;
    await this.sweepHolds?.();
    await this.sweepTurns();
    let keys: string[];
    try {
      keys = await this.context.state.pendingQueueKeys(KEYS_PER_SWEEP);
    } catch (error) {
      this.context.logger.warn("sweep for orphaned queues failed", { error });
      return;
    }
    for (const lockKey of keys) {
      if (this.holders.has(lockKey) || this.context.shutdownSignal.aborted) continue;
      this.startDrain(lockKey, () => drainOrphan(lockKey), "draining an orphaned queue failed");
    }
  }

  /** Starts a recovery for every interrupted turn no local holder is working on. */
  private async sweepTurns(): Promise<void> {
    const { context } = this;
    if (!context.durableTurns || !context.state.pendingTurnKeys) return;
    let keys: string[];
    try {
      keys = await context.state.pendingTurnKeys(KEYS_PER_SWEEP);
    } catch (error) {
      context.logger.warn("sweep for interrupted turns failed", { error });
      return;
    }
    for (const lockKey of keys) {
      if (this.holders.has(lockKey) || context.shutdownSignal.aborted) continue;
      this.startDrain(
        lockKey,
        () => recoverTurn(context, this.holders, lockKey),
        "recovering an interrupted turn failed",
      );
    }
  }

  private startDrain(lockKey: string, work: () => Promise<unknown>, failure: string): void {
    const drain = work()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.context.logger.warn(failure, { lockKey, error });
      })
      .finally(() => this.drains.delete(drain));
    this.drains.add(drain);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.context.clock.setTimeout(() => {
      void this.sweepOnce().finally(() => this.schedule());
    }, this.context.settings.sweepIntervalMs);
  }
}
