import type { ServerUrls } from "./backends.js";
import type { BackendName, Implementation } from "./bench-bot.js";
import { createBot } from "./bots.js";
import { HandlerProbe } from "./handler-probe.js";
import {
  messageSource,
  runScenario,
  SCENARIOS,
  type ScenarioMeasurement,
  type ScenarioName,
} from "./scenarios.js";

/**
 * How many times more messages a memory run measures than a server run: without a network a
 * run of the plan's count lasts only tens of milliseconds, too short to say anything on a
 * shared machine.
 */
export const MEMORY_MESSAGE_FACTOR = 10;

/** The messages (measured or warm-up) one run on `backend` gets for the plan's `count`. */
export function messagesOn(backend: BackendName, count: number): number {
  return backend === "memory" ? count * MEMORY_MESSAGE_FACTOR : count;
}

/** Every backend, in report order. */
export const BACKENDS: readonly BackendName[] = ["memory", "redis", "postgres"];

/** What to run. */
export interface BenchPlan {
  readonly backends: readonly BackendName[];
  readonly scenarios: readonly ScenarioName[];
  /** Measured messages per scenario and implementation. */
  readonly messages: number;
  /** Warm-up messages before each measurement. */
  readonly warmupMessages: number;
  readonly urls: ServerUrls;
  /**
   * Rounds per (backend, scenario): each round measures every implementation once, interleaved
   * A B, B A, A B … so both sample the same stretch of a noisy machine. Default 1.
   */
  readonly rounds?: number;
  /** Offer Baton the fused State fast paths where a backend has them; default true. */
  readonly fastPaths?: boolean;
  /** Which implementations to measure; default both, Baton and upstream. */
  readonly implementations?: readonly Implementation[];
  /** Called after each measurement, e.g. to print progress. */
  readonly onResult?: (result: BenchResult) => void;
}

/** One implementation's measurement of one scenario on one backend. */
export interface BenchResult {
  readonly backend: BackendName;
  readonly scenario: ScenarioName;
  readonly implementation: Implementation;
  /** Which round (0-based) of this backend and scenario. */
  readonly round: number;
  readonly measurement: ScenarioMeasurement;
}

/**
 * Runs every scenario of the plan on every backend, Baton and upstream side by side in this
 * process: for each (backend, scenario) the rounds run back to back, and in each round both
 * implementations run once, each on a fresh Chat and a fresh namespace. Which one goes first
 * alternates from round to round (A B, B A, …), so a busy moment of the machine lands on both
 * alike and neither always gets the warmer JIT. Rejects (after cleaning up) when a server is
 * unreachable or a run throws.
 */
export async function runBench(plan: BenchPlan): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const rounds = plan.rounds ?? 1;
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`rounds must be a positive integer, got ${rounds}`);
  }
  let turn = 0;
  for (const backend of plan.backends) {
    for (const scenario of plan.scenarios) {
      for (let round = 0; round < rounds; round += 1) {
        const order: Implementation[] =
          turn % 2 === 0 ? ["baton", "upstream"] : ["upstream", "baton"];
        turn += 1;
        const wanted = plan.implementations;
        for (const implementation of order.filter((one) => !wanted || wanted.includes(one))) {
          const result = await measureOne(plan, backend, scenario, implementation, round);
          results.push(result);
          plan.onResult?.(result);
        }
      }
    }
  }
  return results;
}

async function measureOne(
  plan: BenchPlan,
  backend: BackendName,
  scenario: ScenarioName,
  implementation: Implementation,
  round: number,
): Promise<BenchResult> {
  const spec = SCENARIOS[scenario];
  const probe = new HandlerProbe();
  const bot = await createBot({
    implementation,
    backend,
    strategy: spec.strategy,
    probe,
    urls: plan.urls,
    fastPaths: plan.fastPaths ?? true,
  });
  try {
    const runId = `${implementation[0]}${backend[0]}${Date.now().toString(36)}`;
    const measurement = await runScenario(bot, probe, spec, messageSource(runId), {
      messages: messagesOn(backend, plan.messages),
      warmupMessages: messagesOn(backend, plan.warmupMessages),
    });
    return { backend, scenario, implementation, round, measurement };
  } finally {
    await bot.close();
  }
}
