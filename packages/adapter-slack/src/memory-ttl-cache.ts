import type { Clock } from "@baton/core";

/** What a {@link MemoryTtlCache} keeps, and for how long. */
export interface MemoryTtlCacheOptions {
  /** How long a value is fresh after it was set. */
  readonly ttlMs: number;
  /**
   * How long past its expiry a value may still be read by {@link MemoryTtlCache.getAllowingStale}
   * (while someone refreshes it); past that it is dropped. Default 0: never.
   */
  readonly staleGraceMs?: number;
  /** The most entries kept; past it the entry written longest ago goes. */
  readonly maxEntries: number;
}

/**
 * A bounded in-process cache with a time to live, on an injected clock. Reads are synchronous
 * (the webhook path reads it before answering Slack). Past `maxEntries` the entry written longest
 * ago goes, so memory stays bounded however many keys pass through.
 */
export class MemoryTtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();
  private readonly ttlMs: number;
  private readonly staleGraceMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly clock: Clock,
    options: MemoryTtlCacheOptions,
  ) {
    this.ttlMs = options.ttlMs;
    this.staleGraceMs = options.staleGraceMs ?? 0;
    this.maxEntries = options.maxEntries;
  }

  /** The fresh value, or undefined when absent or expired. */
  get(key: string): V | undefined {
    const entry = this.live(key);
    return entry !== undefined && entry.expiresAtMs > this.clock.now() ? entry.value : undefined;
  }

  /** The fresh value, else one expired less than `staleGraceMs` ago, else undefined. */
  getAllowingStale(key: string): V | undefined {
    return this.live(key)?.value;
  }

  /** Stores `value`, fresh for `ttlMs` from now, as the newest entry. */
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

  /** The entry, unless it is past its grace period (then it is dropped). */
  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs + this.staleGraceMs <= this.clock.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
