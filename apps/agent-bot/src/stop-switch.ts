import { randomUUID } from "node:crypto";
import {
  type Clock,
  type ClockTimer,
  type Logger,
  type StateAdapter,
  systemClock,
} from "@baton/core";

/** How often a streaming run looks for a stop request made on another instance. */
export const STOP_POLL_MS = 250;

/** How long the "a run is streaming here" mark lives without its run ending it. */
const RUNNING_TTL_MS = 15 * 60_000;

/** One answer in progress. */
export interface StopRun {
  /** Aborts on a stop request, or when the handler's own signal aborts (lease lost, shutdown). */
  readonly signal: AbortSignal;
  /** Forgets the run; call it when the answer is done, however it ended. */
  end(): Promise<void>;
}

const runningKey = (threadId: string) => `agent-bot:running:${threadId}`;
const stopKey = (threadId: string) => `agent-bot:stop:${threadId}`;

/**
 * Stops answers: the stop button may be clicked on any instance, the answer streams on one.
 * A run on this instance is aborted at once; a run elsewhere sees the request within
 * {@link STOP_POLL_MS}, through a mark in the State naming its run id (so a stop meant for one
 * answer never stops the next).
 */
export class StopSwitch {
  private readonly local = new Map<string, { runId: string; controller: AbortController }>();
  private readonly clock: Clock;

  constructor(
    private readonly state: StateAdapter,
    private readonly logger: Logger,
    clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
  }

  /** Starts a run in `threadId`, aborting with `signal` or a stop request. */
  async begin(threadId: string, signal: AbortSignal): Promise<StopRun> {
    const runId = randomUUID();
    const controller = new AbortController();
    this.local.set(threadId, { runId, controller });
    await this.state.set(runningKey(threadId), runId, RUNNING_TTL_MS);
    let timer: ClockTimer | undefined;
    const poll = () => {
      timer = this.clock.setTimeout(async () => {
        try {
          if ((await this.state.get(stopKey(threadId))) === runId) {
            controller.abort(new Error("stopped by the user"));
            return;
          }
        } catch (error) {
          this.logger.warn("checking for a stop request failed", { threadId, error });
        }
        if (!controller.signal.aborted) poll();
      }, STOP_POLL_MS);
    };
    poll();
    return {
      signal: AbortSignal.any([signal, controller.signal]),
      end: async () => {
        if (timer !== undefined) this.clock.clearTimeout(timer);
        if (this.local.get(threadId)?.runId === runId) this.local.delete(threadId);
        if ((await this.state.get(runningKey(threadId))) === runId) {
          await this.state.delete(runningKey(threadId));
        }
      },
    };
  }

  /** Requests a stop of the run in `threadId`; false when none is running anywhere. */
  async stop(threadId: string): Promise<boolean> {
    const here = this.local.get(threadId);
    if (here) {
      here.controller.abort(new Error("stopped by the user"));
      return true;
    }
    const runId = await this.state.get<string>(runningKey(threadId));
    if (typeof runId !== "string") return false;
    await this.state.set(stopKey(threadId), runId, RUNNING_TTL_MS);
    return true;
  }
}
