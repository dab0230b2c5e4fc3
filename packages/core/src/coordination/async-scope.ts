import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What an async context carries for Baton: the frame of each turn gate it runs in, and the
 * conversation whose handler it runs. A scope is entered with {@link enterScope} and links to the
 * scope it was entered from, so entering costs one small object and no copy.
 */
export interface AsyncScope {
  /** The turn gate whose frame this scope sets; `undefined` when it sets none. */
  readonly gate: object | undefined;
  /** That gate's frame here; `undefined` means "outside every turn of that gate". */
  readonly frame: unknown;
  /** The active conversation (thread or channel id), inherited unless a scope sets another. */
  readonly conversationId: string | undefined;
  /** The scope this one was entered from. */
  readonly outer: AsyncScope | undefined;
}

/**
 * One storage for the whole process, whatever the number of `Chat`s: on Node 20 every
 * AsyncLocalStorage in use makes every promise created anywhere pay a propagation step, so the
 * turn gates and the active conversation share this one instead of having one each.
 */
const storage = new AsyncLocalStorage<AsyncScope>();

/** The scope of the current async context; `undefined` outside every scope. */
export function currentScope(): AsyncScope | undefined {
  return storage.getStore();
}

/** Runs `fn` in `scope` (whose `outer` should be {@link currentScope}) and returns its result. */
export function enterScope<T>(scope: AsyncScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The frame `gate` has in `scope`: the innermost scope that set one, else `undefined`. */
export function frameOf(scope: AsyncScope | undefined, gate: object): unknown {
  for (let current = scope; current; current = current.outer) {
    if (current.gate === gate) return current.frame;
  }
  return undefined;
}
