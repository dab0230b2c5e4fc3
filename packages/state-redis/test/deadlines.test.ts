import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeadlineBuckets } from "../src/deadlines.js";

// The shared deadlines of one connection's calls, on fake timers and an injected millisecond.
describe("deadline buckets", () => {
  let nowMs = 1_000;
  const clock = () => nowMs;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    nowMs = 1_000;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("puts calls started in one millisecond in one bucket, and a later one in a new bucket", () => {
    const buckets = new DeadlineBuckets(300, clock);
    const first = buckets.join();
    const second = buckets.join();
    nowMs += 1;
    const third = buckets.join();

    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(first.calls).toBe(2);
    expect(third.calls).toBe(1);
  });

  it("expires a bucket no earlier than timeoutMs after its millisecond: the signal aborts and the expiry rejects", async () => {
    const buckets = new DeadlineBuckets(300, clock);
    const bucket = buckets.join();
    const expiry = bucket.expiry.then(
      () => "resolved",
      () => "rejected",
    );

    vi.advanceTimersByTime(300);
    expect(bucket.expired).toBe(false);
    expect(bucket.signal.aborted).toBe(false);

    vi.advanceTimersByTime(1);
    expect(bucket.expired).toBe(true);
    expect(bucket.signal.aborted).toBe(true);
    expect(await expiry).toBe("rejected");
  });

  it("keeps a bucket's deadline while a call is in it, also after newer buckets began", () => {
    const buckets = new DeadlineBuckets(300, clock);
    const old = buckets.join();
    nowMs += 5;
    buckets.join();

    vi.advanceTimersByTime(301);
    expect(old.signal.aborted).toBe(true);
  });

  it("cancels a bucket once its last call ended and a newer bucket took over", () => {
    const buckets = new DeadlineBuckets(300, clock);
    const old = buckets.join();
    buckets.leave(old);
    nowMs += 5;
    const next = buckets.join();
    buckets.leave(next);

    vi.advanceTimersByTime(1_000);
    expect(old.signal.aborted).toBe(false);
    expect(old.expired).toBe(false);
    // The current bucket is still armed: a call may join it within its millisecond.
    expect(next.expired).toBe(true);
  });

  it("cancels the current bucket at close when no call is in it", () => {
    const buckets = new DeadlineBuckets(300, clock);
    const bucket = buckets.join();
    buckets.leave(bucket);
    buckets.close();

    vi.advanceTimersByTime(1_000);
    expect(bucket.expired).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("starts a new bucket once the current one expired, even within the same millisecond", () => {
    const buckets = new DeadlineBuckets(300, clock);
    const bucket = buckets.join();
    vi.advanceTimersByTime(301);
    const next = buckets.join();

    expect(bucket.expired).toBe(true);
    expect(next).not.toBe(bucket);
    expect(next.expired).toBe(false);
  });
});
