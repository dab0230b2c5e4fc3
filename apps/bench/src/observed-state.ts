/** Calls to a State adapter's methods, by method name. */
export type StateCalls = Readonly<Record<string, number>>;

/** A State adapter wrapped by {@link observeState}, and what was seen. */
export interface ObservedState<S extends object> {
  /** Pass this to the Chat in place of the adapter. */
  readonly state: S;
  /** Method calls since the last `reset()`, by name. */
  calls(): StateCalls;
  /** Total method calls since the last `reset()`. */
  totalCalls(): number;
  reset(): void;
  /**
   * Resolves once `count` enqueues on `key` have completed since this call was made, or after
   * `timeoutMs` (resolving `false`). The contended scenario uses it to hold the first handler of
   * a thread until every contender is queued, so each thread splits into the same batches on
   * every run and both implementations are compared on identical work. Only `enqueue` is
   * watched: should a runtime queue through another method (a fused fast path), the wait times
   * out, the scenario reports it, and that method's name belongs here.
   */
  enqueued(key: string, count: number, timeoutMs: number): Promise<boolean>;
}

interface Waiter {
  remaining: number;
  resolve(done: boolean): void;
}

/**
 * Wraps a State adapter (Baton's or upstream's) in a Proxy that counts method calls and reports
 * completed enqueues. It observes and never alters: every call goes to the real adapter with
 * `this` bound to it (so private fields keep working), its result is returned untouched, and
 * properties that are not functions pass through. Optional methods stay absent, so a runtime's
 * feature detection (e.g. DESIGN §4.1's fused fast paths) sees what the adapter really offers.
 */
export function observeState<S extends object>(target: S): ObservedState<S> {
  let counts = new Map<string, number>();
  const waiters = new Map<string, Set<Waiter>>();

  const onEnqueued = (key: string) => {
    for (const waiter of waiters.get(key) ?? []) {
      waiter.remaining -= 1;
      if (waiter.remaining <= 0) waiter.resolve(true);
    }
  };

  const state = new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      if (property === "constructor") return value;
      return (...args: unknown[]) => {
        counts.set(property, (counts.get(property) ?? 0) + 1);
        const result = (value as (...a: unknown[]) => unknown).apply(object, args);
        if (property === "enqueue" && typeof args[0] === "string") {
          const key = args[0];
          void Promise.resolve(result).then(
            () => onEnqueued(key),
            () => undefined,
          );
        }
        return result;
      };
    },
  });

  return {
    state,
    calls: () => Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b))),
    totalCalls: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    reset() {
      counts = new Map();
    },
    enqueued(key, count, timeoutMs) {
      if (count <= 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const set = waiters.get(key) ?? new Set<Waiter>();
        waiters.set(key, set);
        const timer = setTimeout(() => finish(false), timeoutMs);
        const waiter: Waiter = { remaining: count, resolve: (done) => finish(done) };
        function finish(done: boolean) {
          clearTimeout(timer);
          set.delete(waiter);
          if (set.size === 0) waiters.delete(key);
          resolve(done);
        }
        set.add(waiter);
      });
    },
  };
}
