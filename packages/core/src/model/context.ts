import type { Message } from "./message.js";

/**
 * The third argument of every message handler. Always present, also for a lone message.
 */
export interface MessageContext {
  /**
   * Messages of the same thread that arrived while the previous handler ran (queue, burst) or
   * during the quiet period (debounce) and were folded into this run, oldest first. Empty for a
   * lone message.
   */
  skipped: Message[];
  /** `skipped.length + 1`: how many messages this run answers. */
  totalSinceLastHandler: number;
  /**
   * Aborts when the run must stop: lease on the lock lost (`LockLostError`), detached work timed
   * out, or shutdown. Pass it to every slow call.
   */
  signal: AbortSignal;
  /** The fence of the lock this run holds, for fencing writes to outside systems. */
  lock?: { fence: number };
  /**
   * Which run of this turn this is, 1 on the first. Above 1 when an earlier run was interrupted
   * (its instance died, was shut down, or lost its lease) and this run picks the turn up again
   * with the same messages (durable turns, DESIGN §6.1). Side effects of the earlier run may have
   * happened: make them idempotent with `thread.once(key, fn)`.
   */
  attempt: number;
  /** Present when this run picks up an interrupted turn: what happened to the run before it. */
  interrupted?: TurnInterruption;
}

/** What interrupted the previous run of a turn that runs again (`context.interrupted`). */
export interface TurnInterruption {
  /** The interrupted run's attempt number (`context.attempt - 1`). */
  readonly attempt: number;
  /** When the interrupted run started. */
  readonly startedAt: Date;
  /**
   * `lease-expired`: its instance stopped renewing the lock without handing the turn back (a
   * crash, a kill); `shutdown`: its instance shut down mid-run and handed the turn back;
   * `lease-lost`: its instance lost the lock's lease mid-run and handed the turn back.
   */
  readonly reason: "lease-expired" | "shutdown" | "lease-lost";
}

/** The third argument of an `onMessageUpdated` handler. */
export interface MessageUpdatedContext extends MessageContext {
  /**
   * The message as it read before the edit, when the platform sends it with the edit (Slack's
   * `previous_message`); `undefined` when it does not. Lets a handler diff the change.
   */
  previousMessage?: Message;
}
