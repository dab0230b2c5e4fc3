import { type DispatchEvent, type StrategyName, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createTestMessage } from "@baton/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { botInstance } from "./chat-harness.js";
import { instanceState } from "./instance-state.js";

// DESIGN §5's invariants with durable turns (§6.1), when holders die: three instances share one
// State; at random points one of them is killed as by SIGKILL (its State calls never arrive
// again, its locks lapse by the State's clock, and its running handlers count as gone). Kills
// happen between State calls (after the fake clock let every pending call settle), which is where
// a process spends its time: in a handler, or waiting for a timer.

interface Step {
  delayMs: number;
  instance: number;
  thread: number;
  durationMs: number;
  fails: boolean;
  /** Kill the receiving instance right after this delivery (ignored when it is the last one). */
  crash: boolean;
}

const INSTANCES = 3;
const LOCK_TTL_MS = 1_000;
const MAX_ATTEMPTS = 3;
const TERMINAL = new Set([
  "handled",
  "skipped",
  "dropped-lock-conflict",
  "error",
  "preempted",
  "expired",
  "abandoned",
]);

const stepArbitrary = fc.record({
  delayMs: fc.integer({ min: 0, max: 1_500 }),
  instance: fc.integer({ min: 0, max: INSTANCES - 1 }),
  thread: fc.integer({ min: 0, max: 2 }),
  durationMs: fc.integer({ min: 0, max: 3 * LOCK_TTL_MS }),
  fails: fc.integer({ min: 0, max: 5 }).map((roll) => roll === 0),
  crash: fc.integer({ min: 0, max: 4 }).map((roll) => roll === 0),
});

async function runSchedule(strategy: StrategyName, steps: Step[], fastPaths: boolean) {
  const clock = createFakeClock();
  const shared = createMemoryState({ clock, fastPaths });
  const plan = new Map<string, Step>();
  const settled: Array<{ key: string; outcome: string }> = [];
  const ran: Array<{ id: string; skipped: string[]; attempt: number }> = [];
  const dead = new Set<number>();
  const runningOn = new Map<number, number>();
  let running = 0;
  let peak = 0;
  const instances: Array<ReturnType<typeof botInstance> & { kill(): void }> = [];
  for (let index = 0; index < INSTANCES; index += 1) {
    const connection = instanceState(shared);
    const { chat, adapter } = botInstance(connection.state, clock, {
      concurrency: {
        strategy,
        lockTtlMs: LOCK_TTL_MS,
        extendTimeoutMs: 300,
        sweepIntervalMs: 500,
        debounceMs: 400,
        maxWaitMs: 2_000,
        maxQueueSize: 4,
      },
      lockScope: "channel",
      durableTurns: { maxAttempts: MAX_ATTEMPTS },
      observer: {
        onDispatchEvent: (event: DispatchEvent) => {
          // A killed process reports nothing more: the simulated one would.
          if (dead.has(index)) return;
          // An echo of a disposition another instance decided is not a second one (ADR 0011).
          if (event.kind === "settled" && event.counted && TERMINAL.has(String(event.outcome))) {
            settled.push({ key: event.deliveryKey, outcome: String(event.outcome) });
          }
        },
      },
    });
    chat.onNewMention(async (_thread, message, context) => {
      running += 1;
      peak = Math.max(peak, running);
      runningOn.set(index, (runningOn.get(index) ?? 0) + 1);
      const skipped = context.skipped.map((earlier) => earlier.id);
      if (!dead.has(index)) ran.push({ id: message.id, skipped, attempt: context.attempt });
      try {
        const step = plan.get(message.id);
        if (step?.durationMs) await sleep(clock, step.durationMs, context.signal);
        if (step?.fails) throw new Error("handler failed on purpose");
      } finally {
        runningOn.set(index, (runningOn.get(index) ?? 1) - 1);
        // A killed instance's runs were already taken off the count when it died.
        if (!dead.has(index)) running -= 1;
      }
    });
    await chat.initialize();
    instances.push({ chat, adapter, kill: connection.kill });
  }
  const kill = (index: number) => {
    dead.add(index);
    running -= runningOn.get(index) ?? 0;
    instances[index]?.kill();
  };

  const sent: string[] = [];
  for (const [index, step] of steps.entries()) {
    await clock.advance(step.delayMs);
    const receiver = liveFrom(step.instance, dead);
    const target = instances[receiver];
    if (!target) throw new Error("unreachable: no live instance");
    const message = createTestMessage({
      id: `m${index}`,
      text: `@bot m${index}`,
      threadId: `mock:C1:T${step.thread}`,
    });
    plan.set(message.id, step);
    sent.push(message.id);
    void target.chat.processMessage(target.adapter, message.threadId, message);
    await clock.settle();
    if (step.crash && dead.size < INSTANCES - 1) kill(receiver);
  }
  await clock.advance(60_000);
  return { settled, ran, peak, sent, shared };
}

/** The first live instance from `wanted` on, round the ring. */
function liveFrom(wanted: number, dead: ReadonlySet<number>): number {
  for (let offset = 0; offset < INSTANCES; offset += 1) {
    const candidate = (wanted + offset) % INSTANCES;
    if (!dead.has(candidate)) return candidate;
  }
  return -1;
}

const CASES: ReadonlyArray<{ strategy: StrategyName; fastPaths: boolean }> = [
  { strategy: "queue", fastPaths: false },
  { strategy: "queue", fastPaths: true },
  { strategy: "drop", fastPaths: false },
  { strategy: "drop", fastPaths: true },
  { strategy: "burst", fastPaths: false },
];

describe("dispatch invariants when holders are killed at random points (DESIGN §5, §6.1)", () => {
  for (const { strategy, fastPaths } of CASES) {
    const title = `${strategy}${fastPaths ? " (fused fast paths)" : ""}`;
    it(`${title}: every message ends in exactly one terminal disposition across instances, handlers never overlap, no turn runs more than maxAttempts times`, async () => {
      let recovered = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(stepArbitrary, { minLength: 1, maxLength: 8 }), async (steps) => {
          const { settled, ran, peak, sent, shared } = await runSchedule(
            strategy,
            steps,
            fastPaths,
          );
          expect(peak).toBeLessThanOrEqual(1);

          const terminal = new Map<string, string[]>();
          for (const { key, outcome } of settled) {
            terminal.set(key, [...(terminal.get(key) ?? []), outcome]);
          }
          for (const id of sent) expect(terminal.get(`mock:${id}`)).toHaveLength(1);

          const runsOf = new Map<string, number>();
          for (const run of ran) {
            for (const id of [run.id, ...run.skipped]) runsOf.set(id, (runsOf.get(id) ?? 0) + 1);
            expect(run.attempt).toBeLessThanOrEqual(MAX_ATTEMPTS);
          }
          for (const count of runsOf.values()) expect(count).toBeLessThanOrEqual(MAX_ATTEMPTS);
          if (ran.some((run) => run.attempt > 1)) recovered += 1;

          expect(await shared.pendingQueueKeys()).toEqual([]);
          expect(await shared.pendingTurnKeys?.()).toEqual([]);
        }),
        { numRuns: 150, seed: 20261206 },
      );
      // The schedules really killed holders mid-turn: some turns were run again elsewhere.
      expect(recovered).toBeGreaterThan(0);
    }, 600_000);
  }
});
