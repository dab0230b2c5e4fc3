import type { Claim } from "@baton/core";

interface ClaimRecord {
  status: "claimed" | "armed" | "completed";
  generation: number;
  expiresAt: number;
}

/**
 * The memory backend's claim records (DESIGN §4, `claim`). A key is takeable when it has no
 * record, a re-armed one, or a claim whose TTL lapsed; a completed record is kept forever,
 * because completed work must never run again. Generations come from the backend's fence
 * sequence, so they strictly increase per key across takeover, re-arm and completion.
 */
export class ClaimTable {
  private readonly records = new Map<string, ClaimRecord>();

  constructor(
    private readonly now: () => number,
    private readonly nextGeneration: () => number,
  ) {}

  /** Records held, lapsed and re-armed ones awaiting purge included. */
  get size(): number {
    return this.records.size;
  }

  /** A new claim on `key` for `ttlMs`, or `null` while another claim holds it or it completed. */
  take(key: string, ttlMs: number): Claim | null {
    const record = this.records.get(key);
    const takeable =
      !record ||
      record.status === "armed" ||
      (record.status === "claimed" && record.expiresAt <= this.now());
    if (!takeable) return null;
    const next: ClaimRecord = {
      status: "claimed",
      generation: this.nextGeneration(),
      expiresAt: this.now() + ttlMs,
    };
    this.records.set(key, next);
    return { key, generation: next.generation, expiresAt: next.expiresAt };
  }

  /** Ends `claim` as `completed` or `armed`; false when its generation is stale or it ended. */
  settle(claim: Claim, status: "completed" | "armed"): boolean {
    const record = this.records.get(claim.key);
    if (record?.status !== "claimed" || record.generation !== claim.generation) return false;
    record.status = status;
    return true;
  }

  /** Forgets every record, as a disconnect forgets all data. */
  clear(): void {
    this.records.clear();
  }

  /** Drops every record that behaves like an absent one: re-armed, or claimed and lapsed. */
  purge(): void {
    const now = this.now();
    for (const [key, record] of this.records) {
      const lapsed = record.status === "claimed" && record.expiresAt <= now;
      if (record.status === "armed" || lapsed) this.records.delete(key);
    }
  }
}
