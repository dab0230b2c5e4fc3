import type { StateAdapter } from "@baton/core";

/**
 * One instance's connection to a State shared by several in-process instances. `kill()` makes it
 * behave as a SIGKILLed process does to the others: every later call (renewals, releases, the
 * handler's own writes) never arrives, so its locks lapse by the State's clock and nothing of it
 * is cleaned up. `disconnect()` is the instance's own: it never wipes the shared State, as closing
 * one process's Redis connection would not.
 */
export function instanceState(shared: StateAdapter): { state: StateAdapter; kill(): void } {
  let dead = false;
  const never = new Promise<never>(() => {});
  const state = new Proxy(shared, {
    get(target, property, receiver) {
      if (property === "disconnect") return async () => {};
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => (dead ? never : value.apply(target, args));
    },
  });
  return {
    state,
    kill() {
      dead = true;
    },
  };
}
