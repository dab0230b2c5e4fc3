import type { Adapter, StateAdapter } from "@baton/core";

/**
 * How the adapter conformance suite reaches one adapter. `create()` is called once per test;
 * the suite wires the adapter into a real `Chat` (sync dispatch, silent logger) on a State from
 * `createState()`, and shuts that Chat down afterwards.
 */
export interface AdapterConformanceHarness<TThreadData = unknown> {
  /** A fresh adapter, not yet initialized (the suite's `Chat` initializes it). */
  create(): Adapter<TThreadData> | Promise<Adapter<TThreadData>>;
  /** A fresh, not yet connected State for that `Chat`; the suite has no backend of its own. */
  createState(): StateAdapter | Promise<StateAdapter>;
  /**
   * Thread data the adapter encodes: at least one; include a direct conversation when the
   * platform has them. The first one's thread is where messages are delivered and posted.
   */
  threads: readonly TThreadData[];
  /**
   * Delivers through the adapter's own entry point (its webhook, as the platform would call it)
   * a message with `text` in `threadId`, written by a user. Resolves when the entry point has
   * answered; the suite itself waits for the runtime to settle the delivery.
   */
  deliverUserMessage(
    adapter: Adapter<TThreadData>,
    threadId: string,
    text: string,
  ): Promise<unknown>;
  /**
   * The same, for a message the bot itself wrote: what platforms echo back after the bot
   * posts. The adapter must recognize it as the bot's (`author.isMe`).
   */
  deliverSelfMessage(
    adapter: Adapter<TThreadData>,
    threadId: string,
    text: string,
  ): Promise<unknown>;
  /**
   * A user of `threadId` the capability cases address (ephemeral messages, DMs, lookups): on
   * platforms where a thread belongs to one user, that user. Default `"U_CONFORMANCE"`.
   */
  userIn?(adapter: Adapter<TThreadData>, threadId: string): string;
  /** How long to wait for the runtime to settle a delivery. Default 5 000 ms. */
  settleTimeoutMs?: number;
  /** Frees what `create()` made (local servers…). Default: nothing beyond the Chat's shutdown. */
  dispose?(adapter: Adapter<TThreadData>): Promise<void>;
}
