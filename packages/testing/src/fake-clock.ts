import { type Clock, type ClockTimer, ValidationError } from "@baton/core";

/** Options of {@link createFakeClock}. */
export interface FakeClockOptions {
  /**
   * Event-loop turns (`setImmediate`) awaited before the first timer and after each timer, so
   * promise chains started by a callback run before the next timer fires. Default 3.
   */
  settleTurns?: number;
  /**
   * The most timers one `advance`, `advanceTo` or `runAll` fires before it throws, to catch a
   * timer that keeps rescheduling itself. Default 10 000.
   */
  maxTimersPerRun?: number;
}

interface FakeTimer {
  readonly id: number;
  readonly dueAt: number;
  readonly seq: number;
  readonly callback: () => void;
}

/** The default start of a fake clock: 2026-01-01T00:00:00Z. */
export const FAKE_CLOCK_START_MS = Date.UTC(2026, 0, 1);

/**
 * A `Clock` whose time moves only when the test says so. Timers fire in due-time order (ties in
 * scheduling order), each at its own due time, with promises given time to settle between timers;
 * timers that callbacks schedule inside the window fire in the same call. A callback that throws
 * makes the advancing call reject with that error; later timers stay pending.
 */
export class FakeClock implements Clock {
  private current: number;
  private readonly timers = new Map<number, FakeTimer>();
  private nextId = 1;
  private nextSeq = 1;
  private running = false;
  private readonly settleTurns: number;
  private readonly maxTimersPerRun: number;

  constructor(startMs: number = FAKE_CLOCK_START_MS, options: FakeClockOptions = {}) {
    if (!Number.isFinite(startMs)) {
      throw new ValidationError("startMs must be a finite number", { step: "create fake clock" });
    }
    this.current = startMs;
    this.settleTurns = options.settleTurns ?? 3;
    this.maxTimersPerRun = options.maxTimersPerRun ?? 10_000;
    if (!Number.isInteger(this.settleTurns) || this.settleTurns < 1) {
      throw new ValidationError("settleTurns must be a positive integer", {
        step: "create fake clock",
      });
    }
    if (!Number.isInteger(this.maxTimersPerRun) || this.maxTimersPerRun < 1) {
      throw new ValidationError("maxTimersPerRun must be a positive integer", {
        step: "create fake clock",
      });
    }
  }

  /** The fake time in epoch milliseconds; never decreases. */
  readonly now = (): number => this.current;

  /** Schedules `callback` at `now() + delayMs` (a negative or non-finite delay counts as 0). */
  readonly setTimeout = (callback: () => void, delayMs: number): ClockTimer => {
    if (typeof callback !== "function") {
      throw new ValidationError("callback must be a function", { step: "set timeout" });
    }
    const delay = Number.isFinite(delayMs) ? Math.max(0, delayMs) : 0;
    const timer: FakeTimer = {
      id: this.nextId++,
      dueAt: this.current + delay,
      seq: this.nextSeq++,
      callback,
    };
    this.timers.set(timer.id, timer);
    return { id: timer.id };
  };

  /** Cancels a timer; a fired, cancelled or foreign timer is ignored. */
  readonly clearTimeout = (timer: ClockTimer): void => {
    const id = (timer as { id?: unknown } | undefined)?.id;
    if (typeof id === "number") this.timers.delete(id);
  };

  /** Timers scheduled and neither fired nor cancelled. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** The due time of the earliest pending timer, or `null` when none is pending. */
  get nextTimerAt(): number | null {
    return this.earliest(Number.POSITIVE_INFINITY)?.dueAt ?? null;
  }

  /**
   * Moves time forward by `ms`, firing every timer due up to `now() + ms` in order (see the class
   * note), then leaves `now()` at `now() + ms`. `advance(0)` fires timers already due.
   */
  advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) {
      return Promise.reject(
        new ValidationError(`ms must be a finite number ≥ 0, got ${ms}`, { step: "advance" }),
      );
    }
    return this.run(this.current + ms, "advance");
  }

  /** Like `advance`, to the absolute epoch time `timeMs`; a time before `now()` is refused. */
  advanceTo(timeMs: number): Promise<void> {
    if (!Number.isFinite(timeMs) || timeMs < this.current) {
      return Promise.reject(
        new ValidationError(
          `timeMs must be a finite time ≥ now() (${this.current}), got ${timeMs}`,
          {
            step: "advance to",
          },
        ),
      );
    }
    return this.run(timeMs, "advanceTo");
  }

  /**
   * Fires timers in order, moving time to each, until none is pending. Rejects after
   * `maxTimersPerRun` timers, since a pending timer is then almost surely rescheduling itself.
   */
  runAll(): Promise<void> {
    return this.run(null, "runAll");
  }

  /** Lets pending promise chains run without moving time. */
  async settle(): Promise<void> {
    for (let turn = 0; turn < this.settleTurns; turn++) await nextTurn();
  }

  private async run(targetMs: number | null, step: string): Promise<void> {
    if (this.running) {
      throw new ValidationError("another advance, advanceTo or runAll is still running; await it", {
        step,
      });
    }
    this.running = true;
    try {
      await this.settle();
      let fired = 0;
      for (;;) {
        const timer = this.earliest(targetMs ?? Number.POSITIVE_INFINITY);
        if (!timer) break;
        if (fired >= this.maxTimersPerRun) {
          throw new Error(
            `${step}: fired ${fired} timers and ${this.timers.size} are still due; does a timer reschedule itself forever? (maxTimersPerRun)`,
          );
        }
        fired += 1;
        this.timers.delete(timer.id);
        this.current = Math.max(this.current, timer.dueAt);
        timer.callback();
        await this.settle();
      }
      if (targetMs !== null) this.current = Math.max(this.current, targetMs);
    } finally {
      this.running = false;
    }
  }

  private earliest(limitMs: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const timer of this.timers.values()) {
      if (timer.dueAt > limitMs) continue;
      if (
        !best ||
        timer.dueAt < best.dueAt ||
        (timer.dueAt === best.dueAt && timer.seq < best.seq)
      ) {
        best = timer;
      }
    }
    return best;
  }
}

/** Creates a {@link FakeClock} starting at `startMs` (default 2026-01-01T00:00:00Z). */
export function createFakeClock(
  startMs: number = FAKE_CLOCK_START_MS,
  options?: FakeClockOptions,
): FakeClock {
  return new FakeClock(startMs, options);
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else globalThis.setTimeout(resolve, 0);
  });
}
