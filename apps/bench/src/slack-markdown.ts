import { markdownTable, milliseconds } from "./format.js";
import { type SlackBenchResult, type SlackSummary, summarizeSlack } from "./slack-bench.js";

/** What the section reports on. */
export interface SlackReport {
  readonly results: readonly SlackBenchResult[];
  readonly mentions: number;
  readonly handlerMs: number;
}

/** The "Slack webhook" section of docs/benchmarks.md, or nothing when the scenario did not run. */
export function slackSection(report: SlackReport | undefined): string[] {
  if (report === undefined || report.results.length === 0) return [];
  const baton = summarizeSlack(report.results, "baton");
  const upstream = summarizeSlack(report.results, "upstream");
  const rows = [baton, upstream].filter((s): s is SlackSummary => s !== undefined).map(row);
  const ratio =
    baton && upstream
      ? `Baton's median p99 is **${(baton.p99Ms / upstream.p99Ms).toFixed(2)}×** upstream's (goal ≤ 0.25×: ${baton.p99Ms <= 0.25 * upstream.p99Ms ? "met" : "not met"}); \`users.info\` per user: Baton ${round2(baton.usersInfoPerUser)}, upstream ${round2(upstream.usersInfoPerUser)} (goal ≤ 1: ${baton.usersInfoPerUser <= 1 ? "met" : "not met"}).`
      : "";
  return [
    "## Slack webhook",
    `${report.mentions.toLocaleString("en-US")} signed \`app_mention\` events from one user, each on its own thread, handed to the webhook handler at once; every handler works ${report.handlerMs} ms; memory State. Baton's \`@baton/adapter-slack\` and upstream's \`@chat-adapter/slack\` talk to the same offline fake Slack Web API over real HTTP (\`@baton/adapter-slack/testing\`, which answers at once: a real Slack's latency and rate limits would add to every call made before the answer). Latency is from handing a request to the webhook handler to its \`Response\`; the warm-up (another user's mentions) loads and compiles both paths first, so the measured sender's lookup starts cold.`,
    ratio,
    markdownTable(
      [
        "implementation",
        "rounds",
        "p50",
        "p99 (min–max)",
        "`users.info` / message",
        "`users.info` / user",
        "check",
      ],
      rows,
    ),
    "All requests arrive in one tick of one process, so each implementation's answers come out as its per-request work drains: where an implementation's path awaits in lockstep with the others, p50 and p99 are close together. A deployed bot sees requests spread over time and over sockets.",
  ].filter((part) => part !== "");
}

function row(summary: SlackSummary): string[] {
  const check =
    summary.incompleteRounds === 0
      ? "ok"
      : `${summary.incompleteRounds} round(s) with unanswered webhooks or unfinished handlers`;
  return [
    summary.implementation,
    String(summary.rounds),
    `${milliseconds(summary.p50Ms)} ms`,
    `${milliseconds(summary.p99Ms)} ms (${milliseconds(summary.minP99Ms)}–${milliseconds(summary.maxP99Ms)})`,
    round2(summary.usersInfoPerMessage),
    round2(summary.usersInfoPerUser),
    check,
  ];
}

function round2(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
