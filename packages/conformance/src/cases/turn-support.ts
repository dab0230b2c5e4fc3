import assert from "node:assert/strict";
import type { Lock, StateAdapter, TurnRecord, TurnState, TurnWrite } from "@baton/core";
import type { ConformanceContext } from "../harness.js";
import { queueEntry } from "./support.js";

// Durable turn records (DESIGN §6.1) are optional as a whole: a backend has them when
// `recoverTurn` is a method, and then has every other TurnState method too. A backend without
// them passes each turn case by showing the absence is consistent — unless its harness requires
// them (`requires: ["turns"]`), in which case their absence fails every turn case.

/** The TurnState methods, all of which a backend with turn records offers. */
const TURN_METHODS = [
  "pendingTurnKeys",
  "recoverTurn",
  "takeQueuedTurn",
  "writeTurn",
  "inspectTurn",
] as const satisfies readonly (keyof TurnState)[];

/** A backend's turn-record methods, bound to it. */
export type Turns = Required<TurnState>;

/** When every queue entry of these cases was made: fixed, so records compare exactly. */
export const T0 = Date.UTC(2026, 0, 1);
/** A later start time, for a second attempt. */
export const T1 = Date.UTC(2026, 0, 1, 0, 5);
/** Later still, for a third attempt or a narrowed turn. */
export const T2 = Date.UTC(2026, 0, 1, 0, 10);

/**
 * The backend's turn-record methods, bound, or `undefined` when it has none. Fails when only
 * some are there, or when one is there but not a function.
 */
export function turnsOf(state: StateAdapter): Turns | undefined {
  const present = TURN_METHODS.filter((name) => state[name] !== undefined);
  if (present.length === 0) return undefined;
  for (const name of TURN_METHODS) {
    assert.equal(
      typeof state[name],
      "function",
      `turn records come whole: the backend has ${present.join(", ")}, so ${name} must be a method`,
    );
  }
  const turns = state as Turns;
  return {
    pendingTurnKeys: (limit) => turns.pendingTurnKeys(limit),
    recoverTurn: (key, ttlMs, options) => turns.recoverTurn(key, ttlMs, options),
    takeQueuedTurn: (lock, options) => turns.takeQueuedTurn(lock, options),
    writeTurn: (lock, turn) => turns.writeTurn(lock, turn),
    inspectTurn: (key) => turns.inspectTurn(key),
  };
}

/**
 * Runs `body` with the backend's turn-record methods. Without them the case only checks that
 * the absence is consistent and that the harness does not require them.
 */
export function withTurns(body: (turns: Turns, ctx: ConformanceContext) => Promise<void>) {
  return async (ctx: ConformanceContext) => {
    const turns = turnsOf(ctx.state);
    if (turns) {
      await body(turns, ctx);
      return;
    }
    assert.equal(
      ctx.requires("turns"),
      false,
      'the harness requires turn records (requires: ["turns"]), but the backend has no recoverTurn',
    );
  };
}

/** The turn-record methods of the i-th concurrent caller's client. */
export function turnsOfClient(ctx: ConformanceContext, i: number): Turns {
  const turns = turnsOf(ctx.client(i));
  assert.ok(turns, "every client of a backend with turn records offers them");
  return turns;
}

/** A turn of the messages `ids` (the last one answered), started at `startedAt`. */
export function turnOf(ids: readonly (string | number)[], startedAt = T0): TurnWrite {
  return { entries: ids.map((id) => queueEntry(id, T0)), startedAt };
}

/** The record `turn` must have become under `lock` on its first attempt. */
export function firstAttempt(lock: Lock, turn: TurnWrite): TurnRecord {
  return {
    key: lock.key,
    entries: [...turn.entries],
    fence: lock.fence,
    attempt: 1,
    startedAt: turn.startedAt,
  };
}

/** Takes `key`'s lock for a long lease with `turn` as its record; fails when it cannot. */
export async function startTurn(
  ctx: ConformanceContext,
  key: string,
  turn: TurnWrite,
  ttlMs = ctx.longTtlMs,
): Promise<Lock> {
  const lock = await ctx.state.acquireLock(key, ttlMs, { turn });
  assert.ok(lock, `the lock of ${key} must be free for a new turn`);
  return lock;
}

/**
 * Leaves an interrupted turn on `key` without waiting out a lease: the turn starts, and its
 * holder hands it back at shutdown. Returns the holder's lock.
 */
export async function handedBackTurn(
  ctx: ConformanceContext,
  key: string,
  turn: TurnWrite,
): Promise<Lock> {
  const lock = await startTurn(ctx, key, turn);
  const released = await ctx.state.releaseLock(lock, {
    turn: { kind: "hand-back", reason: "shutdown" },
  });
  assert.equal(released, true, "the holder's hand-back frees its lock");
  return lock;
}

/** `entries` of a record or a take as the ids {@link queueEntry} gave them. */
export function idsOf(record: { readonly entries: readonly { value: unknown }[] } | null) {
  return record?.entries.map((entry) => (entry.value as { id: unknown }).id) ?? null;
}
