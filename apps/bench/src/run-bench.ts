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
  readonly measurement: ScenarioMeasurement;
}

/**
 * Runs every scenario of the plan on every backend, Baton and upstream side by side in this
 * process: for each (backend, scenario) both implementations run back to back, each on a fresh
 * Chat and a fresh namespace, and which one goes first alternates so neither always gets the
 * warmer machine. Rejects (after cleaning up) when a server is unreachable or a run throws.
 */
export async function runBench(plan: BenchPlan): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  let turn = 0;
  for (const backend of plan.backends) {
    for (const scenario of plan.scenarios) {
      const order: Implementation[] =
        turn % 2 === 0 ? ["baton", "upstream"] : ["upstream", "baton"];
      turn += 1;
      const wanted = plan.implementations;
      for (const implementation of order.filter((one) => !wanted || wanted.includes(one))) {
        const result = await measureOne(plan, backend, scenario, implementation);
        results.push(result);
        plan.onResult?.(result);
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
): Promise<BenchResult> {
  const spec = SCENARIOS[scenario];
  const probe = new HandlerProbe();
  const bot = await createBot({
    implementation,
    backend,
    strategy: spec.strategy,
    probe,
    urls: plan.urls,
  });
  try {
    const runId = `${implementation[0]}${backend[0]}${Date.now().toString(36)}`;
    const measurement = await runScenario(bot, probe, spec, messageSource(runId), {
      messages: plan.messages,
      warmupMessages: plan.warmupMessages,
    });
    return { backend, scenario, implementation, measurement };
  } finally {
    await bot.close();
  }
}
