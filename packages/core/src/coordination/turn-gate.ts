import type { Clock, ClockTimer } from "../clock/clock.js";
import { ValidationError } from "../errors/index.js";
import { currentScope, enterScope, frameOf } from "./async-scope.js";
import {
  acquireSteps,
  coversExclusive,
  coversLive,
  type Frame,
  type GateScope,
  type Hold,
  isPrefix,
  liveHolds,
  originOf,
  pathOf,
  prefixesOf,
  type Step,
  turnFrame,
} from "./gate-frames.js";
import { GateTree } from "./gate-tree.js";
import { type TurnPlan, TurnPlans } from "./turn-plans.js";

export type { GateScope } from "./gate-frames.js";

/**
 * The outcome of {@link TurnGate.tryWithExclusive}. After `acquired: false` the action has not
 * run and never will: the decision between the hand-off and the deadline is made once.
 */
export type ExclusiveAttempt<T> =
  | { readonly acquired: true; readonly value: T }
  | { readonly acquired: false; readonly reason: "timeout" | "upgrade-conflict" };

/** Options of {@link TurnGate.tryWithExclusive}. */
export interface TryExclusiveOptions {
  /** Milliseconds from now, by the gate's clock, to wait for the gate; 0 means "only if free now". */
  readonly deadline: number;
}

/** Options of {@link TurnGate.runTurn}. */
export interface TurnOptions<TTag> {
  /**
   * Stops waiting at a closed gate: the turn is not admitted and the call rejects with the reason.
   * A function is called only if the turn has to wait, so a turn admitted at once (the usual
   * case) never makes a signal it does not need.
   */
  readonly signal?: AbortSignal | (() => AbortSignal);
  /** Any value the runtime wants to find again from inside the turn ({@link TurnGate.findTag}). */
  readonly tag?: TTag;
  /**
   * The conversation the turn serves, made the active one (`activeConversation()`) inside it in
   * the same async-context step as the turn itself. Absent: the caller's stays active.
   */
  readonly conversationId?: string;
}

/**
 * The turn gate of one `Chat` (DESIGN §7.2), in-process, per installation. Handler runs are
 * turns and run concurrently; an exclusive action closes the gate of its scope to new turns,
 * waits for the admitted ones to finish, runs alone and reopens the gate. Guarantees:
 *
 * - Two exclusive actions whose scopes overlap never run at the same time; turns of an
 *   installation never run while an exclusive action covering it runs (except work the action
 *   itself starts). Installations are isolated: a tenant's action waits only for that tenant.
 * - A waiting exclusive action closes the gate (writer preference), so a stream of turns cannot
 *   starve it. Exclusive actions on one node run in arrival order.
 * - Inside a turn, an exclusive action on the turn's own installation (or wider) *upgrades*: the
 *   turn lends its share, the action waits for the other turns, runs, and the turn takes its share
 *   back before the gate reopens — so an action queued meanwhile waits for the rest of the turn.
 *   Several upgrades of one turn (e.g. `Promise.all`) share one loan and run one after another;
 *   an upgrade that outlives its turn gives nothing back, so no phantom turn is left.
 * - The current turn is found with `AsyncLocalStorage`; a turn that has ended is ignored, so work
 *   spawned by a finished turn is an outsider. {@link runDetached} starts work that is an
 *   outsider from the start.
 * - An action that throws leaves the gate fully reopened; `tryWithExclusive` never runs its action
 *   after answering `acquired: false`.
 */
export class TurnGate<TTag = unknown> {
  private readonly tree = new GateTree();
  private readonly plans = new TurnPlans();

  constructor(private readonly clock: Clock) {}

  /**
   * Runs `fn` as a turn of the installation `(adapter, tenant)`: waits while an exclusive action
   * covers it, then counts as running until `fn` settles. A turn started inside a live turn or
   * exclusive action that already covers the installation is admitted at once (it is part of
   * that work; making it wait would deadlock on itself).
   */
  runTurn<T>(
    scope: { readonly adapter: string; readonly tenant?: string | undefined },
    fn: () => T | Promise<T>,
    options: TurnOptions<TTag> = {},
  ): Promise<T> {
    let plan: TurnPlan;
    try {
      plan = this.plans.of(scope);
    } catch (error) {
      return Promise.reject(error);
    }
    const parent = this.current();
    const frame = turnFrame(parent, options.tag);
    const { conversationId } = options;
    if (this.admitNow(frame, plan)) return this.runAdmitted(frame, fn, conversationId);
    const steps = plan.prefixes.map((prefix) => ({
      path: prefix,
      exclusive: false,
      bypass: coversLive(parent, prefix),
    }));
    const waiting = this.admit(frame, steps, options.signal);
    if (!waiting) return this.runAdmitted(frame, fn, conversationId);
    return waiting.then(() => this.runAdmitted(frame, fn, conversationId));
  }

