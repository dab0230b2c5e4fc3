import type { ObservedState } from "./observed-state.js";
import type { RoundTripCounter } from "./round-trips.js";

/** The two implementations compared. */
export type Implementation = "baton" | "upstream";

/** The State backends compared. */
export type BackendName = "memory" | "redis" | "postgres";

/** The concurrency strategies the scenarios use; both implementations offer both. */
export type BenchStrategy = "drop" | "queue";

/** One message the bench sends: a human mentioning the bot. */
export interface BenchMessage {
  readonly id: string;
  readonly threadId: string;
  readonly text: string;
}

/** A {@link BenchMessage} with the platform message one implementation receives for it. */
export interface PreparedMessage extends BenchMessage {
  readonly platform: object;
}

/**
 * One Chat of either implementation on one backend, wired to a {@link HandlerProbe}: the unit
 * every scenario drives. Exactly one is active at a time, so the process-wide Redis counter
 * counts only its commands.
 */
export interface BenchBot {
  readonly implementation: Implementation;
  readonly backend: BackendName;
  /** The State adapter as the Chat sees it, observed. */
  readonly observed: ObservedState<object>;
  /** Round trips to the backend's server (always 0 on memory). */
  readonly roundTrips: RoundTripCounter;
  /** Connections the backend opened in the current window, where that is known (Postgres). */
  connectionsOpened(): number | undefined;
  /** The State key under which this implementation locks and queues `threadId`. */
  lockKeyOf(threadId: string): string;
  /**
   * The message as this implementation's platform message, built ahead: building it is an
   * adapter's parsing work, not dispatch, so scenarios build every message before the measured
   * window starts.
   */
  prepare(message: BenchMessage): PreparedMessage;
  /**
   * Calls the Chat's `processMessage` and resolves when it does; resolves to `"failed"` when it
   * rejects or reports an error/drop, so a scenario can count failures without stopping. A
   * message not {@link prepare}d is built here.
   */
  deliver(message: BenchMessage | PreparedMessage): Promise<"ok" | "failed">;
  /** Shuts the Chat down and removes everything the run wrote to the server. */
  close(): Promise<void>;
}
