import { AsyncLocalStorage } from "node:async_hooks";
import { type Clock, sleep } from "@baton/core";
import type { ExclusiveAttempt } from "../../src/coordination/turn-gate.js";

/** One installation, as the scenarios name it. */
export interface Installation {
  readonly adapter: string;
  readonly tenant?: string;
}

/** The part of the turn gate the scenarios drive; the real `TurnGate` and the naive gates below. */
export interface GateUnderTest {
  runTurn<T>(scope: Installation, fn: () => T | Promise<T>): Promise<T>;
  withExclusive<T>(scope: Installation, fn: () => T | Promise<T>): Promise<T>;
  tryWithExclusive<T>(
    scope: Installation,
    options: { deadline: number },
    fn: () => T | Promise<T>,
  ): Promise<ExclusiveAttempt<T>>;
  runDetached<T>(fn: () => T | Promise<T>): Promise<T>;
}

/**
 * The deliberately naive designs the turn gate's tests must tell apart from the real one. Each
 * is a bug seen in production turn gates (DESIGN §7.2), one per variant:
 *
 * - `snapshot-upgrade`: "am I upgrading?" is a snapshot taken at entry (is my turn counted?), so
 *   the second of two concurrent upgrades from one turn waits for that very turn — deadlock.
 * - `no-upgrade`: an exclusive action inside a turn waits for every turn, its own included.
 * - `reopen-then-reclaim`: the upgrade reopens the gate, then waits to get its turn back, so an
 *   exclusive action queued meanwhile runs before the rest of the turn.
 * - `reclaim-after-turn-ended`: the upgrade always takes its turn back, even when the turn ended
 *   meanwhile (fire-and-forget) — a phantom turn that starves every later exclusive action.
 * - `inherit-ended-turn`: the turn found in async context is trusted without asking whether it
 *   ended, so work spawned by a finished turn "upgrades" a turn that no longer counts.
 * - `detach-inherits`: `runDetached` does not leave the current turn.
 * - `race-deadline`: `tryWithExclusive` races a timer against the wait and, on timeout, forgets
 *   the queued wait — which later runs the action anyway.
 * - `one-gate-for-all`: one gate for every installation.
 * - `no-exclusive-mutex`: exclusive actions wait for turns but not for each other.
 * - `closed-after-throw`: the gate is reopened after the action without `finally`.
 *
 * `none` switches every flaw off except the timer race, which is how every naive
 * `tryWithExclusive` is written; the tests use it to show the other scenarios pass without a flaw.
 */
export type NaiveFlaw =
  | "none"
  | "snapshot-upgrade"
  | "no-upgrade"
  | "reopen-then-reclaim"
  | "reclaim-after-turn-ended"
  | "inherit-ended-turn"
  | "detach-inherits"
  | "race-deadline"
  | "one-gate-for-all"
  | "no-exclusive-mutex"
  | "closed-after-throw";

interface NaiveTurn {
  readonly key: string;
  /** True while this turn is counted in `turns`. */
  counted: boolean;
  ended: boolean;
  /** Upgrades borrowing the turn (only the non-snapshot designs use it). */
  loans: number;
}

interface NaiveGateState {
  turns: number;
  /** Exclusive actions waiting or running: the gate is closed to new turns while above 0. */
  pending: number;
  running: boolean;
  wakers: Array<() => void>;
}

/**
 * A single-level turn gate written the simple way, with exactly one flaw switched on. Outside
 * its flaw it behaves like the real gate for one installation, so a scenario that fails on it
 * fails because of that flaw.
 */
export class NaiveTurnGate implements GateUnderTest {
  private readonly states = new Map<string, NaiveGateState>();
  private readonly context = new AsyncLocalStorage<NaiveTurn | undefined>();

  constructor(
    private readonly clock: Clock,
    private readonly flaw: NaiveFlaw,
  ) {}

  async runTurn<T>(scope: Installation, fn: () => T | Promise<T>): Promise<T> {
    const key = this.keyOf(scope);
    const state = this.stateOf(key);
    const current = this.context.getStore();
    const nested = current?.key === key && current.counted && !current.ended;
    await when(
      state,
      () => nested || state.pending === 0,
      () => {
        state.turns += 1;
      },
    );
    const turn: NaiveTurn = { key, counted: true, ended: false, loans: 0 };
    try {
      return await this.context.run(turn, fn);
    } finally {
      turn.ended = true;
      if (turn.counted) {
        turn.counted = false;
        state.turns -= 1;
        wake(state);
      }
    }
  }

