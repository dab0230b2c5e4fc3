import { type DeliveryResult, type StrategyName, sleep } from "@baton/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

/** One delivery in a generated schedule. */
interface Step {
  delayMs: number;
  thread: number;
  durationMs: number;
  fails: boolean;
  /** Redeliver the previous message (a platform retry) instead of a new one. */
  duplicate: boolean;
}

const LOCK_TTL_MS = 1_000;
const TERMINAL = new Set([
  "handled",
  "skipped",
  "dropped-lock-conflict",
  "duplicate",
  "error",
  "preempted",
  "expired",
]);

const stepArbitrary = fc.record({
  delayMs: fc.integer({ min: 0, max: 1_500 }),
  thread: fc.integer({ min: 0, max: 2 }),
  durationMs: fc.integer({ min: 0, max: 3 * LOCK_TTL_MS }),
  fails: fc.boolean(),
  duplicate: fc.integer({ min: 0, max: 4 }).map((roll) => roll === 0),
});

async function runSchedule(strategy: StrategyName, steps: Step[], fastPaths: boolean) {
  const h = await createChatHarness({
    fastPaths,
    concurrency: {
      strategy,
      lockTtlMs: LOCK_TTL_MS,
      extendTimeoutMs: 300,
      debounceMs: 400,
      maxWaitMs: 2_000,
      maxQueueSize: 4,
      maxConcurrent: 2,
    },
    lockScope: "channel",
  });
  let running = 0;
  let peak = 0;
  const runningPerThread = new Map<string, number>();
  let peakPerThread = 0;
  const ran: Array<{ id: string; skipped: string[] }> = [];
  const plan = new Map<string, Step>();
  h.chat.onNewMention(async (thread, message, context) => {
    running += 1;
    peak = Math.max(peak, running);
    runningPerThread.set(thread.id, (runningPerThread.get(thread.id) ?? 0) + 1);
    peakPerThread = Math.max(peakPerThread, runningPerThread.get(thread.id) ?? 0);
    ran.push({ id: message.id, skipped: context.skipped.map((skipped) => skipped.id) });
    try {
      const step = plan.get(message.id);
      if (step?.durationMs) await sleep(h.clock, step.durationMs);
      if (step?.fails) throw new Error("handler failed on purpose");
    } finally {
      running -= 1;
      runningPerThread.set(thread.id, (runningPerThread.get(thread.id) ?? 1) - 1);
    }
  });

  const results: Array<{ id: string; duplicate: boolean; result: Promise<DeliveryResult> }> = [];
  let previous: ReturnType<typeof h.send>["message"] | undefined;
  for (const [index, step] of steps.entries()) {
    await h.clock.advance(step.delayMs);
    if (step.duplicate && previous) {
      results.push({
        id: previous.id,
        duplicate: true,
        result: h.chat.processMessage(h.adapter, previous.threadId, previous),
      });
      continue;
    }
    const sent = h.send(`@bot m${index}`, { id: `m${index}`, threadId: `mock:C1:T${step.thread}` });
    plan.set(sent.message.id, step);
    previous = sent.message;
    results.push({ id: sent.message.id, duplicate: false, result: sent.done });
  }
  await h.clock.advance(60_000);
  const outcomes = await Promise.all(
    results.map(async (entry) => ({ ...entry, outcome: (await entry.result).outcome })),
  );
  return { outcomes, ran, peak, peakPerThread, state: h.state };
}

// Every strategy on the separate State calls, and each lock-taking one again on a State with the
// fused fast paths (acceptAndAcquire, releaseAndNext), where `queue` leaves its last look at the
// queue to the release.
const CASES: ReadonlyArray<{ strategy: StrategyName; fastPaths: boolean }> = [
  ...(["drop", "queue", "debounce", "burst", "concurrent"] as const).map((strategy) => ({
    strategy,
    fastPaths: false,
  })),
  ...(["drop", "queue", "debounce", "burst"] as const).map((strategy) => ({
    strategy,
    fastPaths: true,
  })),
];

describe("dispatch invariants under random interleavings (DESIGN §5)", () => {
  for (const { strategy, fastPaths } of CASES) {
    const title = `${strategy}${fastPaths ? " (fused fast paths)" : ""}`;
    it(`${title}: every accepted message ends exactly once and handlers never overlap on a lock key`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 8 }), async (steps) => {
          const { outcomes, ran, peak, peakPerThread, state } = await runSchedule(
            strategy,
            steps,
            fastPaths,
          );
          if (strategy === "concurrent") expect(peakPerThread).toBeLessThanOrEqual(2);
          else expect(peak).toBe(1);

          const seenInRuns = new Map<string, number>();
          for (const run of ran) {
            for (const id of [run.id, ...run.skipped])
              seenInRuns.set(id, (seenInRuns.get(id) ?? 0) + 1);
          }
          for (const count of seenInRuns.values()) expect(count).toBe(1);

          for (const { id, duplicate, outcome } of outcomes) {
            expect(TERMINAL.has(outcome)).toBe(true);
            if (duplicate) {
              expect(outcome).toBe("duplicate");
              continue;
            }
            const inRuns = seenInRuns.get(id) ?? 0;
            if (outcome === "handled" || outcome === "error") {
              expect(ran.some((run) => run.id === id)).toBe(true);
            } else if (outcome === "skipped") {
              expect(ran.some((run) => run.skipped.includes(id))).toBe(true);
            } else {
              expect(inRuns).toBe(0);
            }
          }
          expect(await state.pendingQueueKeys()).toEqual([]);
        }),
        { numRuns: 1_000, seed: 20261202 },
      );
    }, 600_000);
  }
});
