import { ValidationError } from "../errors/index.js";
import type { GatePath, GateTree, GateWaiter } from "./gate-tree.js";

/**
 * Which installations an exclusive action excludes (DESIGN §7.2). An installation is one adapter
 * with one tenant (`ProcessOptions.tenantId`):
 *
 * - `{ adapter, tenant }` — that tenant's installation only.
 * - `{ adapter }` — the adapter-wide installation: turns of the adapter that carry no tenant,
 *   AND every tenant of that adapter (the adapter's credentials and connection serve them all).
 * - `"all"` — every installation of every adapter (used by `chat.shutdown()`).
 */
export type GateScope = "all" | { readonly adapter: string; readonly tenant?: string | undefined };

/** One share a frame took on a node; lent to upgrades, returned when the last one ends. */
export interface Hold {
  readonly path: GatePath;
  /** Upgrades currently borrowing this share; while above 0 the share is not counted. */
  lent: number;
  ended: boolean;
}

/** What an async context is running: a turn or an exclusive action, nested in its parent's. */
export interface Frame<TTag> {
  readonly parent: Frame<TTag> | undefined;
  readonly kind: "turn" | "exclusive";
  readonly holds: Hold[];
  /** For an exclusive frame: the node it holds exclusively. */
  readonly exclusivePath: GatePath | undefined;
  /** Exclusive requests of one origin are siblings: they queue, never conflict. */
  readonly origin: object;
  readonly tag: TTag | undefined;
  ended: boolean;
}

/** A fresh turn's frame under `parent` (`undefined` at the top), with an origin of its own. */
export function turnFrame<TTag>(
  parent: Frame<TTag> | undefined,
  tag: TTag | undefined,
): Frame<TTag> {
  return {
    parent,
    kind: "turn",
    holds: [],
    exclusivePath: undefined,
    origin: {},
    tag,
    ended: false,
  };
}

/** One node a request passes on its way down the tree. */
export interface Step {
  readonly path: GatePath;
  readonly exclusive: boolean;
  /** The context already holds this node: take the share without waiting at the gate. */
  readonly bypass: boolean;
}

/** An acquisition in progress; see {@link acquireSteps}. */
export interface Acquisition {
  /** True once every step was granted, or the acquisition was cancelled. */
  readonly done: boolean;
  /** Withdraws the waiting request and gives back every share taken; false when too late. */
  cancel(): boolean;
}

/**
 * Takes `steps` in order, top-down, adding each share to `frame.holds`; calls `onDone` once all
 * are granted. Runs synchronously as far as the gates are open and continues from the tree's
 * grant callbacks, so the grant of the last step and a cancellation can never both happen.
 */
export function acquireSteps<TTag>(
  tree: GateTree,
  frame: Frame<TTag>,
  steps: readonly Step[],
  onDone: () => void,
): Acquisition {
  let index = 0;
  let current: { path: GatePath; waiter: GateWaiter } | undefined;
  let done = false;
  let cancelled = false;
  const taken = (step: Step) => {
    index += 1;
    current = undefined;
    if (!step.exclusive) frame.holds.push({ path: step.path, lent: 0, ended: false });
  };
  const advance = () => {
    while (index < steps.length) {
      const step = steps[index] as Step;
      const onGrant = () => {
        taken(step);
        advance();
      };
      const waiter = step.exclusive
        ? tree.requestExclusive(step.path, frame.origin, onGrant)
        : tree.requestShare(step.path, step.bypass, frame.origin, onGrant);
      if (waiter.state !== "granted") {
        current = { path: step.path, waiter };
        return;
      }
      taken(step);
    }
    done = true;
    onDone();
  };
  advance();
  return {
    get done() {
      return done || cancelled;
    },
    cancel: () => {
      if (done || cancelled || !current) return false;
      if (!tree.cancel(current.path, current.waiter)) return false;
      cancelled = true;
      for (const hold of frame.holds.splice(0).reverse()) tree.releaseShare(hold.path);
      return true;
    },
  };
}

/** The tree path of a scope; throws a `ValidationError` for a malformed one. */
export function pathOf(scope: GateScope, step: string): GatePath {
  if (scope === "all") return [];
  const adapter = (scope as { adapter?: unknown } | null)?.adapter;
  if (typeof adapter !== "string" || adapter.length === 0) {
    throw new ValidationError(
      `a gate scope is "all" or { adapter, tenant? } with a non-empty adapter name, got ${JSON.stringify(scope)}`,
      { step },
    );
  }
  const tenant = scope.tenant;
  if (tenant === undefined) return [adapter];
  if (typeof tenant !== "string" || tenant.length === 0) {
    throw new ValidationError(`tenant must be a non-empty string, got ${JSON.stringify(tenant)}`, {
      step,
    });
  }
  return [adapter, tenant];
}

/** `[]`, `[a]`, `[a, t]` for `[a, t]`: the nodes a request passes, top-down. */
export function prefixesOf(path: GatePath): GatePath[] {
  return Array.from({ length: path.length + 1 }, (_, length) => path.slice(0, length));
}

/** True when `outer` is `inner` or one of its ancestors. */
export function isPrefix(outer: GatePath, inner: GatePath): boolean {
  return outer.length <= inner.length && outer.every((key, index) => inner[index] === key);
}

/** Shares of the context's frames that are still running (lent or not). */
export function liveHolds<TTag>(frame: Frame<TTag> | undefined): Hold[] {
  const holds: Hold[] = [];
  for (let current = frame; current; current = current.parent) {
    if (!current.ended) holds.push(...current.holds.filter((hold) => !hold.ended));
  }
  return holds;
}

/** True when the context runs inside a live exclusive action that covers `path`. */
export function coversExclusive<TTag>(frame: Frame<TTag> | undefined, path: GatePath): boolean {
  for (let current = frame; current; current = current.parent) {
    if (current.ended || current.kind !== "exclusive" || !current.exclusivePath) continue;
    if (isPrefix(current.exclusivePath, path)) return true;
  }
  return false;
}

/**
 * True when the context already holds a counted share on `path`, or runs inside an exclusive
 * action covering it: a request there must not wait for the gate its own work keeps closed.
 */
export function coversLive<TTag>(frame: Frame<TTag> | undefined, path: GatePath): boolean {
  if (coversExclusive(frame, path)) return true;
  return liveHolds(frame).some(
    (hold) => hold.lent === 0 && hold.path.length === path.length && isPrefix(hold.path, path),
  );
}

/** The origin of requests made from this context: its innermost running frame's, or a new one. */
export function originOf<TTag>(frame: Frame<TTag> | undefined): object {
  for (let current = frame; current; current = current.parent) {
    if (!current.ended) return current.origin;
  }
  return {};
}
