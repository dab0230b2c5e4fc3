import { describe, expect, it } from "vitest";
import { createConcurrentStrategy } from "../../src/concurrency/concurrent-strategy.js";
import { createStrategyHarness } from "./strategy-harness.js";

describe("concurrent strategy", () => {
  it("runs overlapping messages at once without taking a lock", async () => {
    const h = await createStrategyHarness(createConcurrentStrategy);
    h.behaveByDefault({ durationMs: 1_000 });
    const deliveries = [h.deliver("a"), h.deliver("b"), h.deliver("c")];
    await h.clock.advance(1);
    expect(h.peakInFlight).toBe(3);
    expect(await h.state.inspectLock(h.lockKeyOfThread("mock:C1:T1", "thread"))).toBeNull();
    await h.clock.advance(1_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    expect(h.runs.every((run) => run.fence === undefined)).toBe(true);
  });

  it("caps in-flight handlers per thread at maxConcurrent and runs the rest in arrival order", async () => {
    const h = await createStrategyHarness(createConcurrentStrategy, {
      strategy: "concurrent",
      maxConcurrent: 2,
    });
    h.behaveByDefault({ durationMs: 1_000 });
    const deliveries = ["a", "b", "c", "d"].map((text) => h.deliver(text));
    const other = h.deliver("other thread", "mock:C1:T2");
    await h.clock.advance(1);
    expect(h.runs.map((run) => run.messageId)).toEqual([
      deliveries[0]?.id,
      deliveries[1]?.id,
      other.id,
    ]);
    await h.clock.advance(3_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    expect(h.runs.slice(3).map((run) => run.messageId)).toEqual([
      deliveries[2]?.id,
      deliveries[3]?.id,
    ]);
  });
});
