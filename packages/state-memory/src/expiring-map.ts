/** A value with an optional absolute expiry in epoch milliseconds. */
interface Slot<T> {
  value: T;
  expiresAt: number | undefined;
}

/**
 * A map whose entries disappear at their expiry time by the given clock. Expired entries are
 * invisible at once and removed on access or by `purgeExpired()`, so memory stays bounded.
 */
export class ExpiringMap<T> {
  private readonly slots = new Map<string, Slot<T>>();

  constructor(private readonly now: () => number) {}

  get(key: string): T | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (slot.expiresAt !== undefined && slot.expiresAt <= this.now()) {
      this.slots.delete(key);
      return undefined;
    }
    return slot.value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The live entry's expiry, `undefined` for none or for an absent key. */
  expiresAt(key: string): number | undefined {
    return this.get(key) === undefined ? undefined : this.slots.get(key)?.expiresAt;
  }

  set(key: string, value: T, ttlMs?: number): void {
    this.slots.set(key, {
      value,
      expiresAt: ttlMs === undefined ? undefined : this.now() + ttlMs,
    });
  }

  /** Sets the expiry of a live entry; returns false when the key is absent or expired. */
  touch(key: string, ttlMs: number): boolean {
    const slot = this.get(key) === undefined ? undefined : this.slots.get(key);
    if (!slot) return false;
    slot.expiresAt = this.now() + ttlMs;
    return true;
  }

  delete(key: string): void {
    this.slots.delete(key);
  }

  /** Live keys, in insertion order. */
  *keys(): IterableIterator<string> {
    for (const key of [...this.slots.keys()]) {
      if (this.get(key) !== undefined) yield key;
    }
  }

  /** Removes every expired entry; returns how many went. */
  purgeExpired(): number {
    const now = this.now();
    let removed = 0;
    for (const [key, slot] of this.slots) {
      if (slot.expiresAt !== undefined && slot.expiresAt <= now) {
        this.slots.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  /** Entries held, expired ones not yet purged included. For tests of purging. */
  get storedSize(): number {
    return this.slots.size;
  }

  clear(): void {
    this.slots.clear();
  }
}
