import type { Clock } from "../clock/clock.js";
import type { LocalHolders } from "../concurrency/local-holders.js";
import { StateRetry, type StateRetryPolicy } from "../concurrency/state-retry.js";
import type { Delivery, FusedAcquire, Strategy } from "../concurrency/strategy.js";
import type { Adapter, DeliveryResult, LockScope } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { DispatchSpan } from "../contracts/observer.js";
import type { StateAdapter } from "../contracts/state.js";
import type { AdmissionBound, Permit } from "../coordination/admission-bound.js";
import { AdmissionRejectedError, ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import { assertMessage, type LockScopeResolver, resolveLockKey } from "./accept-checks.js";
import { dedupeKey, forgetDedupeMark } from "./dedupe-mark.js";
import type { DeliveryRegistry } from "./delivery-registry.js";
import {
  acceptAndAcquire,
  type FusedAcceptDeps,
  fusedAcquireOf,
  fusedRequest,
  lockKeySoon,
} from "./fused-accept.js";

export { type LockScopeResolver, resolveLockKey } from "./accept-checks.js";
export { dedupeKey, forgetDedupeMark } from "./dedupe-mark.js";

/** What the message pipeline needs. */
export interface MessageDispatcherOptions {
  readonly state: StateAdapter;
  readonly logger: Logger;
  readonly registry: DeliveryRegistry;
  readonly holders: LocalHolders;
  readonly admission: AdmissionBound;
  readonly dedupeTtlMs: number;
  readonly lockScope: LockScopeResolver | LockScope | undefined;
  /**
   * Enables the State's fused `acceptAndAcquire` (when the backend has it) for strategies that
   * take the lock per message (`drop`, `queue`): the lock's TTL and the clock ownership is judged
   * by. Absent: always the separate calls.
   */
  readonly fastPath?: {
    readonly lockTtlMs: number;
    now(): number;
    /**
     * Durable turns: above 0, the fused accept also writes the delivery's turn record, its
     * entry living this long (as a queued one would); 0 writes none.
     */
    readonly turnEntryTtlMs?: number;
  };
  /** The strategy in force; read per delivery so it can be swapped while idle. */
  strategy(): Strategy;
  /** True once shutdown began: new deliveries are refused before anything is written. */
  isClosed(): boolean;
  /**
   * Called when an accepted delivery's run starts, before the strategy (after the webhook was
   * answered under deferred dispatch); the Chat records persisted thread history here. Must not
   * reject: a failure would count as the delivery's. `undefined`: nothing to wait for.
   */
  readonly beforeRun?: (delivery: Delivery) => Promise<void> | undefined;
  /**
   * Retries a delivery whose State failed before its handler ran, when {@link RunOptions}
   * ask for it (ADR 0015). Absent: never retried.
   */
  readonly stateRetry?: {
    readonly policy: StateRetryPolicy;
    readonly clock: Clock;
    /** Aborts every backoff wait: at shutdown the delivery ends `error` at once. */
    readonly shutdownSignal: AbortSignal;
  };
}

const END_TURN = { kind: "end" } as const;

/** How {@link MessageDispatcher.run} runs one accepted delivery. */
export interface RunOptions {
  /** Aborts the delivery's handler (detach timeout), and any retry wait. */
  readonly signal?: AbortSignal | undefined;
  /**
   * True when the platform is answered as soon as the delivery was accepted (deferred dispatch):
   * it will not redeliver, so a State failure before the handler is retried in-process instead of
   * ending `error` at once. The run then also starts one event-loop turn later, so the answer
   * leaves before any of the run's work (lock, history, handler) is done.
   */
  readonly retryStateFailures?: boolean;
}

/**
 * Resolves after the current event-loop turn, its microtasks included: the webhook answer, which
 * the caller produces in microtasks of this turn, goes out before a deferred run begins. Real
 * timers on purpose: an injected (fake) clock must not hold a run back.
 */
function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/** One delivery's retries and the signal that ends their waits. */
interface DeliveryRetry {
  readonly retry: StateRetry;
  readonly signal: AbortSignal;
}

/** A delivery that passed admission and acceptance; {@link MessageDispatcher.run} finishes it. */
export interface AcceptedDelivery {
  readonly delivery: Delivery;
  readonly permit: Permit;
  readonly span: DispatchSpan | undefined;
}

/**
 * The message pipeline of DESIGN §5, top to bottom, in two phases so a webhook can answer
 * between them: `accept` (admit → self-filter → atomic dedupe → lock key) and `run` (strategy,
 * which routes and runs handlers under the lock). A rejected admission writes nothing; a dedupe
 * mark is written only for an accepted delivery and removed again when the State fails before a
 * handler ran, so the platform's retry is processed.
 */
export class MessageDispatcher {
  constructor(private readonly options: MessageDispatcherOptions) {}

  /**
   * Admits and accepts a message. Resolves with the accepted delivery, or with the final result
   * of one that ends here (`ignored` self message, `duplicate`). Rejects with
   * `AdmissionRejectedError` (at the bound or shutting down: nothing written), `ValidationError`
   * (bad input) or the State's error (no mark left behind).
   */
  async accept(
    adapter: Adapter,
    threadId: string,
    input: Message | (() => Promise<Message>),
    tenant?: string,
  ): Promise<AcceptedDelivery | DeliveryResult> {
    const { registry } = this.options;
    const span = registry.startSpan(adapter.name, tenant);
    let permit: Permit;
    try {
      permit = this.admit(adapter, tenant);
    } catch (error) {
      registry.endSpan(
        span,
        "admission-rejected",
        this.options.isClosed() ? "shutdown" : "at capacity",
      );
      throw error;
    }
    try {
      const message = typeof input === "function" ? await input() : input;
      assertMessage(message, threadId);
      if (message.author.isMe) return this.endEarly(permit, span, "ignored", "self message");
      const key = `${adapter.name}:${message.id}`;
      if (this.fusable()) {
        // Dedupe mark + lock + subscription in one State call. The lock key comes first (before
        // anything is written), so a failing resolver leaves no mark to forget.
        const { lockScope, fastPath } = this.options;
        const keyFailed = () => registry.endSpan(span, "error", "lock scope failed");
        const pendingKey = lockKeySoon(lockScope, adapter, threadId, keyFailed);
        const lockKey = typeof pendingKey === "string" ? pendingKey : await pendingKey;
        const sentAtMs = fastPath?.now() ?? 0;
        const stateFailed = () => registry.endSpan(span, "error", "state unavailable");
        const toRun = { key, adapter, threadId, lockKey, message, tenant };
        const request = fusedRequest(toRun, sentAtMs, fastPath?.turnEntryTtlMs ?? 0);
        const result = await acceptAndAcquire(this.fusedDeps, request, stateFailed);
        if (result.kind === "duplicate") {
          this.options.logger.debug("duplicate message skipped", { key });
          return this.endEarly(permit, span, "duplicate", "already accepted");
        }
        const fused = fusedAcquireOf(result, sentAtMs);
        // Local from now on, as a lock taken inside the strategy is: a contender arriving before
        // the strategy starts waits for this holder's drain instead of handing its message off.
        if (fused.kind === "acquired") this.options.holders.add(lockKey, fused.lock.fence);
        const delivery = { ...toRun, fused };
        return { delivery, permit, span };
      }
      if (!(await this.markAccepted(key, span))) {
        this.options.logger.debug("duplicate message skipped", { key });
        return this.endEarly(permit, span, "duplicate", "already accepted");
      }
      const lockKey = await this.lockKeyOf(adapter, threadId).catch(async (error: unknown) => {
        await this.forget(key);
        registry.endSpan(span, "error", "lock scope failed");
        throw error;
      });
      const delivery = { key, adapter, threadId, lockKey, message, tenant };
      return { delivery, permit, span };
    } catch (error) {
      permit.release();
      registry.endSpan(span, "error", "not accepted");
      throw error;
    }
  }

  /**
   * Runs an accepted delivery through the strategy and resolves with its disposition. The
   * permit is released only when the delivery is settled AND this caller's strategy work (drain,
   * lock release) has ended. See {@link RunOptions} for the signal and the retries.
   */
  async run(accepted: AcceptedDelivery, options: RunOptions = {}): Promise<DeliveryResult> {
    const { registry } = this.options;
    const { delivery, permit, span } = accepted;
    const { signal } = options;
    const outcome = registry.track(delivery.key, delivery.lockKey, span, signal);
    try {
      // Without this, a burst of deliveries runs each strategy up to the handler's first await in
      // the same microtask waves as the answers, and every answer waits for all of that work.
      if (options.retryStateFailures) await afterThisTurn();
      // Awaited only when there is work to wait for: each await is a promise and a microtask on
      // every message.
      const before = this.options.beforeRun?.(delivery);
      if (before) await before;
      let done: Delivery | undefined = delivery;
      try {
        await this.options.strategy().submit(delivery);
      } catch (error) {
        done = await this.recover(delivery, error, options.retryStateFailures ? signal : false);
      }
      if (done) {
        if (this.hasUntaken(done)) await this.releaseUntaken(done);
        this.settleIfHandedOff(delivery);
      }
      return outcome.result ?? (await outcome.wait());
    } finally {
      permit.release();
    }
  }

  /**
   * A delivery not settled once the strategy's part ended waits for a local holder's drain, and
   * is marked so: if its entry leaves the queue some other way, that holder's last turn settles
   * it. With no local holder its entry is in the shared queue for another instance, so waiting
   * here could last forever: it is settled `queued`.
   */
  private settleIfHandedOff(delivery: Delivery): void {
    const { registry, holders } = this.options;
    if (registry.isSettled(delivery.key)) return;
    if (holders.has(delivery.lockKey)) registry.markWaiting(delivery.key, holders.stamp());
    else registry.settle(delivery.key, "queued", "held by another instance");
  }

  private fusedDepsMade: FusedAcceptDeps | undefined;

  /** What the fused accept needs, made once: none of it changes. */
  private get fusedDeps(): FusedAcceptDeps {
    const { state, logger, dedupeTtlMs, fastPath } = this.options;
    this.fusedDepsMade ??= { state, logger, dedupeTtlMs, lockTtlMs: fastPath?.lockTtlMs ?? 0 };
    return this.fusedDepsMade;
  }

  /** True when the fused accept applies: the backend has it and the strategy locks per message. */
  private fusable(): boolean {
    if (!this.options.fastPath || !this.options.state.acceptAndAcquire) return false;
    const name = this.options.strategy().name;
    return name === "drop" || name === "queue";
  }

  /** True when the delivery's fused lock was never taken by a strategy path. */
  private hasUntaken(delivery: Delivery): boolean {
    const fused = delivery.fused;
    return fused?.kind === "acquired" && !fused.taken;
  }

  /** A fused lock no strategy path took (e.g. a hold owner passing their hold) is let go. */
  private async releaseUntaken(delivery: Delivery): Promise<void> {
    const fused = delivery.fused;
    if (fused?.kind !== "acquired" || fused.taken) return;
    fused.taken = true;
    const { lock } = fused;
    try {
      // The fused accept wrote this lock's turn record, if any: no run of it will happen here.
      const ends = (this.options.fastPath?.turnEntryTtlMs ?? 0) > 0;
      await this.options.state.releaseLock(lock, ends ? { turn: END_TURN } : undefined);
    } catch (error) {
      this.options.logger.warn("release of an unused lock failed; the lease will expire instead", {
        lockKey: lock.key,
        error,
      });
    } finally {
      this.options.holders.delete(lock.key, lock.fence);
      // Contenders that waited for this (never started) local holder go to the sweeper.
      if (!this.options.holders.has(lock.key)) this.options.registry.handOff(lock.key);
    }
  }

  /** The retries of one delivery, waiting on shutdown and on the delivery's own signal. */
  private retryFor(signal: AbortSignal | undefined): DeliveryRetry | undefined {
    const retry = this.options.stateRetry;
    if (!retry) return undefined;
    const waitSignal = signal
      ? AbortSignal.any([retry.shutdownSignal, signal])
      : retry.shutdownSignal;
    return { retry: new StateRetry(retry.policy, retry.clock), signal: waitSignal };
  }

  /**
   * The strategy rejected for `delivery` with `firstError`. When the delivery is not settled yet
   * (the State failed before any handler ran, and nothing of it is queued), the strategy runs
   * again after a backoff while the retries allow (`signal`: the delivery's own, or `false` for
   * no retries); then the mark is removed and it ends `error`. Resolves with the attempt that
   * went through, or `undefined` when the delivery ended here.
   */
  private async recover(
    delivery: Delivery,
    firstError: unknown,
    signal: AbortSignal | undefined | false,
  ): Promise<Delivery | undefined> {
    const { registry, logger } = this.options;
    const retry = signal === false ? undefined : this.retryFor(signal);
    let current = delivery;
    let error = firstError;
    for (;;) {
      await this.releaseUntaken(current);
      if (registry.isSettled(delivery.key)) {
        // The delivery itself ended; the State failed later (e.g. while draining others), and
        // what is still queued is left to the next holder or the sweeper.
        logger.warn("the State failed after the delivery ended; the queue is left to the sweeper", {
          key: delivery.key,
          error,
        });
        return undefined;
      }
      if (!retry || !(await retry.retry.wait(retry.signal))) break;
      logger.warn("the State failed before the handler ran; retrying", {
        key: delivery.key,
        attempt: retry.retry.attempt,
        error,
      });
      // A fused lock taken at accept is gone by now: the retry takes its own.
      current = { ...delivery, fused: undefined };
      try {
        await this.options.strategy().submit(current);
        return current;
      } catch (next) {
        error = next;
      }
    }
    logger.error(
      retry
        ? "dispatch failed before the handler ran, and its retries too"
        : "dispatch failed before the handler ran; the retry will be processed",
      { key: delivery.key, attempts: retry ? retry.retry.attempt + 1 : 1, error },
    );
    await this.forget(delivery.key);
    registry.settle(delivery.key, "error", "state failed before the handler");
    return undefined;
  }

  private admit(adapter: Adapter, tenant: string | undefined): Permit {
    if (this.options.isClosed()) {
      throw new AdmissionRejectedError(
        "shutdown",
        this.options.admission.retryAfterMs,
        "the bot is shutting down",
        {
          step: `admit ${adapter.name} delivery`,
        },
      );
    }
    return this.options.admission.admit({ adapter: adapter.name, tenant });
  }

  private async markAccepted(key: string, span: DispatchSpan | undefined): Promise<boolean> {
    try {
      return await this.options.state.setIfNotExists(dedupeKey(key), 1, this.options.dedupeTtlMs);
    } catch (error) {
      this.options.logger.error("accept message failed: the State is unreachable", { key, error });
      this.options.registry.endSpan(span, "error", "state unavailable");
      throw error;
    }
  }

  private endEarly(
    permit: Permit,
    span: DispatchSpan | undefined,
    outcome: "ignored" | "duplicate",
    reason: string,
  ): DeliveryResult {
    permit.release();
    this.options.registry.endSpan(span, outcome, reason);
    return { outcome, reason };
  }

  private lockKeyOf(adapter: Adapter, threadId: string): Promise<string> {
    return resolveLockKey(this.options.lockScope, adapter, threadId);
  }

  private forget(key: string): Promise<void> {
    return forgetDedupeMark(this.options.state, this.options.logger, key);
  }
}

/** True when `value` is a final result rather than an accepted delivery. */
export function isFinalResult(value: AcceptedDelivery | DeliveryResult): value is DeliveryResult {
  return "outcome" in value;
}
