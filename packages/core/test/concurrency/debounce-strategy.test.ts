import { describe, expect, it } from "vitest";
import { createDebounceStrategy } from "../../src/concurrency/debounce-strategy.js";
import { createStrategyHarness } from "./strategy-harness.js";

const settings = { debounceMs: 1_000, maxWaitMs: 5_000 };

describe("debounce strategy", () => {
  it("runs a lone message once the quiet period has passed", async () => {
    const h = await createStrategyHarness(createDebounceStrategy, settings);
    const only = h.deliver("only");
    await h.clock.advance(999);
    expect(h.runs).toHaveLength(0);
    await h.clock.advance(1);
    await only.submitted;
    expect(h.runs.map((run) => [run.messageId, run.skippedIds])).toEqual([[only.id, []]]);
  });

  it("waits for quiet after the last message, not the first, and skips the earlier ones", async () => {
    const h = await createStrategyHarness(createDebounceStrategy, settings);
    const first = h.deliver("one");
    await h.clock.advance(800);
    const second = h.deliver("two");
    await h.clock.advance(800);
    expect(h.runs).toHaveLength(0);
    await h.clock.advance(200);
    await Promise.all([first.submitted, second.submitted]);
    expect(
      h.runs.map((run) => [run.messageId, run.skippedIds, run.startedAt - h.runs[0]!.startedAt]),
    ).toEqual([[second.id, [first.id], 0]]);
    expect(h.dispositionOf(first.key)).toEqual(["skipped"]);
  });

  it("runs no later than maxWaitMs after the quiet period began, however chatty the thread", async () => {
    const h = await createStrategyHarness(createDebounceStrategy, settings);
    const startedAt = h.clock.now();
    const deliveries = [h.deliver("m0")];
    for (let i = 1; i <= 9; i += 1) {
      await h.clock.advance(600);
      deliveries.push(h.deliver(`m${i}`));
    }
    await h.clock.advance(2_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    const firstRun = h.runs[0];
    expect(firstRun && firstRun.startedAt - startedAt).toBeLessThanOrEqual(5_000);
  });

  it("handles a message that arrived mid-handler after the handler returns, with no new delivery", async () => {
    const h = await createStrategyHarness(createDebounceStrategy, settings);
    h.behave("slow", { durationMs: 3_000 });
    const first = h.deliver("slow");
    await h.clock.advance(1_000);
    expect(h.runs).toHaveLength(1);
    await h.clock.advance(500);
    const during = h.deliver("during");
    await h.clock.advance(1_000);
    expect(h.runs).toHaveLength(1);
    await h.clock.advance(2_500);
    await Promise.all([first.submitted, during.submitted]);
    expect(h.runs.map((run) => run.messageId)).toEqual([first.id, during.id]);
    expect(h.runs[1]?.startedAt).toBeGreaterThanOrEqual(h.runs[0]?.endedAt ?? Number.NaN);
    expect(h.dispositionOf(during.key)).toEqual(["handled"]);
    expect(h.peakInFlight).toBe(1);
  });

  it("honours drop-newest while debouncing", async () => {
    const h = await createStrategyHarness(createDebounceStrategy, {
      ...settings,
      maxQueueSize: 1,
      onQueueFull: "drop-newest",
    });
    const kept = h.deliver("kept");
    const refused = h.deliver("refused");
    await h.clock.advance(2_000);
    await Promise.all([kept.submitted, refused.submitted]);
    expect(h.dispositionOf(refused.key)).toEqual(["preempted"]);
    expect(h.runs.map((run) => run.messageId)).toEqual([kept.id]);
  });

  it("never overlaps handlers on a lock key when a run lasts three lock TTLs", async () => {
    const h = await createStrategyHarness(createDebounceStrategy, {
      ...settings,
      lockTtlMs: 1_000,
      extendTimeoutMs: 300,
    });
    h.behaveByDefault({ durationMs: 3_000 });
    const deliveries = [];
    for (const text of ["a", "b", "c", "d", "e"]) {
      deliveries.push(h.deliver(text));
      await h.clock.advance(1_100);
    }
    await h.clock.advance(20_000);
    await Promise.all(deliveries.map((delivery) => delivery.submitted));
    expect(h.peakInFlight).toBe(1);
    for (const delivery of deliveries) expect(h.dispositionOf(delivery.key)).toHaveLength(1);
  });
});
