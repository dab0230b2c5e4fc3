import type { Clock } from "../clock/clock.js";
import type { Logger } from "../contracts/logger.js";
import type { ClaimState, KeyValueState } from "../contracts/state.js";
import { assertTtlMs } from "../contracts/state-arguments.js";
import { LockLostError, ValidationError } from "../errors/index.js";

/** Options of `thread.once` and `chat.once`. */
export interface OnceOptions {
  /**
   * How long one attempt may run before another caller may take the work over (the claim's
   * lease). Choose it longer than the work's worst case: claims are not renewed.
   */
  readonly ttlMs: number;
}

/** What the work receives: its claim generation (a fence for outside writes) and a signal. */
export interface OnceRun {
  /** The claim's generation: unique, from the State's fence sequence; newer attempts are larger. */
  readonly generation: number;
  /** Aborts (with a `LockLostError`) when `ttlMs` has passed and another caller may take over. */
  readonly signal: AbortSignal;
}

/**
 * The outcome of a once-call. `ran: true`: this call ran the work and `value` is what it
 * returned. `ran: false`: it did not run — `in-progress` while another caller's attempt holds a
 * live claim, `completed` once an attempt finished. A completed call does not return the first
 * run's value: store what others need (e.g. in thread state) from inside the work.
 */
export type OnceResult<T> =
  | { readonly ran: true; readonly value: T }
  | { readonly ran: false; readonly reason: "in-progress" | "completed" };

/** The work of a once-call. */
export type OnceWork<T> = (run: OnceRun) => T | Promise<T>;

/** What {@link runOnce} needs. */
export interface OnceDeps {
  readonly state: ClaimState & KeyValueState;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * The claim key of `thread.once(name)`. The thread id is URI-encoded so it holds no `:`, which
 * keeps the key injective: no (thread, name) pair can produce another pair's key, nor a
 * `chat.once` key.
 */
export function threadOnceKey(threadId: string, name: string): string {
  return `once:thread:${encodeURIComponent(threadId)}:${name}`;
}

/** The claim key of `chat.once(key)`. */
export function chatOnceKey(key: string): string {
  return `once:chat:${key}`;
}

/**
 * Runs `work` at most once to completion across every instance sharing the State (DESIGN §7.3),
 * on top of the State's fenced claims:
 *
 * - Of concurrent callers exactly one claims and runs; the others get `in-progress`.
 * - Success completes the claim (never run again; later calls get `completed`).
 * - Failure re-arms the claim atomically (`rearmClaim`) and rethrows, so a later call retries;
 *   attempts never overlap while each finishes within `ttlMs`.
 * - A claim whose holder died (or ran past `ttlMs`) is taken over by the next call after `ttlMs`.
 *
 * The `completed`/`in-progress` distinction comes from a marker written under the same key in
 * the key-value namespace after `completeClaim` succeeded; if the process dies between the two,
 * later callers see `in-progress` although the work never runs again. The reason is advisory;
 * "runs at most once to completion" rests on the claim alone.
 */
export async function runOnce<T>(
  deps: OnceDeps,
  key: string,
  work: OnceWork<T>,
  options: OnceOptions,
): Promise<OnceResult<T>> {
  const step = `run once ${key}`;
  if (typeof work !== "function") throw new ValidationError("once needs a function", { step });
  const ttlMs = options?.ttlMs;
  assertTtlMs(step, ttlMs);
  const { state, clock, logger } = deps;
  const sentAtMs = clock.now();
  const claim = await state.claim(key, ttlMs);
  if (!claim) {
    const marker = await state.get(key);
    return { ran: false, reason: marker === null ? "in-progress" : "completed" };
  }
  // Judged from when the claim was sent, by our clock: never later than the backend's expiry.
  const controller = new AbortController();
  const timer = clock.setTimeout(
    () =>
      controller.abort(
        new LockLostError(key, claim.generation, `the claim on ${key} ran past ttlMs (${ttlMs})`, {
          step,
        }),
      ),
    sentAtMs + ttlMs - clock.now(),
  );
  let value: T;
  try {
    value = await work({ generation: claim.generation, signal: controller.signal });
  } catch (error) {
    clock.clearTimeout(timer);
    await rearm(deps, claim, step);
    throw error;
  }
  clock.clearTimeout(timer);
  try {
    if (await state.completeClaim(claim)) {
      await state.set(key, { generation: claim.generation, completedAt: clock.now() });
    } else {
      logger.warn("once: the work outlived its claim and another caller took it over", {
        key,
        generation: claim.generation,
      });
    }
  } catch (error) {
    // The work is done; only its record failed. The claim lapses after ttlMs and may run again.
    logger.error("once: recording completion failed; the work may run again after ttlMs", {
      key,
      error,
    });
  }
  return { ran: true, value };
}

async function rearm(
  deps: OnceDeps,
  claim: Parameters<ClaimState["rearmClaim"]>[0],
  step: string,
): Promise<void> {
  try {
    if (!(await deps.state.rearmClaim(claim))) {
      deps.logger.warn("once: the failed attempt's claim was already taken over", {
        key: claim.key,
        step,
      });
    }
  } catch (error) {
    // Not re-armed: the claim stays until ttlMs, then the next call takes it over.
    deps.logger.error("once: re-arming after a failure failed; retry possible after ttlMs", {
      key: claim.key,
      error,
    });
  }
}
