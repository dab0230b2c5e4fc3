import { describe, expect, it } from "vitest";
import { createDropStrategy } from "../../src/concurrency/drop-strategy.js";
import { createStrategyHarness } from "./strategy-harness.js";

describe("drop strategy", () => {
  it("drops a message whose lock is held and runs nothing for it", async () => {
    const h = await createStrategyHarness(createDropStrategy);
    h.behave("slow", { durationMs: 1_000 });
    const first = h.deliver("slow");
    await h.clock.advance(10);
    const second = h.deliver("second");
    await second.submitted;
    expect(h.dispositionOf(second.key)).toEqual(["dropped-lock-conflict"]);
    await h.clock.advance(1_000);
    await first.submitted;
    expect(h.runs.map((run) => run.messageId)).toEqual([first.id]);
    expect(h.dispositionOf(first.key)).toEqual(["handled"]);
  });

  it("releases the lock after the run, so the next message runs", async () => {
    const h = await createStrategyHarness(createDropStrategy);
    await h.deliver("one").submitted;
    const second = h.deliver("two");
    await second.submitted;
    expect(h.dispositionOf(second.key)).toEqual(["handled"]);
  });

  it("hands the handler the lock's fence", async () => {
    const h = await createStrategyHarness(createDropStrategy);
    await h.deliver("one").submitted;
    await h.deliver("two").submitted;
    const [first, second] = h.runs;
    expect(first?.fence).toBeTypeOf("number");
    expect((second?.fence ?? 0) > (first?.fence ?? 0)).toBe(true);
  });

  it("never overlaps handlers on a lock key when a run lasts three lock TTLs", async () => {
    const h = await createStrategyHarness(createDropStrategy, {
      lockTtlMs: 1_000,
      extendTimeoutMs: 300,
    });
    h.behaveByDefault({ durationMs: 3_000 });
    const deliveries = [h.deliver("a")];
    for (const text of ["b", "c", "d"]) {
      await h.clock.advance(900);
      deliveries.push(h.deliver(text));
    }
    await h.clock.advance(10_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    expect(h.peakInFlight).toBe(1);
    expect(h.runs).toHaveLength(1);
  });

  it("rejects when the State fails before a handler ran, so the caller can forget the dedupe mark", async () => {
    const h = await createStrategyHarness(createDropStrategy);
    await h.state.disconnect();
    await expect(h.deliver("x").submitted).rejects.toMatchObject({ code: "STATE_DISCONNECTED" });
    expect(h.runs).toHaveLength(0);
  });
});
