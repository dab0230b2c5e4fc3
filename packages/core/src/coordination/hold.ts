import type { Lock, LockState } from "../contracts/state.js";
import { assertTtlMs } from "../contracts/state-arguments.js";
import { ValidationError } from "../errors/index.js";

/**
 * A hold on a thread's lock key (DESIGN §7.4), as plain JSON: store it, send it to another
 * process, and release it there. It is the lock itself — `key`, `token`, `fence`, `expiresAt` —
 * plus the thread it was taken for and an optional owner label. Treat `token` as a secret: it is
 * what proves the right to release.
 */
export interface HoldHandle {
  /** The lock key held: `thread:{threadId}`, or `channel:{channelId}` under channel lock scope. */
  readonly key: string;
  readonly token: string;
  /** The lock's fence: larger than every earlier holder's of any lock on the same State. */
  readonly fence: number;
  /** Epoch ms when the hold lapses (as of acquisition or adoption; `extendHold` moves it). */
  readonly expiresAt: number;
  /** The thread the hold was taken for. */
  readonly threadId: string;
  /** Who holds it, as given to `thread.hold` (e.g. a human agent's id). */
  readonly owner?: string;
  /** True when the owner's own messages pass the hold (`HoldOptions.ownerPasses`). */
  readonly ownerPasses?: boolean;
}

/** Options of `thread.hold`. */
export interface HoldOptions {
  /** How long the hold lasts unless extended; its expiry is the crash recovery. */
  readonly ttlMs: number;
  /** A label kept in the handle, e.g. the id of the agent taking over. */
  readonly owner?: string;
  /**
   * Let the owner through their own hold: a message whose author's user id equals `owner`
   * runs its handlers at once (without the lock, as under `concurrent`) instead of waiting in
   * the queue behind the hold. Needs `owner`. Default false: everyone's messages wait.
   */
  readonly ownerPasses?: boolean;
}

/** Validates hold options; throws a `ValidationError` naming the bad field. */
export function assertHoldOptions(options: HoldOptions, step: string): void {
  assertTtlMs(step, options?.ttlMs as number);
  const owner = options.owner;
  if (owner !== undefined && typeof owner !== "string") {
    throw new ValidationError(`owner must be a string, got ${JSON.stringify(owner)}`, { step });
  }
  const passes = options.ownerPasses;
  if (passes !== undefined && typeof passes !== "boolean") {
    throw new ValidationError(`ownerPasses must be a boolean, got ${JSON.stringify(passes)}`, {
      step,
    });
  }
  if (passes === true && owner === undefined) {
    throw new ValidationError("ownerPasses needs an owner: whose messages would pass?", { step });
  }
}

/** The handle of `lock`, taken for `threadId`. */
export function holdHandleOf(
  lock: Lock,
  threadId: string,
  owner?: string,
  ownerPasses?: boolean,
): HoldHandle {
  const handle = {
    key: lock.key,
    token: lock.token,
    fence: lock.fence,
    expiresAt: lock.expiresAt,
    threadId,
  };
  if (owner === undefined) return handle;
  return ownerPasses === true ? { ...handle, owner, ownerPasses } : { ...handle, owner };
}

/**
 * Reads a handle that may have travelled as JSON. Throws a `ValidationError` for anything that
 * is not a hold handle, so a corrupt value never reaches the State.
 */
export function parseHoldHandle(value: unknown, step: string): HoldHandle {
  const candidate = (typeof value === "string" ? safeParse(value) : value) as Partial<HoldHandle>;
  const problems: string[] = [];
  if (typeof candidate?.key !== "string" || !/^(thread|channel):./.test(candidate.key)) {
    problems.push("key is not a thread or channel lock key");
  }
  if (typeof candidate?.token !== "string" || candidate.token.length === 0) {
    problems.push("token is missing");
  }
  if (typeof candidate?.fence !== "number" || !Number.isFinite(candidate.fence)) {
    problems.push("fence is not a number");
  }
  if (typeof candidate?.expiresAt !== "number") problems.push("expiresAt is not a number");
  if (typeof candidate?.threadId !== "string" || candidate.threadId.length === 0) {
    problems.push("threadId is missing");
  }
  if (problems.length > 0) {
    throw new ValidationError(`not a hold handle: ${problems.join("; ")}`, { step });
  }
  return candidate as HoldHandle;
}

/** The `Lock` a handle stands for, for the token-checked State calls. */
export function lockOf(handle: HoldHandle): Lock {
  return {
    key: handle.key,
    token: handle.token,
    fence: handle.fence,
    expiresAt: handle.expiresAt,
  };
}

/**
 * Releases the hold when its token still holds the lock; false, touching nothing, for a stale
 * handle (expired, released, or the key taken by a newer holder). The release also ends the turn
 * record of the hold's own fence — the emptied record of a run whose handler took its lock over
 * as this hold — so the messages queued behind the hold drain at once, not at the next sweep. A
 * record of any other fence (an interrupted turn the hold was taken over) stays.
 */
export function releaseHeld(state: LockState, handle: HoldHandle): Promise<boolean> {
  return state.releaseLock(lockOf(handle), { turn: { kind: "end" } });
}

/** Moves the hold's expiry to `ttlMs` from now; false for a stale handle (never resurrects). */
export function extendHeld(state: LockState, handle: HoldHandle, ttlMs: number): Promise<boolean> {
  return state.extendLock(lockOf(handle), ttlMs);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
