import {
  claimHoldEnd,
  emitHoldLapsed,
  sweepLapsedHolds,
  unclaimHoldEnd,
} from "../concurrency/hold-lapse.js";
import {
  type HoldLapsedHandler,
  type HoldRecord,
  readHoldRecord,
  recordOf,
  updateHoldRecord,
  writeHoldRecord,
} from "../concurrency/hold-records.js";
import type { Strategy } from "../concurrency/strategy.js";
import type { Adapter } from "../contracts/adapter.js";
import type { Lock } from "../contracts/state.js";
import { assertTtlMs } from "../contracts/state-arguments.js";
import {
  assertHoldOptions,
  extendHeld,
  type HoldHandle,
  type HoldOptions,
  holdHandleOf,
  parseHoldHandle,
  releaseHeld,
} from "../coordination/hold.js";
import {
  chatOnceKey,
  type OnceOptions,
  type OnceResult,
  type OnceWork,
  runOnce,
} from "../coordination/once.js";
import {
  type ExclusiveAttempt,
  type GateScope,
  type TryExclusiveOptions,
  TurnGate,
} from "../coordination/turn-gate.js";
import { resolveLockKey } from "../dispatch/message-dispatcher.js";
import { ValidationError } from "../errors/index.js";
import type { ResolvedChatConfig } from "./chat-config.js";
import type { ThreadCoordination } from "./thread-coordination.js";

/**
 * What a handler run (a turn) carries, so `thread.hold` inside it can take its lock over: the
 * run's own `BatchRun` (both absent under `concurrent`).
 */
export interface RunTag {
  readonly lockKey?: string | undefined;
  readonly adopt?: (() => Promise<Lock | null>) | undefined;
}

/** Options of `chat.releaseHold`. */
export interface ReleaseHoldOptions {
  /**
   * Drain the lock key's State queue in this process after the release (default true). Pass
   * `false` from a process without the bot's handlers (a dashboard): the bot instances'
   * sweepers then drain it within one sweep interval.
   */
  readonly drain?: boolean;
}

/** What {@link ChatCoordination} needs from its `Chat`. */
export interface ChatCoordinationDeps {
  readonly config: ResolvedChatConfig;
  /** Counts work as in flight until it settles, so shutdown waits for it. */
  track<T>(work: Promise<T>): Promise<T>;
  /** The strategy in force, whose `drainOrphan` drains a released hold's queue. */
  strategy(): Strategy;
}

/**
 * The coordination primitives of one `Chat` (DESIGN §7.2–§7.4): its turn gate, exactly-once
 * work on fenced claims, and holds on thread lock keys. `Chat` exposes them as methods; this
 * class keeps them out of `chat.ts`.
 */
export class ChatCoordination implements ThreadCoordination {
  readonly gate: TurnGate<RunTag>;
  /** The handlers of `chat.onHoldLapsed`. */
  readonly lapseHandlers: HoldLapsedHandler[] = [];
  /** Holds this instance's lapse sweeps know ended, so later sweeps skip their records. */
  private readonly settledHolds = new Set<string>();

  constructor(private readonly deps: ChatCoordinationDeps) {
    this.gate = new TurnGate<RunTag>(deps.config.clock);
  }

  // Async so a bad scope rejects rather than throws; the gate is still entered synchronously.
  async withExclusive<T>(scope: GateScope, fn: () => T | Promise<T>): Promise<T> {
    this.assertScope(scope, "run exclusive action");
    return this.gate.withExclusive(scope, fn);
  }

  async tryWithExclusive<T>(
    scope: GateScope,
    options: TryExclusiveOptions,
    fn: () => T | Promise<T>,
  ): Promise<ExclusiveAttempt<T>> {
    this.assertScope(scope, "try exclusive action");
    return this.gate.tryWithExclusive(scope, options, fn);
  }

