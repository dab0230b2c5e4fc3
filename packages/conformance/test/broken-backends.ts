import type {
  AcquireLockOptions,
  Claim,
  Lock,
  QueueEntry,
  ReleaseLockOptions,
  StateAdapter,
  TakeQueuedTurnOptions,
} from "@baton/core";

/**
 * Deliberately broken State backends, each a memory backend with one guarantee removed. The
 * suite must fail against every one of them; if it passes, the suite cannot see that bug.
 */
export type Breakage = (inner: StateAdapter) => Partial<StateAdapter>;

/** A backend that behaves like `inner` except for the methods `breakage` replaces. */
export function breakState(inner: StateAdapter, breakage: Breakage): StateAdapter {
  const overrides = breakage(inner) as Record<PropertyKey, unknown>;
  return new Proxy(inner, {
    get(target, property) {
      if (property in overrides) return overrides[property];
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A backend without durable turn records (an optional capability): every TurnState method is
 * absent. Also used by breakages of the plain lock calls, which model a backend without records.
 */
export const withoutTurns: Breakage = () => ({
  pendingTurnKeys: undefined,
  recoverTurn: undefined,
  takeQueuedTurn: undefined,
  writeTurn: undefined,
  inspectTurn: undefined,
});

/** Lets other callers run, as a network round trip would. */
const roundTrip = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `releaseLock` frees the lock whoever holds it. */
export const releaseIgnoringToken: Breakage = (inner) => ({
  async releaseLock(lock: Lock) {
    if (!(await inner.inspectLock(lock.key))) return false;
    await inner.forceReleaseLock(lock.key);
    return true;
  },
});

/** `extendLock` reports success even when the lock is gone or someone else's. */
export const extendAlwaysTrue: Breakage = (inner) => ({
  async extendLock(lock: Lock, ttlMs: number) {
    await inner.extendLock(lock, ttlMs);
    return true;
  },
});

/**
 * Fences count per key — allowed (DESIGN §4.1: strictly increasing per lock key) — and the suite
 * must pass it: nothing may compare fences of different keys.
 */
export const fencePerKey: Breakage = (inner) => {
  const acquiresPerKey = new Map<string, number>();
  const fenceOfKey = new Map<string, number>();
  return {
    ...withoutTurns(inner),
    async acquireLock(key: string, ttlMs: number) {
      const lock = await inner.acquireLock(key, ttlMs);
      if (!lock) return null;
      const fence = (acquiresPerKey.get(key) ?? 0) + 1;
      acquiresPerKey.set(key, fence);
      fenceOfKey.set(key, fence);
      return { ...lock, fence };
    },
    async inspectLock(key: string) {
      const info = await inner.inspectLock(key);
      return info && { ...info, fence: fenceOfKey.get(key) ?? info.fence };
    },
  };
};

/**
 * A key's fence is kept with its lock and starts over once the lock is gone (released, expired,
 * force-released) — upstream's counter-in-the-lock-record: a stale holder can then carry a
 * higher fence than the new one.
 */
export const fenceForgottenWithLock: Breakage = (inner) => {
  const fenceOfKey = new Map<string, number>();
  return {
    ...withoutTurns(inner),
    async acquireLock(key: string, ttlMs: number) {
      const held = await inner.inspectLock(key);
      const lock = await inner.acquireLock(key, ttlMs);
      if (!lock) return null;
      const fence = held ? (fenceOfKey.get(key) ?? 0) + 1 : 1;
      fenceOfKey.set(key, fence);
      return { ...lock, fence };
    },
    async inspectLock(key: string) {
      const info = await inner.inspectLock(key);
      return info && { ...info, fence: fenceOfKey.get(key) ?? info.fence };
    },
  };
};

/** `enqueue` checks the depth and writes in separate round trips. */
export const nonAtomicEnqueue: Breakage = (inner) => ({
  async enqueue(key: string, entry: QueueEntry, options) {
    const depth = await inner.queueDepth(key);
    await roundTrip();
    if (depth >= options.maxSize && options.onFull === "drop-newest") {
      return { depth, evicted: [entry] };
    }
    const evicted: QueueEntry[] = [];
    if (depth >= options.maxSize) {
      const head = await inner.dequeue(key);
      if (head) evicted.push(head);
    }
    const unbounded = { maxSize: Number.MAX_SAFE_INTEGER, onFull: options.onFull };
    const result = await inner.enqueue(key, entry, unbounded);
    return { depth: result.depth, evicted };
  },
});

/** `setIfNotExists` reads, then writes in a second round trip. */
export const nonAtomicSetIfNotExists: Breakage = (inner) => ({
  async setIfNotExists(key, value, ttlMs) {
    const existing = await inner.get(key);
    await roundTrip();
    if (existing !== null) return false;
    await inner.set(key, value, ttlMs);
    return true;
  },
});

/** `completeClaim` and `rearmClaim` act on the current claim whatever generation they are given. */
export const claimIgnoringGeneration: Breakage = (inner) => {
  const latest = new Map<string, Claim>();
  return {
    async claim(key: string, ttlMs: number) {
      const claim = await inner.claim(key, ttlMs);
      if (claim) latest.set(key, claim);
      return claim;
    },
    async completeClaim(claim: Claim) {
      return inner.completeClaim(latest.get(claim.key) ?? claim);
    },
    async rearmClaim(claim: Claim) {
      return inner.rearmClaim(latest.get(claim.key) ?? claim);
    },
  };
};

/** The queue hands out the newest entry first. */
export const lifoDequeue: Breakage = (inner) => ({
  async dequeue(key: string) {
    const entries: QueueEntry[] = [];
    for (let entry = await inner.dequeue(key); entry; entry = await inner.dequeue(key)) {
      entries.push(entry);
    }
    const newest = entries.pop() ?? null;
    for (const entry of entries) {
      await inner.enqueue(key, entry, { maxSize: Number.MAX_SAFE_INTEGER, onFull: "drop-oldest" });
    }
    return newest;
  },
});

/** The end of a turn deletes the key's record whatever its fence: a newer holder's turn too. */
export const turnEndIgnoringFence: Breakage = (inner) => ({
  async releaseLock(lock: Lock, options?: ReleaseLockOptions) {
    if (options?.turn?.kind !== "end") return inner.releaseLock(lock, options);
    const released = await inner.releaseLock(lock);
    const record = await inner.inspectTurn?.(lock.key);
    if (record) {
      const recordsHolder = { ...lock, token: "not-the-holder", fence: record.fence };
      await inner.releaseLock(recordsHolder, { turn: { kind: "end" } });
    }
    return released;
  },
});

/** A hand-back ends the turn: the record is deleted instead of kept for recovery. */
export const handBackEndingTurn: Breakage = (inner) => ({
  async releaseLock(lock: Lock, options?: ReleaseLockOptions) {
    return inner.releaseLock(lock, options?.turn ? { turn: { kind: "end" } } : options);
  },
});

/** An acquire with a turn clears an interrupted turn's record out of its way. */
export const acquireOverInterruptedTurn: Breakage = (inner) => ({
  async acquireLock(key: string, ttlMs: number, options?: AcquireLockOptions) {
    const record = options?.turn && (await inner.inspectTurn?.(key));
    if (record && !(await inner.inspectLock(key))) {
      const interrupted = { key, token: "not-the-holder", fence: record.fence, expiresAt: 0 };
      await inner.releaseLock(interrupted, { turn: { kind: "end" } });
    }
    return inner.acquireLock(key, ttlMs, options);
  },
});

/**
 * `recoverTurn` looks for a record and, a round trip later, frees whatever lock is there and
 * recovers: it takes live locks, its own concurrent callers' included.
 */
export const recoverOverLiveLock: Breakage = (inner) => ({
  async recoverTurn(key: string, ttlMs: number, options: { readonly startedAt: number }) {
    const record = await inner.inspectTurn?.(key);
    await roundTrip();
    if (record) await inner.forceReleaseLock(key);
    return (await inner.recoverTurn?.(key, ttlMs, options)) ?? null;
  },
});

/** `takeQueuedTurn` dequeues, then writes the record in a second step, held or not. */
export const nonAtomicTakeQueuedTurn: Breakage = (inner) => ({
  async takeQueuedTurn(lock: Lock, options: TakeQueuedTurnOptions) {
    const entries: QueueEntry[] = [];
    while (entries.length < options.maxEntries) {
      const entry = await inner.dequeue(lock.key);
      if (!entry) break;
      entries.push(entry);
    }
    await roundTrip();
    if (entries.length > 0)
      await inner.writeTurn?.(lock, { entries, startedAt: options.startedAt });
    return entries;
  },
});
