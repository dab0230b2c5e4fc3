/**
 * How many shards the pending-queue index (and the pending-turn index) has. Every queue belongs to one shard, chosen by a hash
 * of its key; the shard, the queue, its lock and its fence record share one hash tag, so they sit
 * in one Redis Cluster slot. 64 tags spread evenly over the masters of any cluster up to a dozen
 * masters or so, and keep a sweep (one `SRANDMEMBER` per shard, pipelined) cheap.
 */
export const PENDING_INDEX_SHARDS = 64;

/**
 * The Redis key layout of one backend (one `keyPrefix`). Every key starts with `<prefix>:`.
 *
 * Redis Cluster runs a script or a multi-key command only when every key it names hashes to one
 * slot, and hashes only the text between the first `{` and the next `}` (the hash tag) when a key
 * has one. So:
 *
 * - A **thread's coordination keys** — its lock, its fence record, its queue, its turn record —
 *   and the **index shards** that list the queue and the turn record share the tag `{b<n>}`,
 *   where `n` is a bucket (FNV-1a of the key, modulo {@link PENDING_INDEX_SHARDS}):
 *   `<prefix>:lock:{b17}:<key>`, `<prefix>:fence:{b17}:<key>`, `<prefix>:queue:{b17}:<key>`,
 *   `<prefix>:turn:{b17}:<key>`, `<prefix>:pending:{b17}`, `<prefix>:pending-turns:{b17}`. The
 *   caller's key follows the tag verbatim: only the first tag counts, and the bucket is a function
 *   of the key, so distinct keys never share a Redis key.
 * - **Other per-key items** (values, lists, claims, subscriptions) put the caller's key itself in
 *   the tag, `<prefix>:<namespace>:{<key>}` (with `%` and `}` escaped), spreading them over all
 *   slots.
 *
 * There is no global key: fences are per lock key (DESIGN §4.1), so nothing forces every lock
 * into one slot. Each capability has its own namespace segment, so they never collide. Exported
 * for operators and tests; the backend never scans keys.
 */
export class RedisKeyLayout {
  /** Every shard of the pending-queue index, each a Redis set of the caller's queue keys. */
  readonly pendingShards: readonly string[];
  /** Every shard of the pending-turn index, each a sorted set of the caller's lock keys. */
  readonly pendingTurnShards: readonly string[];

  constructor(readonly prefix: string) {
    this.pendingShards = Array.from(
      { length: PENDING_INDEX_SHARDS },
      (_, bucket) => `${prefix}:pending:${bucketTag(bucket)}`,
    );
    this.pendingTurnShards = Array.from(
      { length: PENDING_INDEX_SHARDS },
      (_, bucket) => `${prefix}:pending-turns:${bucketTag(bucket)}`,
    );
  }

  /** A string `<fence>:<token>` with the lock's TTL. */
  lock(key: string): string {
    return this.coordination("lock", key);
  }

  /**
   * The last fence issued on lock `key` (a decimal string), so the next one is higher even after
   * the lock itself expired or was released. Kept {@link FENCE_RECORD_TTL_MS} after the last
   * acquire; past that, the server's clock alone keeps fences increasing (see `NEXT_FENCE`).
   */
  fence(key: string): string {
    return this.coordination("fence", key);
  }

  /** A list of JSON queue entries, oldest first. */
  queue(key: string): string {
    return this.coordination("queue", key);
  }

  /** The pending-index shard that lists queue `key` while it holds entries. */
  pendingShard(key: string): string {
    return `${this.prefix}:pending:${bucketTag(bucketOf(key))}`;
  }

  /**
   * The turn record of lock `key` (DESIGN §6.1): a hash with fields `entries` (a JSON array of
   * queue entries), `fence`, `attempt`, `startedAt` and, once handed back, `handedBack`. No TTL:
   * it lives until a release ends it.
   */
  turn(key: string): string {
    return this.coordination("turn", key);
  }

  /**
   * The pending-turn index shard that lists lock `key` while it has a turn record: a sorted set
   * whose score is the end of the key's lease in epoch ms by the server's clock (0 when the lock
   * is free), kept by every script that writes the lock, so the records whose lease ended are a
   * range of scores below the server's now.
   */
  pendingTurnShard(key: string): string {
    return `${this.prefix}:pending-turns:${bucketTag(bucketOf(key))}`;
  }

  /** A JSON string, with the value's TTL when it has one. */
  value(key: string): string {
    return this.item("value", key);
  }

  /** A list of JSON items, oldest first, with the list's TTL when it has one. */
  list(key: string): string {
    return this.item("list", key);
  }

  /**
   * A hash with fields status, generation, expiresAt. A claimed record expires with its claim and
   * a re-armed one is deleted (absent means armed); a completed record has no TTL, so completed
   * work stays done.
   */
  claim(key: string): string {
    return this.item("claim", key);
  }

  /** Present (value `1`) while the thread is subscribed. */
  subscription(key: string): string {
    return this.item("sub", key);
  }

  /** The pattern matching every key of this layout, for operators' `SCAN MATCH`. */
  get scanPattern(): string {
    return `${escapeGlob(this.prefix)}:*`;
  }

  private coordination(namespace: string, key: string): string {
    return `${this.prefix}:${namespace}:${bucketTag(bucketOf(key))}:${key}`;
  }

  private item(namespace: string, key: string): string {
    return `${this.prefix}:${namespace}:{${escapeHashTag(key)}}`;
  }
}

/** How long a lock key's fence record outlives its last acquire: one day. */
export const FENCE_RECORD_TTL_MS = 86_400_000;

/** The hash tag of bucket `n`. */
function bucketTag(bucket: number): string {
  return `{b${bucket}}`;
}

/**
 * The bucket of `key`: 32-bit FNV-1a over its UTF-8 bytes, modulo {@link PENDING_INDEX_SHARDS}.
 * Stable across processes and releases (changing it moves every lock: a migration).
 */
export function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, "utf8")) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % PENDING_INDEX_SHARDS;
}

/**
 * Makes `key` safe inside a hash tag. Redis hashes the text between the first `{` and the first
 * `}` after it; a `}` inside the caller's key would end the tag early (and a leading one would
 * make it empty, hashing the whole name), so `%` and `}` are percent-escaped. The mapping is
 * injective: different keys never share a Redis key.
 */
export function escapeHashTag(key: string): string {
  return key.replaceAll("%", "%25").replaceAll("}", "%7D");
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}
