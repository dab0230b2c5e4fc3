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
}

/** The third argument of an `onMessageUpdated` handler. */
export interface MessageUpdatedContext extends MessageContext {
  /**
   * The message as it read before the edit, when the platform sends it with the edit (Slack's
   * `previous_message`); `undefined` when it does not. Lets a handler diff the change.
   */
  previousMessage?: Message;
}
