import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Clock, type ClockTimer, sleep, systemClock } from "../src/index.js";

/** A clock that moves only when told, and shows which timers are pending. */
class HandClock implements Clock {
  private time = 1_000;
  private nextId = 1;
  readonly pending = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): ClockTimer {
    const id = this.nextId++;
    this.pending.set(id, { at: this.time + Math.max(0, delayMs), callback });
    return { id };
  }

  clearTimeout(timer: ClockTimer): void {
    if (typeof timer === "object" && timer !== null && "id" in timer) this.pending.delete(timer.id);
  }

  advance(ms: number): void {
    this.time += ms;
    for (const [id, timer] of [...this.pending]) {
      if (timer.at <= this.time) {
        this.pending.delete(id);
        timer.callback();
      }
    }
  }
}

/** Records whether a promise has settled, without awaiting it. */
function track(promise: Promise<void>): { settled: () => string } {
  let state = "pending";
  promise.then(
    () => {
      state = "resolved";
    },
    () => {
      state = "rejected";
    },
  );
  return { settled: () => state };
}

async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe("sleep on an injected clock", () => {
  it("resolves only once the clock has advanced by the delay", async () => {
    const clock = new HandClock();
    const sleeping = track(sleep(clock, 500));
    clock.advance(499);
    await flush();
    expect(sleeping.settled()).toBe("pending");
    clock.advance(1);
    await flush();
    expect(sleeping.settled()).toBe("resolved");
  });

  it("rejects with the abort reason when the signal is already aborted, scheduling nothing", async () => {
    const clock = new HandClock();
    const reason = new Error("shutdown");
    const controller = new AbortController();
    controller.abort(reason);
    await expect(sleep(clock, 500, controller.signal)).rejects.toBe(reason);
    expect(clock.pending.size).toBe(0);
  });

  it("rejects with the abort reason when aborted while waiting, and clears its timer", async () => {
    const clock = new HandClock();
    const reason = new Error("lease lost");
    const controller = new AbortController();
    const sleeping = sleep(clock, 500, controller.signal);
    expect(clock.pending.size).toBe(1);
    clock.advance(200);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
    expect(clock.pending.size).toBe(0);
  });

  it("stops listening to the signal once it has resolved", async () => {
    const clock = new HandClock();
    const controller = new AbortController();
    const removeListener = vi.spyOn(controller.signal, "removeEventListener");
    const sleeping = sleep(clock, 100, controller.signal);
    clock.advance(100);
    await expect(sleeping).resolves.toBeUndefined();
    expect(removeListener).toHaveBeenCalledWith("abort", expect.any(Function));
    controller.abort(new Error("too late"));
    expect(clock.pending.size).toBe(0);
  });
});

describe("sleep on the system clock", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves after the delay of real timers", async () => {
    const sleeping = track(sleep(systemClock, 1_000));
    await vi.advanceTimersByTimeAsync(999);
    expect(sleeping.settled()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(sleeping.settled()).toBe("resolved");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("clears its platform timer when aborted while waiting", async () => {
    const controller = new AbortController();
    const sleeping = sleep(systemClock, 1_000, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error("shutdown"));
    await expect(sleeping).rejects.toThrow("shutdown");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("treats a negative delay as zero", async () => {
    const sleeping = track(sleep(systemClock, -50));
    await vi.advanceTimersByTimeAsync(0);
    expect(sleeping.settled()).toBe("resolved");
  });

  it("reads the current time from Date.now", () => {
    vi.setSystemTime(new Date("2024-03-01T10:00:00.000Z"));
    expect(systemClock.now()).toBe(Date.parse("2024-03-01T10:00:00.000Z"));
  });
});
