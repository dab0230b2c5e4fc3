/** An opaque handle for a timer scheduled on a {@link Clock}. */
export type ClockTimer = { readonly id: number } | ReturnType<typeof setTimeout>;

/**
 * The source of time for everything in Baton that waits or expires. Injected so tests advance
 * time instead of sleeping. Times are epoch milliseconds.
 */
export interface Clock {
  /** Current time in epoch milliseconds. Never decreases for a given clock. */
  now(): number;
  /** Runs `callback` once, `delayMs` from now (a delay below 0 counts as 0). */
  setTimeout(callback: () => void, delayMs: number): ClockTimer;
  /** Cancels a timer; cancelling a fired or unknown timer does nothing. */
  clearTimeout(timer: ClockTimer): void;
}

/** The real clock: `Date.now()` and the platform timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => setTimeout(callback, Math.max(0, delayMs)),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** Resolves after `delayMs` of `clock` time; rejects with the signal's reason if it aborts first. */
export function sleep(clock: Clock, delayMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
