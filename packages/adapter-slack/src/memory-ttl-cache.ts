import type { Clock } from "@baton/core";

/**
 * A bounded in-process cache with a time to live, on an injected clock. Reads are synchronous
 * (the webhook path reads it before answering Slack). Past `maxEntries` the oldest entry goes.
 */
export class MemoryTtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The live value, or undefined when absent or expired (an expired entry is dropped). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** True when a live value is stored, whatever it is (`null` included). */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Stores `value` for `ttlMs` from now, as the newest entry. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs: this.clock.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Forgets `key`. */
  delete(key: string): void {
    this.entries.delete(key);
  }
}
