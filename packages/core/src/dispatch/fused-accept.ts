import { turnOf } from "../concurrency/queued-message.js";
import type { Delivery, FusedAcquire } from "../concurrency/strategy.js";
import type { Adapter, LockScope } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { AcceptAndAcquireResult, StateAdapter } from "../contracts/state.js";
import type { TurnWrite } from "../contracts/turn-state.js";
import { type LockScopeResolver, lockKeyWithoutResolver, resolveLockKey } from "./accept-checks.js";
import { dedupeKey } from "./dedupe-mark.js";

/**
 * The lock key of a thread, without a promise when no resolver is asked (the usual case).
 * `failed` is told of an error before it is thrown (or the promise rejects with it).
 */
export function lockKeySoon(
  lockScope: LockScopeResolver | LockScope | undefined,
  adapter: Adapter,
  threadId: string,
  failed: () => void,
): string | Promise<string> {
  try {
    const known = lockKeyWithoutResolver(lockScope, adapter, threadId);
    if (known !== undefined) return known;
  } catch (error) {
    failed();
    throw error;
  }
  return resolveLockKey(lockScope, adapter, threadId).catch((error: unknown) => {
    failed();
    throw error;
  });
}

/** What {@link acceptAndAcquire} needs. */
export interface FusedAcceptDeps {
  readonly state: StateAdapter;
  readonly logger: Logger;
  readonly dedupeTtlMs: number;
  readonly lockTtlMs: number;
}

/**
 * The State's fused `acceptAndAcquire` for one delivery (DESIGN §4.1): dedupe mark + lock +
 * subscription. A failure (also a synchronous throw) is logged, `failed` is told, and the promise
 * rejects: nothing was written.
 */
export function acceptAndAcquire(
  deps: FusedAcceptDeps,
  request: {
    readonly key: string;
    readonly lockKey: string;
    readonly threadId: string;
    readonly turn?: TurnWrite;
  },
  failed: () => void,
): Promise<AcceptAndAcquireResult> {
  const { state, logger } = deps;
  const { key, lockKey, threadId } = request;
  let pending: Promise<AcceptAndAcquireResult>;
  try {
    const accept = state.acceptAndAcquire;
    if (!accept) throw new Error("unreachable: fused accept on a State without it");
    pending = accept.call(state, {
      dedupeKey: dedupeKey(key),
      dedupeTtlMs: deps.dedupeTtlMs,
      lockKey,
      lockTtlMs: deps.lockTtlMs,
      threadId,
      ...(request.turn === undefined ? {} : { turn: request.turn }),
    });
  } catch (error) {
    pending = Promise.reject(error);
  }
  return pending.catch((error: unknown) => {
    logger.error("accept message failed: the State is unreachable", { key, error });
    failed();
    throw error;
  });
}

/**
 * The lock outcome a strategy takes from an accepted fused call (`duplicate` is not one):
 * the lock and subscription, judged from `sentAtMs`, or `busy`.
 */
export function fusedAcquireOf(
  result: Exclude<AcceptAndAcquireResult, { kind: "duplicate" }>,
  sentAtMs: number,
): FusedAcquire {
  if (result.kind !== "acquired") return { kind: "busy", taken: false };
  const { lock, subscribed } = result;
  return { kind: "acquired", lock, subscribed, sentAtMs, taken: false };
}

/**
 * The fused accept's request for `delivery`: with `turnEntryTtlMs` above 0 (durable turns) it
 * carries the turn record of the delivery's own run, its entry living that long; 0 writes none.
 */
export function fusedRequest(delivery: Delivery, sentAtMs: number, turnEntryTtlMs: number) {
  const { key, lockKey, threadId } = delivery;
  if (turnEntryTtlMs <= 0) return { key, lockKey, threadId };
  return { key, lockKey, threadId, turn: turnOf(delivery, sentAtMs, turnEntryTtlMs) };
}