  /**
   * {@link runTurn} when the turn can be admitted at once (no exclusive action covers it, and the
   * caller is not inside a turn of this gate): runs `fn` as that turn and returns its promise,
   * which rejects only with `fn`'s own error. Otherwise returns `undefined` and runs nothing.
   */
  tryRunTurn<T>(
    scope: { readonly adapter: string; readonly tenant?: string | undefined },
    fn: () => T | Promise<T>,
    options: Omit<TurnOptions<TTag>, "signal"> = {},
  ): Promise<T> | undefined {
    const plan = this.plans.of(scope);
    if (this.current()) return undefined;
    const frame = turnFrame<TTag>(undefined, options.tag);
    if (!this.admitNow(frame, plan)) return undefined;
    return this.runAdmitted(frame, fn, options.conversationId);
  }

  /**
   * Outside any turn of this gate, with every gate on the way open (the usual case): takes all
   * the shares at once, without a promise, and returns true. Otherwise takes nothing.
   */
  private admitNow(frame: Frame<TTag>, plan: TurnPlan): boolean {
    if (frame.parent || !this.tree.shareAlongIfOpen(plan.path)) return false;
    for (const prefix of plan.prefixes) frame.holds.push({ path: prefix, lent: 0, ended: false });
    return true;
  }

  /**
   * Runs an admitted turn's `fn` inside its frame and ends the frame when `fn` settles. (Not an
   * async function: one promise per turn instead of two.)
   */
  private runAdmitted<T>(
    frame: Frame<TTag>,
    fn: () => T | Promise<T>,
    conversationId: string | undefined,
  ): Promise<T> {
    let result: T | Promise<T>;
    try {
      result = this.within(frame, fn, conversationId);
    } catch (error) {
      this.end(frame);
      return Promise.reject(error);
    }
    return Promise.resolve(result).then(
      (value) => {
        this.end(frame);
        return value;
      },
      (error: unknown) => {
        this.end(frame);
        throw error;
      },
    );
  }

  /**
   * Runs `fn` as an exclusive action on `scope` and resolves with its value (or rejects with its
   * error, after reopening the gate). Waits as long as it takes; see {@link tryWithExclusive}.
   */
  async withExclusive<T>(scope: GateScope, fn: () => T | Promise<T>): Promise<T> {
    const attempt = await this.exclusive(scope, fn, undefined, "run exclusive action");
    if (!attempt.acquired) throw new Error("unreachable: an untimed exclusive action gave up");
    return attempt.value;
  }

  /**
   * Like {@link withExclusive}, but gives up after `deadline` ms (`timeout`), or at once with
   * `upgrade-conflict` when called from inside a turn while an exclusive action of another
   * origin holds or waits on the gate — the turn's view is about to change under it, so it should
   * re-check rather than queue a second action. `acquired: false` means the action never runs.
   */
  tryWithExclusive<T>(
    scope: GateScope,
    options: TryExclusiveOptions,
    fn: () => T | Promise<T>,
  ): Promise<ExclusiveAttempt<T>> {
    const deadline = options?.deadline;
    if (typeof deadline !== "number" || !(deadline >= 0) || !Number.isFinite(deadline)) {
      return Promise.reject(
        new ValidationError(`deadline must be a finite number of ms ≥ 0, got ${deadline}`, {
          step: "try exclusive action",
        }),
      );
    }
    return this.exclusive(scope, fn, deadline, "try exclusive action");
  }

