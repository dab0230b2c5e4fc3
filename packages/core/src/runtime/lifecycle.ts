import { setMaxListeners } from "node:events";
import type { ChatHost } from "../contracts/adapter.js";
import type { TurnGate } from "../coordination/turn-gate.js";
import { AdmissionRejectedError, ShutdownError } from "../errors/index.js";
import type { ResolvedChatConfig } from "./chat-config.js";
import type { StrategyWiring } from "./strategy-wiring.js";

/**
 * Start-up and shutdown of one `Chat`, and the set of deliveries in flight. Initialization is
 * shared by concurrent callers and retried after a failure; shutdown is idempotent (a second
 * call waits for the first) and runs in order: close admission → abort running work → stop the
 * sweeper → wait for work in flight (bounded; past it, running turns are handed back) → disconnect adapters and the State as ONE
 * exclusive action on every installation (`"all"`), so no turn runs while they disconnect. If
 * the gate cannot be taken within what is left of `timeoutMs` (a handler ignores its signal),
 * shutdown does not wait longer: it logs a warning and disconnects anyway, outside the gate.
 */
export class Lifecycle {
  private initializing: Promise<void> | undefined;
  private initialized = false;
  private shuttingDown: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  private counted = 0;
  private readonly countedWaiters: Array<() => void> = [];
  private wiring: StrategyWiring | undefined;

  constructor(
    private readonly config: ResolvedChatConfig,
    private readonly host: ChatHost,
    private readonly gate: TurnGate<unknown>,
  ) {
    // Every lock session listening for shutdown adds a listener (removed when it ends); more
    // than ten sessions in flight is normal load, not the leak Node's warning is meant for.
    setMaxListeners(0, this.abort.signal);
  }

  /** Aborts when shutdown begins; every handler's `context.signal` follows it. */
  get shutdownSignal(): AbortSignal {
    return this.abort.signal;
  }

  /** True once shutdown began: new deliveries are refused. */
  get closed(): boolean {
    return this.abort.signal.aborted;
  }

  /**
   * Refuses work once shutdown began, like admission does for messages: events are not run
   * against a State about to disconnect, and the platform retries them elsewhere.
   */
  refuseIfClosed(step: string): void {
    if (!this.closed) return;
    throw new AdmissionRejectedError(
      "shutdown",
      this.config.retryAfterMs,
      "the bot is shutting down",
      {
        step,
      },
    );
  }

  /** True once `initialize()` has succeeded: callers need not wait for it. */
  get ready(): boolean {
    return this.initialized;
  }

  attach(wiring: StrategyWiring): void {
    this.wiring = wiring;
  }

  initialize(): Promise<void> {
    if (this.initialized) return Promise.resolve();
    this.initializing ??= this.start().then(
      () => {
        this.initialized = true;
      },
      (error: unknown) => {
        this.initializing = undefined;
        this.config.logger.error("initialize failed; the next call tries again", { error });
        throw error;
      },
    );
    return this.initializing;
  }

  /** Counts `work` as in flight until it settles, so shutdown can wait for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    const forget = () => this.inFlight.delete(work);
    work.then(forget, forget);
    return work;
  }

  /**
   * Counts one piece of work as in flight until the matching {@link end}, like {@link track}
   * but without a promise: for the work of every message, which ends in a `finally`.
   */
  begin(): void {
    this.counted += 1;
  }

  /** Ends one piece of work counted by {@link begin}. */
  end(): void {
    this.counted -= 1;
    if (this.counted > 0) return;
    for (const resolve of this.countedWaiters.splice(0)) resolve();
  }

  /** Resolves once no work counted by {@link begin} is left. */
  private countedDone(): Promise<void> {
    if (this.counted === 0) return Promise.resolve();
    return new Promise((resolve) => this.countedWaiters.push(resolve));
  }

  shutdown(timeoutMs: number): Promise<void> {
    this.shuttingDown ??= this.stop(timeoutMs);
    return this.shuttingDown;
  }

  private async start(): Promise<void> {
    await this.config.state.connect();
    for (const adapter of Object.values(this.config.adapters)) {
      await adapter.initialize(this.host);
    }
    this.wiring?.sweeper.start();
  }

  private async stop(timeoutMs: number): Promise<void> {
    const { logger, clock } = this.config;
    const deadlineMs = clock.now() + timeoutMs;
    this.abort.abort(new ShutdownError("the bot is shutting down", { step: "shutdown" }));
    await this.wiring?.sweeper.stop();
    const drained = await this.waitForInFlight(timeoutMs);
    if (!drained) {
      logger.warn(`shutdown: work still running after ${timeoutMs} ms`);
      // Durable turns: a handler still running past the deadline gives its turn back now, so
      // another instance runs it within a sweep interval rather than a lease expiry later.
      await this.wiring?.holders.handBackRunning();
    }
    this.wiring?.deliveries.settleAll("queued", "left in the queue at shutdown");
    const remainingMs = Math.max(0, deadlineMs - clock.now());
    const attempt = await this.gate.tryWithExclusive("all", { deadline: remainingMs }, () =>
      this.disconnectAll(),
    );
    if (!attempt.acquired) {
      logger.warn(
        `shutdown: the turn gate was not free within ${timeoutMs} ms (${attempt.reason}); disconnecting anyway`,
      );
      await this.disconnectAll();
    }
  }

  /** Disconnects every adapter, then the State; a failure is logged and the rest continues. */
  private async disconnectAll(): Promise<void> {
    const { logger } = this.config;
    for (const adapter of Object.values(this.config.adapters)) {
      try {
        await adapter.disconnect?.();
      } catch (error) {
        logger.error(`shutdown: disconnecting adapter ${adapter.name} failed`, { error });
      }
    }
    try {
      await this.config.state.disconnect();
    } catch (error) {
      logger.error("shutdown: disconnecting the State failed", { error });
    }
  }

  private async waitForInFlight(timeoutMs: number): Promise<boolean> {
    const { clock } = this.config;
    let timer: ReturnType<typeof clock.setTimeout> | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = clock.setTimeout(() => resolve(false), timeoutMs);
    });
    const all = Promise.allSettled([...this.inFlight, this.countedDone()]).then(
      () => true as const,
    );
    const drained = await Promise.race([all, timedOut]);
    if (timer !== undefined) clock.clearTimeout(timer);
    return drained;
  }
}