  async withExclusive<T>(scope: Installation, fn: () => T | Promise<T>): Promise<T> {
    const key = this.keyOf(scope);
    const state = this.stateOf(key);
    const turn = this.context.getStore();
    const upgrading = this.upgradeDecision(turn, key);
    if (upgrading && turn) this.lend(state, turn);
    state.pending += 1;
    const exclusiveOfOthers = this.flaw !== "no-exclusive-mutex";
    await when(
      state,
      () => !(exclusiveOfOthers && state.running),
      () => {
        state.running = true;
      },
    );
    await until(state, () => state.turns === 0);
    if (this.flaw === "closed-after-throw") {
      const value = await fn();
      await this.finish(state, upgrading ? turn : undefined);
      return value;
    }
    try {
      return await fn();
    } finally {
      await this.finish(state, upgrading ? turn : undefined);
    }
  }

  tryWithExclusive<T>(
    scope: Installation,
    options: { deadline: number },
    fn: () => T | Promise<T>,
  ): Promise<ExclusiveAttempt<T>> {
    // Every naive gate tries the obvious way: race the wait against a timer.
    const acquired = this.withExclusive(scope, fn).then((value) => ({
      acquired: true as const,
      value,
    }));
    const timedOut = sleep(this.clock, options.deadline).then(() => ({
      acquired: false as const,
      reason: "timeout" as const,
    }));
    return Promise.race([acquired, timedOut]);
  }

  runDetached<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.flaw === "detach-inherits") return Promise.resolve().then(fn);
    return this.context.run(undefined, async () => fn());
  }

  private upgradeDecision(turn: NaiveTurn | undefined, key: string): boolean {
    if (turn?.key !== key || this.flaw === "no-upgrade") return false;
    if (this.flaw === "inherit-ended-turn") return true;
    if (this.flaw === "snapshot-upgrade") return turn.counted && !turn.ended;
    return !turn.ended;
  }

  private lend(state: NaiveGateState, turn: NaiveTurn): void {
    if (this.flaw === "snapshot-upgrade" || this.flaw === "inherit-ended-turn") {
      turn.counted = false;
      state.turns -= 1;
      wake(state);
      return;
    }
    turn.loans += 1;
    if (turn.loans === 1 && turn.counted) {
      turn.counted = false;
      state.turns -= 1;
      wake(state);
    }
  }

  private async finish(state: NaiveGateState, upgraded: NaiveTurn | undefined): Promise<void> {
    const reclaim = () => {
      if (!upgraded) return;
      const always = ["snapshot-upgrade", "inherit-ended-turn", "reclaim-after-turn-ended"];
      if (always.includes(this.flaw)) {
        upgraded.counted = true;
        state.turns += 1;
        return;
      }
      upgraded.loans -= 1;
      if (upgraded.loans === 0 && !upgraded.ended) {
        upgraded.counted = true;
        state.turns += 1;
      }
    };
    if (this.flaw === "reopen-then-reclaim") {
      state.running = false;
      state.pending -= 1;
      wake(state);
      // Getting the turn back means passing the gate again, behind whatever queued meanwhile.
      await until(state, () => state.pending === 0);
      reclaim();
      return;
    }
    reclaim();
    state.running = false;
    state.pending -= 1;
    wake(state);
  }

  private keyOf(scope: Installation): string {
    if (this.flaw === "one-gate-for-all") return "*";
    return JSON.stringify([scope.adapter, scope.tenant ?? null]);
  }

  private stateOf(key: string): NaiveGateState {
    let state = this.states.get(key);
    if (!state) {
      state = { turns: 0, pending: 0, running: false, wakers: [] };
      this.states.set(key, state);
    }
    return state;
  }
}

async function until(state: NaiveGateState, condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => state.wakers.push(resolve));
}

/** Waits for `condition`, then runs `act` in the same step, so nothing slips in between. */
async function when(
  state: NaiveGateState,
  condition: () => boolean,
  act: () => void,
): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => state.wakers.push(resolve));
  act();
}

function wake(state: NaiveGateState): void {
  for (const waker of state.wakers.splice(0)) waker();
}
