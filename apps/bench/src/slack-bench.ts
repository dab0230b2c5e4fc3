import type { Implementation } from "./bench-bot.js";
import { measureSlackWebhook, type SlackWebhookMeasurement } from "./slack-webhook.js";
import { quantile } from "./stats.js";

/** What the Slack webhook scenario runs. */
export interface SlackBenchPlan {
  /** Signed mentions per burst (the scenario: 1 000). */
  readonly mentions: number;
  /** How long each handler works (the scenario: 200 ms). */
  readonly handlerMs: number;
  /** Bursts per implementation, interleaved A B, B A, …; the median is reported. */
  readonly rounds: number;
  readonly onResult?: (result: SlackBenchResult) => void;
}

/** One burst of one implementation. */
export interface SlackBenchResult {
  readonly round: number;
  readonly measurement: SlackWebhookMeasurement;
}

/** One implementation's bursts, summarized. */
export interface SlackSummary {
  readonly implementation: Implementation;
  readonly rounds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly minP99Ms: number;
  readonly maxP99Ms: number;
  /** `users.info` calls per message and per distinct sender, over every burst. */
  readonly usersInfoPerMessage: number;
  readonly usersInfoPerUser: number;
  /** Bursts in which a webhook did not answer 200 or a handler did not finish. */
  readonly incompleteRounds: number;
}

/**
 * Runs the Slack webhook scenario `plan.rounds` times per implementation, alternating which
 * goes first, each burst on a fresh bot and a fresh fake Slack.
 */
export async function runSlackBench(plan: SlackBenchPlan): Promise<SlackBenchResult[]> {
  const results: SlackBenchResult[] = [];
  for (let round = 0; round < plan.rounds; round += 1) {
    const order: Implementation[] = round % 2 === 0 ? ["baton", "upstream"] : ["upstream", "baton"];
    for (const implementation of order) {
      const measurement = await measureSlackWebhook(implementation, plan);
      const result = { round, measurement };
      results.push(result);
      plan.onResult?.(result);
    }
  }
  return results;
}

/** The median p50 and p99 over the rounds (nearest rank), and the lookups per message. */
export function summarizeSlack(
  results: readonly SlackBenchResult[],
  implementation: Implementation,
): SlackSummary | undefined {
  const mine = results.filter((r) => r.measurement.implementation === implementation);
  if (mine.length === 0) return undefined;
  const p99s = mine.map((r) => r.measurement.p99Ms);
  const messages = mine.reduce((sum, r) => sum + r.measurement.mentions, 0);
  const users = mine.reduce((sum, r) => sum + r.measurement.users, 0);
  const lookups = mine.reduce((sum, r) => sum + r.measurement.usersInfoCalls, 0);
  return {
    implementation,
    rounds: mine.length,
    p50Ms: quantile(
      mine.map((r) => r.measurement.p50Ms),
      0.5,
    ) as number,
    p99Ms: quantile(p99s, 0.5) as number,
    minP99Ms: Math.min(...p99s),
    maxP99Ms: Math.max(...p99s),
    usersInfoPerMessage: lookups / messages,
    usersInfoPerUser: lookups / users,
    incompleteRounds: mine.filter(
      (r) =>
        r.measurement.answered !== r.measurement.mentions ||
        r.measurement.handled !== r.measurement.mentions,
    ).length,
  };
}
