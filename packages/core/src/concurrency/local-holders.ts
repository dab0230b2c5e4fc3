/**
 * The lock keys this process holds right now, with their fences. A contender that fails to take
 * a lock asks here whether the holder is local, so it can wait for the local drain instead of
 * handing the message off to another process.
 */
export class LocalHolders {
  private readonly fences = new Map<string, number>();
  /** Held keys whose queue got an entry from this process since the holder last looked. */
  private readonly arrivals = new Set<string>();

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

  get size(): number {
    return this.fences.size;
  }
}
