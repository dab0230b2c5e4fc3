/**
 * What the bench's mention handler does, for either implementation: it records which messages
 * each run answered (its own and the skipped ones), tells a waiting scenario that a thread's run
 * began, and — in the contended scenario — holds the first run of a thread until a condition
 * the scenario sets. It never posts: the bench measures dispatch and State cost, not an adapter.
 */
export class HandlerProbe {
  private readonly accounted = new Set<string>();
  private readonly holds = new Map<string, () => Promise<unknown>>();
  private readonly startWaiters = new Map<string, () => void>();
  private runs = 0;
  private duplicates = 0;

  /** Handler runs since the last reset. */
  get handlerRuns(): number {
    return this.runs;
  }

  /** Messages answered twice (by two runs): should stay 0 on every implementation. */
  get answeredTwice(): number {
    return this.duplicates;
  }

  /** Forgets what was recorded (ids, runs), keeping nothing from a warm-up. */
  reset(): void {
    this.accounted.clear();
    this.runs = 0;
    this.duplicates = 0;
  }

  /** The body of the mention handler: `skippedIds` are the ids in `context.skipped`. */
  async run(threadId: string, messageId: string, skippedIds: readonly string[]): Promise<void> {
    this.startWaiters.get(threadId)?.();
    this.startWaiters.delete(threadId);
    const hold = this.holds.get(threadId);
    if (hold) {
      this.holds.delete(threadId);
      await hold();
    }
    this.runs += 1;
    for (const id of [messageId, ...skippedIds]) {
      if (this.accounted.has(id)) this.duplicates += 1;
      this.accounted.add(id);
    }
  }

  /** Resolves when the next run on `threadId` begins. */
  runStarted(threadId: string): Promise<void> {
    return new Promise((resolve) => this.startWaiters.set(threadId, resolve));
  }

  /** The next run on `threadId` waits for `until()` before it finishes. */
  holdNextRun(threadId: string, until: () => Promise<unknown>): void {
    this.holds.set(threadId, until);
  }

  /** How many of `ids` no run has answered. */
  unanswered(ids: readonly string[]): number {
    return ids.filter((id) => !this.accounted.has(id)).length;
  }
}
