import { describe, expect, it } from "vitest";
import { createBurstStrategy } from "../../src/concurrency/burst-strategy.js";
import { createStrategyHarness } from "./strategy-harness.js";

describe("burst strategy", () => {
  it("collapses a burst into its latest message, measured from the first message", async () => {
    const h = await createStrategyHarness(createBurstStrategy, { debounceMs: 1_000 });
    const first = h.deliver("one");
    await h.clock.advance(600);
    const second = h.deliver("two");
    await h.clock.advance(400);
    await Promise.all([first.submitted, second.submitted]);
    expect(h.runs.map((run) => [run.messageId, run.skippedIds])).toEqual([[second.id, [first.id]]]);
  });

  it("runs a lone message after the window with no skipped messages", async () => {
    const h = await createStrategyHarness(createBurstStrategy, { debounceMs: 1_000 });
    const only = h.deliver("only");
    await h.clock.advance(1_000);
    await only.submitted;
    expect(h.runs.map((run) => [run.messageId, run.skippedIds])).toEqual([[only.id, []]]);
  });

  it("drains messages that arrive while the handler runs, without another window", async () => {
    const h = await createStrategyHarness(createBurstStrategy, { debounceMs: 1_000 });
    h.behave("slow", { durationMs: 2_000 });
    const first = h.deliver("slow");
    await h.clock.advance(1_500);
    const during = h.deliver("during");
    await h.clock.advance(1_500);
    await Promise.all([first.submitted, during.submitted]);
    expect(h.runs.map((run) => [run.messageId, run.startedAt - h.runs[0]!.startedAt])).toEqual([
      [first.id, 0],
      [during.id, 2_000],
    ]);
  });

  it("never overlaps handlers on a lock key when a run lasts three lock TTLs", async () => {
    const h = await createStrategyHarness(createBurstStrategy, {
      debounceMs: 500,
      lockTtlMs: 1_000,
      extendTimeoutMs: 300,
    });
    h.behaveByDefault({ durationMs: 3_000 });
    const deliveries = [];
    for (const text of ["a", "b", "c", "d"]) {
      deliveries.push(h.deliver(text));
      await h.clock.advance(1_300);
    }
    await h.clock.advance(20_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    expect(h.peakInFlight).toBe(1);
    for (const delivery of deliveries) expect(h.dispositionOf(delivery.key)).toHaveLength(1);
  });
});