  /**
   * Runs `fn` outside any turn or exclusive action, even when called from inside one: it queues
   * at gates like an outsider and never upgrades. For work that must not inherit the current
   * turn (detached handlers, background jobs). Do not await it from inside a turn that a pending
   * exclusive action waits for.
   */
  runDetached<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.within(undefined, async () => fn());
  }

  /**
   * The tag of the innermost turn of the current async context that has not ended and whose tag
   * matches; `undefined` outside turns, in detached work and after the turn ended.
   */
  findTag(match: (tag: TTag) => boolean): TTag | undefined {
    for (let frame = this.current(); frame; frame = frame.parent) {
      if (frame.kind !== "turn" || frame.ended || frame.tag === undefined) continue;
      if (match(frame.tag)) return frame.tag;
    }
    return undefined;
  }

  /** Turns (and exclusive actions below it) currently counted on `scope`'s gate. */
  activeTurns(scope: GateScope): number {
    return this.tree.sharesAt(pathOf(scope, "inspect turn gate"));
  }

  /** True while an exclusive action holds or waits on `scope`'s own gate. */
  isClosed(scope: GateScope): boolean {
    return this.tree.isClosed(pathOf(scope, "inspect turn gate"));
  }

  /** True when no turn runs and no exclusive action holds or waits anywhere. */
  get idle(): boolean {
    return this.tree.idle;
  }

  private async exclusive<T>(
    scope: GateScope,
    fn: () => T | Promise<T>,
    deadline: number | undefined,
    step: string,
  ): Promise<ExclusiveAttempt<T>> {
    const path = pathOf(scope, step);
    const parent = this.current();
    // Inside an action that already excludes this scope: part of that action, run inline.
    if (coversExclusive(parent, path)) return { acquired: true, value: await fn() };
    const origin = originOf(parent);
    // Every live share of this context at or below `path` is lent: the action must not wait for
    // its own turn. Computed from the shares themselves, not from an "am I upgrading?" flag.
    const lent = liveHolds(parent).filter((hold) => isPrefix(path, hold.path));
    if (deadline !== undefined && lent.length > 0 && this.tree.hasForeignExclusive(path, origin)) {
      return { acquired: false, reason: "upgrade-conflict" };
    }
    for (const hold of lent) this.lend(hold);
    const frame: Frame<TTag> = {
      parent,
      kind: "exclusive",
      holds: [],
      exclusivePath: path,
      origin,
      tag: undefined,
      ended: false,
    };
    const steps: Step[] = prefixesOf(path).map((prefix) => ({
      path: prefix,
      exclusive: prefix.length === path.length,
      bypass: prefix.length < path.length && coversLive(parent, prefix),
    }));
    const admitted = await this.admitBefore(frame, steps, deadline, () => this.giveBack(lent));
    if (!admitted) return { acquired: false, reason: "timeout" };
    try {
      return { acquired: true, value: await this.within(frame, fn) };
    } finally {
      // The turn's share comes back BEFORE the gate reopens: an action queued behind this one
      // must then wait for the rest of the turn.
      this.giveBack(lent);
      this.end(frame);
    }
  }

  /** This gate's frame in the current async context. */
  private current(): Frame<TTag> | undefined {
    return frameOf(currentScope(), this) as Frame<TTag> | undefined;
  }

  /**
   * Runs `fn` with `frame` as this gate's frame (none: outside every turn of this gate), and
   * `conversationId` as the active conversation when given.
   */
  private within<R>(frame: Frame<TTag> | undefined, fn: () => R, conversationId?: string): R {
    const outer = currentScope();
    return enterScope(
      { gate: this, frame, conversationId: conversationId ?? outer?.conversationId, outer },
      fn,
    );
  }

  /**
   * Takes every step. Returns `undefined` when all were granted at once (no promise made), else
   * a promise that resolves once they are, or rejects (having taken nothing) when `signal` aborts
   * first.
   */
  private admit(
    frame: Frame<TTag>,
    steps: readonly Step[],
    signalOption: TurnOptions<TTag>["signal"],
  ): Promise<void> | undefined {
    let granted: (() => void) | undefined;
    const acquisition = acquireSteps(this.tree, frame, steps, () => granted?.());
    if (acquisition.done) return undefined;
    return new Promise((resolve, reject) => {
      const signal = typeof signalOption === "function" ? signalOption() : signalOption;
      const onAbort = () => {
        if (acquisition.cancel()) reject(signal?.reason);
      };
      granted = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Waits for every step until `deadline` ms (none: forever). Resolves true when admitted, false
   * when the deadline won. Grant and deadline are decided synchronously, exactly once: whichever
   * comes first settles the attempt and the other finds nothing left to do.
   */
  private admitBefore(
    frame: Frame<TTag>,
    steps: readonly Step[],
    deadline: number | undefined,
    beforeCancel: () => void,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: ClockTimer | undefined;
      const acquisition = acquireSteps(this.tree, frame, steps, () => {
        if (timer !== undefined) this.clock.clearTimeout(timer);
        resolve(true);
      });
      if (acquisition.done || deadline === undefined) return;
      const giveUp = () => {
        if (acquisition.done) return;
        // Shares lent by an upgrade are counted again first, so no request granted by the
        // cancellation below can start while the turn is running again.
        beforeCancel();
        acquisition.cancel();
        resolve(false);
      };
      if (deadline === 0) giveUp();
      else timer = this.clock.setTimeout(giveUp, deadline);
    });
  }

  private lend(hold: Hold): void {
    hold.lent += 1;
    if (hold.lent === 1 && !hold.ended) this.tree.releaseShare(hold.path);
  }

  /** Returns lent shares; the last upgrade of a still-running turn counts the share again. */
  private giveBack(holds: Hold[]): void {
    for (const hold of holds.splice(0)) {
      hold.lent -= 1;
      if (hold.lent === 0 && !hold.ended) this.tree.forceShare(hold.path);
    }
  }

  /** Ends a frame: its shares not lent are released, its exclusive hold (if any) reopened. */
  private end(frame: Frame<TTag>): void {
    frame.ended = true;
    if (frame.kind === "exclusive" && frame.exclusivePath) {
      this.tree.releaseExclusive(frame.exclusivePath);
    }
    for (const hold of [...frame.holds].reverse()) {
      hold.ended = true;
      if (hold.lent === 0) this.tree.releaseShare(hold.path);
    }
  }
}
