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

/** What a handler run (a turn) carries, so `thread.hold` inside it can take its lock over. */
export interface RunTag {
  readonly lockKey: string | undefined;
  readonly adopt: (() => Promise<Lock | null>) | undefined;
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
        return holdHandleOf(adopted, threadId, options.owner);
      }
    }
    const lock = await state.acquireLock(lockKey, options.ttlMs);
    return lock ? holdHandleOf(lock, threadId, options.owner) : null;
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
    const released = await releaseHeld(this.deps.config.state, held);
    if (released && options.drain !== false) void this.drainReleased(held.key);
    return released;
  }

  /** Moves a hold's expiry to `ttlMs` from now; false for a stale handle (never resurrects). */
  async extendHold(handle: HoldHandle | string, ttlMs: number): Promise<boolean> {
    const held = parseHoldHandle(handle, "extend hold");
    assertTtlMs("extend hold", ttlMs);
    return extendHeld(this.deps.config.state, held, ttlMs);
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
