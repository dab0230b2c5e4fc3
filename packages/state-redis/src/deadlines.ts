import { setMaxListeners } from "node:events";

/**
 * The deadline of the calls of one connection that start within the same millisecond: one
 * AbortController, one timer and one expiry for all of them, instead of one of each per call —
 * making an AbortController and a timer costs more than a Redis on the same host takes to answer
 * a small command. Every call still gets its whole budget: its bucket expires between `timeoutMs`
 * and `timeoutMs` + 1 ms after the call started. At expiry the signal aborts, which withdraws
 * the bucket's commands still waiting to be written, and {@link DeadlineBucket.expiry} rejects.
 */
export class DeadlineBuckets {
  private current: DeadlineBucket | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The bucket of a call starting now. Call {@link leave} with it when the call has ended. */
  join(): DeadlineBucket {
    const startedAtMs = this.nowMs();
    let bucket = this.current;
    if (!bucket || bucket.startedAtMs !== startedAtMs || bucket.expired) {
      // The previous millisecond's bucket takes no more calls; with none left it is done.
      if (bucket && bucket.calls === 0) bucket.cancel();
      bucket = new DeadlineBucket(startedAtMs, this.timeoutMs);
      this.current = bucket;
    }
    bucket.enter();
    return bucket;
  }

  /** Ends one call of `bucket`; a bucket with no calls left that takes no more is cancelled. */
  leave(bucket: DeadlineBucket): void {
    bucket.exit();
    if (bucket.calls === 0 && bucket !== this.current) bucket.cancel();
  }

  /** Cancels the current bucket when no call is left in it (at disconnect: no timer stays). */
  close(): void {
    if (this.current?.calls === 0) this.current.cancel();
    this.current = undefined;
  }
}

/** What a bucket rejects its expiry with: the caller turns it into its own step's timeout. */
const EXPIRED = Symbol("deadline expired");

/** One millisecond's calls and their shared deadline; see {@link DeadlineBuckets}. */
export class DeadlineBucket {
  /** Aborts at the deadline: node-redis then withdraws the commands not written yet. */
  readonly signal: AbortSignal;
  /** Rejects at the deadline; never resolves. Handled, so nobody listening is fine. */
  readonly expiry: Promise<never>;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private rejectExpiry: (reason: unknown) => void = () => {};
  private callCount = 0;
  private hasExpired = false;

  constructor(
    readonly startedAtMs: number,
    timeoutMs: number,
  ) {
    this.signal = this.controller.signal;
    // Every command of the bucket listens on it: many listeners are normal, not a leak.
    setMaxListeners(0, this.signal);
    this.expiry = new Promise<never>((_, reject) => {
      this.rejectExpiry = reject;
    });
    this.expiry.catch(() => undefined);
    // + 1: a call that started late in this millisecond still gets its whole `timeoutMs`.
    this.timer = setTimeout(() => this.expire(), timeoutMs + 1);
  }

  /** True once the deadline has passed. */
  get expired(): boolean {
    return this.hasExpired;
  }

  /** Calls in this bucket not ended yet. */
  get calls(): number {
    return this.callCount;
  }

  enter(): void {
    this.callCount += 1;
    // Only a bucket with calls in it keeps the process alive.
    if (this.callCount === 1) this.timer.ref();
  }

  exit(): void {
    this.callCount -= 1;
    if (this.callCount === 0) this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
  }

  private expire(): void {
    this.hasExpired = true;
    this.controller.abort();
    this.rejectExpiry(EXPIRED);
  }
}
