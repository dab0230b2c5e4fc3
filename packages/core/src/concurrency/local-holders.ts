/**
 * The lock keys this process holds right now, with their fences. A contender that fails to take
 * a lock asks here whether the holder is local, so it can wait for the local drain instead of
 * handing the message off to another process.
 */
export class LocalHolders {
  private readonly fences = new Map<string, number>();

  add(lockKey: string, fence: number): void {
    this.fences.set(lockKey, fence);
  }

  delete(lockKey: string, fence: number): void {
    if (this.fences.get(lockKey) === fence) this.fences.delete(lockKey);
  }

  has(lockKey: string): boolean {
    return this.fences.has(lockKey);
  }

  /** True when `fence` is the fence of a lock this process holds on `lockKey`. */
  holdsFence(lockKey: string, fence: number): boolean {
    return this.fences.get(lockKey) === fence;
  }

  get size(): number {
    return this.fences.size;
  }
}
