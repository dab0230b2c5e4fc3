/**
 * The lock keys this process holds right now, with their fences. A contender that fails to take
 * a lock asks here whether the holder is local, so it can wait for the local drain instead of
 * handing the message off to another process.
 */
export class LocalHolders {
  private readonly fences = new Map<string, number>();
  /** Held keys whose queue got an entry from this process since the holder last looked. */
  private readonly arrivals = new Set<string>();
  /** How many holder turns ({@link enterTurns}) are under way per key, re-checks included. */
  private readonly turns = new Map<string, number>();
  /** Keys whose lease, in one of the turns under way, lapsed or was taken over by a hold. */
  private readonly lapsed = new Set<string>();
  /** Sessions of this process holding a lock, so shutdown can hand their turns back. */
  private readonly sessions = new Set<RunningTurn>();

  /** Notes a session holding a lock until {@link unregister}. */
  register(session: RunningTurn): void {
    this.sessions.add(session);
  }

  unregister(session: RunningTurn): void {
    this.sessions.delete(session);
  }

  /**
   * Shutdown's deadline passed: every session still holding a lock hands its turn back now, so
   * another instance runs it within a sweep interval instead of after the lease expires.
   */
  async handBackRunning(): Promise<void> {
    await Promise.allSettled([...this.sessions].map((session) => session.handBackNow("shutdown")));
  }

  /** Per key with turns under way: the {@link stamp} of the latest look at its queue under lock. */
  private readonly looks = new Map<string, number>();
  private sequence = 0;

  add(lockKey: string, fence: number): void {
    this.fences.set(lockKey, fence);
  }

  delete(lockKey: string, fence: number): void {
    if (this.fences.get(lockKey) !== fence) return;
    this.fences.delete(lockKey);
    this.arrivals.delete(lockKey);
  }

  has(lockKey: string): boolean {
    return this.fences.has(lockKey);
  }

  /** True when `fence` is the fence of a lock this process holds on `lockKey`. */
  holdsFence(lockKey: string, fence: number): boolean {
    return this.fences.get(lockKey) === fence;
  }

  /**
   * Notes that a delivery of this process has just put an entry in the queue of `lockKey`, while
   * this process holds that key (otherwise nothing is noted). A hint for the local holder, never
   * a guarantee: entries queued by other processes are not noted, so the holder still relies on
   * the State's look at the queue when it releases.
   */
  noteArrival(lockKey: string): void {
    if (this.fences.has(lockKey)) this.arrivals.add(lockKey);
  }

  /** True when an arrival on `lockKey` was noted since the previous call; forgets it. */
  takeArrival(lockKey: string): boolean {
    return this.arrivals.delete(lockKey);
  }

  /** A number greater than every one handed out before: orders waits and looks in this process. */
  stamp(): number {
    this.sequence += 1;
    return this.sequence;
  }

  /**
   * Counts a holder's turns on `lockKey` as begun: taking the lock, working, releasing and
   * re-checking the queue, as many times as the re-check asks for. Paired with {@link exitTurns}.
   */
  enterTurns(lockKey: string): void {
    this.turns.set(lockKey, (this.turns.get(lockKey) ?? 0) + 1);
  }

  /**
   * Notes that a holder of `lockKey` is about to look at its queue while holding the lock (a
   * dequeue, or the fused release): every entry queued before now is either found by that look,
   * or was removed from the queue by someone else. Ignored outside turns.
   */
  noteLook(lockKey: string): void {
    if (this.turns.has(lockKey)) this.looks.set(lockKey, this.stamp());
  }

  /**
   * Ends turns begun with {@link enterTurns}; `lapsed` when the lease of one of them was lost or
   * handed to a hold. `done` is true when no turn is under way on `lockKey` any more and no lock
   * of it is held here; then `lapsed` says whether any of the turns lapsed (another holder may
   * have had the lock meanwhile), `lastLookStamp` is the stamp of their latest look under lock,
   * and both are forgotten.
   */
  exitTurns(
    lockKey: string,
    lapsed: boolean,
  ): { done: boolean; lapsed: boolean; lastLookStamp: number | undefined } {
    if (lapsed) this.lapsed.add(lockKey);
    const left = (this.turns.get(lockKey) ?? 1) - 1;
    if (left > 0) this.turns.set(lockKey, left);
    else this.turns.delete(lockKey);
    const done = left === 0 && !this.fences.has(lockKey);
    const result = {
      done,
      lapsed: this.lapsed.has(lockKey),
      lastLookStamp: this.looks.get(lockKey),
    };
    if (done) {
      this.lapsed.delete(lockKey);
      this.looks.delete(lockKey);
    }
    return result;
  }

  get size(): number {
    return this.fences.size;
  }
}

/** What {@link LocalHolders.handBackRunning} needs of a lock session. */
export interface RunningTurn {
  handBackNow(reason: "shutdown"): Promise<void>;
}
