import type { Clock } from "../clock/clock.js";
import type { Adapter, InteractionOptions, ProcessOptions } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import type { TurnGate } from "../coordination/turn-gate.js";
import { ValidationError } from "../errors/index.js";
import type { Lifecycle } from "./lifecycle.js";

/** What {@link EventTurns} needs from its `Chat`. */
export interface EventTurnsDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly lifecycle: Lifecycle;
  readonly gate: TurnGate<unknown>;
  /** The registered adapter object for `adapter`; throws a `ValidationError` for a stranger. */
  registered(adapter: Adapter): Adapter;
}

/**
 * Runs the handlers of a non-message event as one turn of the event's installation (DESIGN
 * §7.2): after initialization, refused once shutdown began, counted as in flight so shutdown
 * waits for it. Interactions the platform waits on (modal submits, options loads) can be bounded
 * by a deadline, so the adapter answers inside the platform's window even when a handler is slow.
 */
export class EventTurns {
  constructor(private readonly deps: EventTurnsDeps) {}

  async run<T>(
    adapter: Adapter,
    options: ProcessOptions | undefined,
    run: (registered: Adapter) => Promise<T>,
  ): Promise<T> {
    await this.deps.lifecycle.initialize();
    const registered = this.deps.registered(adapter);
    this.deps.lifecycle.refuseIfClosed(`admit ${registered.name} event`);
    const installation = { adapter: registered.name, tenant: options?.tenantId };
    return this.deps.lifecycle.track(this.deps.gate.runTurn(installation, () => run(registered)));
  }

  /**
   * Like {@link run}, resolving `undefined` once `options.deadlineMs` of clock time has passed
   * without an answer. The turn keeps running (shutdown still waits for it); its late answer can
   * no longer reach the platform, so it is logged and dropped, as is a late failure.
   */
  async runWithin<T>(
    what: string,
    adapter: Adapter,
    options: InteractionOptions | undefined,
    run: (registered: Adapter) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const deadlineMs = options?.deadlineMs;
    if (deadlineMs === undefined) return this.run(adapter, options, run);
    if (typeof deadlineMs !== "number" || !Number.isFinite(deadlineMs) || deadlineMs <= 0) {
      throw new ValidationError("deadlineMs must be a positive number of milliseconds", {
        step: `dispatch ${what}`,
      });
    }
    const { clock, logger } = this.deps;
    const turn = this.run(adapter, options, run);
    let timer: ReturnType<Clock["setTimeout"]> | undefined;
    let late = false;
    const deadline = new Promise<undefined>((resolve) => {
      timer = clock.setTimeout(() => {
        late = true;
        logger.warn(
          `${what} handlers missed the ${deadlineMs} ms deadline; answered without them`,
          {
            adapter: adapter.name,
          },
        );
        resolve(undefined);
      }, deadlineMs);
    });
    turn.then(
      (answer) => {
        if (late && answer !== undefined) {
          logger.warn(`${what} handlers answered after the deadline; the answer is dropped`, {
            adapter: adapter.name,
          });
        }
      },
      (error) => {
        if (late)
          logger.error(`${what} failed after the deadline`, { adapter: adapter.name, error });
      },
    );
    try {
      return await Promise.race([turn, deadline]);
    } finally {
      if (timer !== undefined) clock.clearTimeout(timer);
    }
  }
}
