import type { WebAdapter } from "@baton/adapter-web";
import { type Clock, type Observer, type StateAdapter, systemClock } from "@baton/core";

/**
 * Everything one instance of the demo bot reaches the outside world through: its connection to
 * the shared State, its view of the shared web adapter, its clock and its telemetry. `kill()`
 * cuts all of it at once, the way SIGKILL ends a process: no cleanup, no hand-back, no last
 * word.
 */
export interface InstanceLink {
  /** The shared State, as this instance sees it. `disconnect()` never wipes the shared one. */
  readonly state: StateAdapter;
  /** The shared web adapter, as this instance sees it; see {@link createInstanceLink}. */
  readonly adapter: WebAdapter;
  /** The system clock, whose timers do nothing once the instance is killed. */
  readonly clock: Clock;
  readonly alive: boolean;
  /** Resolves when the instance is killed. */
  readonly died: Promise<void>;
  /** Passes `observer`'s events on while the instance lives. */
  observe(observer: Observer): Observer;
  kill(): void;
}

/** Adapter methods that do no I/O: a dead instance never gets to call them anyway. */
const PURE_ADAPTER_METHODS = new Set<PropertyKey>([
  "encodeThreadId",
  "decodeThreadId",
  "channelIdFromThreadId",
  "isDM",
  "parseMessage",
]);

/**
 * A link to `shared` and `adapter` for one instance. After `kill()`:
 * - every State call never resolves — neither calls made later (renewals, releases, the
 *   handler's own writes) nor the answers of calls still in flight — so the instance's locks
 *   lapse by the State's clock and its turn records stay for another instance's sweeper;
 * - every adapter call that talks to the platform (post, edit, typing…) never resolves, so a
 *   dead instance posts nothing;
 * - its timers fire into nothing: its handler's "thinking", its lease keeper and its sweeper
 *   stop where they are;
 * - it reports no more dispatch events.
 *
 * The adapter view keeps `initialize` and `disconnect` to itself: the shared adapter's host is
 * the playground's router (which picks an instance per message), and its event streams belong to
 * the pages, not to any one `Chat`.
 */
export function createInstanceLink(shared: StateAdapter, adapter: WebAdapter): InstanceLink {
  let alive = true;
  let die = () => {};
  const died = new Promise<void>((resolve) => {
    die = resolve;
  });
  const never = new Promise<never>(() => {});
  const cut = (call: () => unknown): unknown => {
    if (!alive) return never;
    const result = call();
    if (!(result instanceof Promise)) return result;
    return result.then(
      (value: unknown) => (alive ? value : never),
      (error: unknown) => (alive ? Promise.reject(error) : never),
    );
  };

  const state = new Proxy(shared, {
    get(target, property) {
      if (property === "disconnect") return async () => {};
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => cut(() => value.apply(target, args));
    },
  });

  const view = new Proxy(adapter, {
    get(target, property) {
      if (property === "initialize" || property === "disconnect") return async () => {};
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (PURE_ADAPTER_METHODS.has(property)) return value.bind(target);
      return (...args: unknown[]) => cut(() => value.apply(target, args));
    },
  });

  const clock: Clock = {
    now: () => systemClock.now(),
    setTimeout: (callback, delayMs) =>
      systemClock.setTimeout(() => {
        if (alive) callback();
      }, delayMs),
    clearTimeout: (timer) => systemClock.clearTimeout(timer),
  };

  return {
    state,
    adapter: view,
    clock,
    get alive() {
      return alive;
    },
    died,
    observe(observer) {
      return {
        onDispatchEvent(event) {
          if (alive) observer.onDispatchEvent?.(event);
        },
      };
    },
    kill() {
      alive = false;
      die();
    },
  };
}
