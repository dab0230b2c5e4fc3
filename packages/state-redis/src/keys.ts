/**
 * The Redis key layout of one backend (one `keyPrefix`). Every key starts with `<prefix>:`.
 *
 * Per-key items put the caller's key inside a hash tag, `<prefix>:<namespace>:{<key>}` (the
 * braces are literal), so the lock, queue, value, list, claim and subscription of one key string
 * all hash to one Redis Cluster slot, and each capability has its own namespace segment, so they
 * never collide. Two keys are global, one per backend: the fence counter (`<prefix>:fence`, one
 * sequence for every lock and claim) and the pending-queue index (`<prefix>:pending`, a set of
 * the caller's queue keys). Exported for operators and tests; the backend never scans keys.
 */
export class RedisKeyLayout {
  /** The fence counter: one never-resetting sequence for all locks and claim generations. */
  readonly fence: string;
  /** A Redis set holding the caller's key of every non-empty queue. */
  readonly pendingQueues: string;

  constructor(readonly prefix: string) {
    this.fence = `${prefix}:fence`;
    this.pendingQueues = `${prefix}:pending`;
  }

  /** A string `<fence>:<token>` with the lock's TTL. */
  lock(key: string): string {
    return this.item("lock", key);
  }

  /** A list of JSON queue entries, oldest first. */
  queue(key: string): string {
    return this.item("queue", key);
  }

  /** A JSON string, with the value's TTL when it has one. */
  value(key: string): string {
    return this.item("value", key);
  }

  /** A list of JSON items, oldest first, with the list's TTL when it has one. */
  list(key: string): string {
    return this.item("list", key);
  }

  /** A hash with fields status, generation, expiresAt; kept without TTL so completed work stays done. */
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

  private item(namespace: string, key: string): string {
    return `${this.prefix}:${namespace}:{${escapeHashTag(key)}}`;
  }
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