  runDetached<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.deps.track(this.gate.runDetached(fn));
  }

  async reconfigure<T>(adapterName: string, fn: (adapter: Adapter) => T | Promise<T>): Promise<T> {
    const adapter = this.adapterNamed(adapterName, "reconfigure adapter");
    return this.gate.withExclusive({ adapter: adapterName }, () => fn(adapter));
  }

  /** `chat.once(key, …)`: the claim key is `once:chat:{key}`. */
  onceForChat<T>(key: string, work: OnceWork<T>, options: OnceOptions): Promise<OnceResult<T>> {
    if (typeof key !== "string" || key.length === 0) {
      return Promise.reject(
        new ValidationError("once needs a non-empty key", { step: "run once" }),
      );
    }
    return this.once(chatOnceKey(key), work, options);
  }

  once<T>(key: string, work: OnceWork<T>, options: OnceOptions): Promise<OnceResult<T>> {
    const { state, clock, logger } = this.deps.config;
    return runOnce({ state, clock, logger }, key, work, options);
  }

  /**
   * Takes a hold on the thread's lock key. Inside a handler run that holds that very key, the
   * run's lock is adopted (the handler would otherwise find its own lock busy); elsewhere the
   * lock is acquired, and `null` means someone holds it.
   */
  async hold(adapter: Adapter, threadId: string, options: HoldOptions): Promise<HoldHandle | null> {
    const step = `hold ${threadId}`;
    assertHoldOptions(options, step);
    const { state, clock, lockScope } = this.deps.config;
    const lockKey = await resolveLockKey(lockScope, adapter, threadId);
    const run = this.gate.findTag((tag) => tag.lockKey === lockKey && tag.adopt !== undefined);
    if (run?.adopt) {
      const sentAtMs = clock.now();
      const lock = await run.adopt();
      if (lock && (await state.extendLock(lock, options.ttlMs))) {
        // The extend applied no earlier than it was sent: the hold lasts at least this long.
        const adopted = { ...lock, expiresAt: sentAtMs + options.ttlMs };
        return this.recorded(holdHandleOf(adopted, threadId, options.owner, options.ownerPasses));
      }
    }
    const lock = await state.acquireLock(lockKey, options.ttlMs);
    return lock
      ? this.recorded(holdHandleOf(lock, threadId, options.owner, options.ownerPasses))
      : null;
  }

  /**
   * Writes a new hold's record (docs/coordination.md, "Hold records"). A hold whose record
   * could not be written is given up: its owner's messages would not pass it, its queue would
   * expire early and its lapse would go unnoticed.
   */
  private async recorded(handle: HoldHandle): Promise<HoldHandle> {
    const { state, clock } = this.deps.config;
    try {
      const nowMs = clock.now();
      await writeHoldRecord(state, recordOf(handle, nowMs), nowMs);
    } catch (error) {
      await releaseHeld(state, handle).catch(() => false);
      throw error;
    }
    return handle;
  }

  /**
   * Releases a hold (token-checked) and, when it was still held, drains its lock key's queue
   * here, detached from the caller's turn. False, doing nothing, for a stale handle.
   */
  async releaseHold(
    handle: HoldHandle | string,
    options: ReleaseHoldOptions = {},
  ): Promise<boolean> {
    const held = parseHoldHandle(handle, "release hold");
    const { state, clock } = this.deps.config;
    // Claimed before the release, so no sweep can take a just-released hold for a lapse.
    const ended = await claimHoldEnd(state, held.key, held.fence, "released");
    const released = await releaseHeld(state, held);
    if (released) {
      // Stamped with the release time: what waited behind it now has the usual TTL left.
      await this.recordFor(held)
        .then((record) =>
          updateHoldRecord(state, { ...record, expiresAt: clock.now() }, clock.now()),
        )
        .catch((error: unknown) => {
          this.deps.config.logger.warn("updating a released hold's record failed", { error });
        });
      if (options.drain !== false) void this.drainReleased(held.key);
    } else if (ended) {
      // Nobody had claimed its end and its token no longer holds: it lapsed, noticed here first.
      await this.noticeLapse(held);
    }
    return released;
  }

  /** `chat.onHoldLapsed`. */
  onHoldLapsed(handler: HoldLapsedHandler): void {
    if (typeof handler !== "function") {
      throw new ValidationError("onHoldLapsed needs a handler function", {
        step: "register handler",
      });
    }
    this.lapseHandlers.push(handler);
  }

  /** One lapse sweep (run by the sweeper before it drains queues). Never rejects. */
  sweepLapsedHolds(): Promise<void> {
    const { state, clock, logger } = this.deps.config;
    return sweepLapsedHolds({
      state,
      clock,
      logger,
      handlers: this.lapseHandlers,
      settled: this.settledHolds,
    });
  }

  private async noticeLapse(held: HoldHandle): Promise<void> {
    const { state, clock, logger } = this.deps.config;
    if (this.lapseHandlers.length === 0) {
      // This process cannot act on it (e.g. a dashboard): leave it to a bot instance's sweep.
      await unclaimHoldEnd(state, held.key, held.fence).catch(() => undefined);
      return;
    }
    const record = await this.recordFor(held);
    const deps = { state, clock, logger, handlers: this.lapseHandlers, settled: this.settledHolds };
    await emitHoldLapsed(deps, record);
  }

  /** The stored record of a hold, or one rebuilt from its handle when it is gone. */
  private async recordFor(held: HoldHandle): Promise<HoldRecord> {
    const { state, clock } = this.deps.config;
    return (await readHoldRecord(state, held.key, held.fence)) ?? recordOf(held, clock.now());
  }

  /** Moves a hold's expiry to `ttlMs` from now; false for a stale handle (never resurrects). */
  async extendHold(handle: HoldHandle | string, ttlMs: number): Promise<boolean> {
    const held = parseHoldHandle(handle, "extend hold");
    assertTtlMs("extend hold", ttlMs);
    const { state, clock } = this.deps.config;
    const sentAtMs = clock.now();
    if (!(await extendHeld(state, held, ttlMs))) return false;
    // The extend applied no earlier than it was sent: the hold lasts at least this long.
    const record = { ...(await this.recordFor(held)), expiresAt: sentAtMs + ttlMs };
    await updateHoldRecord(state, record, sentAtMs);
    return true;
  }

  private drainReleased(lockKey: string): Promise<void> {
    const { state, logger } = this.deps.config;
    return this.runDetached(async () => {
      try {
        if ((await state.queueDepth(lockKey)) === 0) return;
        await this.deps.strategy().drainOrphan?.(lockKey);
      } catch (error) {
        logger.warn("draining after a hold's release failed; the sweeper will drain it", {
          lockKey,
          error,
        });
      }
    });
  }

  private assertScope(scope: GateScope, step: string): void {
    if (scope === "all") return;
    this.adapterNamed((scope as { adapter?: unknown } | null)?.adapter, step);
  }

  private adapterNamed(name: unknown, step: string): Adapter {
    const adapter = typeof name === "string" ? this.deps.config.adapters[name] : undefined;
    if (!adapter) {
      throw new ValidationError(`no adapter named ${JSON.stringify(name)} is registered`, {
        step,
      });
    }
    return adapter;
  }
}
