import { sleep } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createFakeClock, FAKE_CLOCK_START_MS } from "../src/index.js";

describe("createFakeClock", () => {
  it("starts at 2026-01-01 unless told otherwise and does not move by itself", async () => {
    expect(createFakeClock().now()).toBe(Date.UTC(2026, 0, 1));
    expect(FAKE_CLOCK_START_MS).toBe(Date.UTC(2026, 0, 1));
    const clock = createFakeClock(5_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(clock.now()).toBe(5_000);
  });

  it("fires timers in due-time order, each at its own time, ties in scheduling order", async () => {
    const clock = createFakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 300);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    clock.setTimeout(() => fired.push(`b1@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`b2@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`late@${clock.now()}`), 1_000);
    await clock.advance(300);
    expect(fired).toEqual(["a@100", "b1@200", "b2@200", "c@300"]);
    expect(clock.now()).toBe(300);
    expect(clock.pendingTimers).toBe(1);
    expect(clock.nextTimerAt).toBe(1_000);
  });

  it("fires a timer that a callback schedules inside the window, and not one outside it", async () => {
    const clock = createFakeClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 50);
      clock.setTimeout(() => fired.push(clock.now()), 500);
    }, 100);
    await clock.advance(200);
    expect(fired).toEqual([100, 150]);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(400);
    expect(fired).toEqual([100, 150, 600]);
  });

  it("does not fire a cleared timer and ignores clearing a fired or foreign one", async () => {
    const clock = createFakeClock(0);
    const fired: string[] = [];
    const kept = clock.setTimeout(() => fired.push("kept"), 10);
    const cleared = clock.setTimeout(() => fired.push("cleared"), 20);
    clock.clearTimeout(cleared);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(100);
    clock.clearTimeout(kept);
    clock.clearTimeout({ id: 999 });
    expect(fired).toEqual(["kept"]);
    expect(clock.pendingTimers).toBe(0);
  });

  it("lets awaited promise chains progress between timers", async () => {
    const clock = createFakeClock(0);
    const steps: string[] = [];
    const work = (async () => {
      await sleep(clock, 100);
      steps.push(`slept@${clock.now()}`);
      await Promise.resolve();
      await Promise.resolve();
      await sleep(clock, 100);
      steps.push(`slept again@${clock.now()}`);
    })();
    await clock.advance(250);
    expect(steps).toEqual(["slept@100", "slept again@200"]);
    await work;
  });

  it("lets a promise chain started before advance schedule a timer inside the window", async () => {
    const clock = createFakeClock(0);
    let done = false;
    void Promise.resolve()
      .then(() => Promise.resolve())
      .then(() => sleep(clock, 10))
      .then(() => {
        done = true;
      });
    await clock.advance(10);
    expect(done).toBe(true);
  });

  it("treats a negative delay as 0 and fires already-due timers on advance(0)", async () => {
    const clock = createFakeClock(0);
    let fired = false;
    clock.setTimeout(() => {
      fired = true;
    }, -50);
    expect(clock.nextTimerAt).toBe(0);
    await clock.advance(0);
    expect(fired).toBe(true);
    expect(clock.now()).toBe(0);
  });

  it("advances to an absolute time and refuses to go back", async () => {
    const clock = createFakeClock(1_000);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 500);
    await clock.advanceTo(2_000);
    expect(fired).toEqual([1_500]);
    expect(clock.now()).toBe(2_000);
    await expect(clock.advanceTo(1_999)).rejects.toThrow(/timeMs must be a finite time ≥ now\(\)/);
    await expect(clock.advance(-1)).rejects.toThrow(/ms must be a finite number ≥ 0/);
  });

  it("runs all timers, moving time to each, until none is pending", async () => {
    const clock = createFakeClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => {
      fired.push(clock.now());
      clock.setTimeout(() => fired.push(clock.now()), 5_000);
    }, 1_000);
    await clock.runAll();
    expect(fired).toEqual([1_000, 6_000]);
    expect(clock.now()).toBe(6_000);
    expect(clock.pendingTimers).toBe(0);
  });

  it("stops runAll with an error when a timer keeps rescheduling itself", async () => {
    const clock = createFakeClock(0, { settleTurns: 1, maxTimersPerRun: 50 });
    let count = 0;
    const again = () => {
      count += 1;
      clock.setTimeout(again, 1);
    };
    clock.setTimeout(again, 1);
    await expect(clock.runAll()).rejects.toThrow(/fired 50 timers .* reschedule itself forever/);
    expect(count).toBe(50);
  });

  it("bounds advance the same way against a zero-delay loop", async () => {
    const clock = createFakeClock(0, { maxTimersPerRun: 20 });
    const again = () => clock.setTimeout(again, 0);
    clock.setTimeout(again, 0);
    await expect(clock.advance(10)).rejects.toThrow(/advance: fired 20 timers/);
  });

  it("rejects with a callback's error and keeps later timers pending", async () => {
    const clock = createFakeClock(0);
    clock.setTimeout(() => {
      throw new Error("boom");
    }, 10);
    clock.setTimeout(() => {}, 20);
    await expect(clock.advance(100)).rejects.toThrow("boom");
    expect(clock.now()).toBe(10);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(100);
    expect(clock.pendingTimers).toBe(0);
  });

  it("refuses a second advance while one is running", async () => {
    const clock = createFakeClock(0);
    clock.setTimeout(() => {}, 10);
    const first = clock.advance(10);
    await expect(clock.advance(10)).rejects.toThrow(/still running; await it/);
    await first;
    expect(clock.now()).toBe(10);
  });

  it("keeps now, setTimeout and clearTimeout working when detached from the clock", async () => {
    const clock = createFakeClock(0);
    const { now, setTimeout: schedule, clearTimeout: cancel } = clock;
    let fired = 0;
    schedule(() => {
      fired += 1;
    }, 5);
    cancel(
      schedule(() => {
        fired += 10;
      }, 5),
    );
    await clock.advance(5);
    expect([now(), fired]).toEqual([5, 1]);
  });
});
