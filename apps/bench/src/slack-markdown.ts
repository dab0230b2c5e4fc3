import { markdownTable, milliseconds } from "./format.js";
import { type SlackBenchResult, type SlackSummary, summarizeSlack } from "./slack-bench.js";

/** What the section reports on. */
export interface SlackReport {
  readonly results: readonly SlackBenchResult[];
  readonly mentions: number;
  readonly handlerMs: number;
  /** Set when the scenario ran on its own (`--slack-only`), not as part of the whole page's run. */
  readonly alone?: SlackAloneRun;
}

/** When and how busy the machine was for a Slack-only run, which the page's header does not say. */
export interface SlackAloneRun {
  /** ISO date of the run. */
  readonly date: string;
  /** 1-minute load average when the run started. */
  readonly loadAverage: number;
  /** The workspace commit the Baton numbers are from, as the page's header writes it. */
  readonly batonRevision: string;
}

/** The command that re-measures only this section; it documents itself in the section. */
export const SLACK_ONLY_COMMAND = "pnpm --filter @baton/bench bench -- --slack-only";

/** The "Slack webhook" section of docs/benchmarks.md, or nothing when the scenario did not run. */
export function slackSection(report: SlackReport | undefined): string[] {
  if (report === undefined || report.results.length === 0) return [];
  const baton = summarizeSlack(report.results, "baton");
  const upstream = summarizeSlack(report.results, "upstream");
  const rows = [baton, upstream].filter((s): s is SlackSummary => s !== undefined).map(row);
  const ratio =
    baton && upstream
      ? `Baton's median p99 is **${(baton.p99Ms / upstream.p99Ms).toFixed(2)}×** upstream's (goal ≤ 0.25×: ${baton.p99Ms <= 0.25 * upstream.p99Ms ? "met" : "not met"}); \`users.info\` per user: Baton ${sig3(baton.usersInfoPerUser)}, upstream ${sig3(upstream.usersInfoPerUser)} (goal ≤ 1: ${baton.usersInfoPerUser <= 1 ? "met" : "not met"}).`
      : "";
  const alone = report.alone;
  return [
    "## Slack webhook",
    alone === undefined
      ? ""
      : `_Measured on its own with \`${SLACK_ONLY_COMMAND}\` on ${alone.date}, 1-minute load average ${alone.loadAverage.toFixed(2)} when it started, Baton at ${alone.batonRevision}; the rest of the page is from the run its header names._`,
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
    "All requests arrive in one tick of one process, so a request's latency is mostly the CPU time the process spends on the whole burst before its answer, and p99 is about the time to accept the entire burst. Baton answers each delivery after its own acceptance (signature, parse, one State call); its runs, handlers and name look-ups start only after the answers have left. The deliveries take those steps together, as promise continuations in one queue, so Baton's answers come out together: p50 and p99 are close. Upstream checks each signature with WebCrypto, which runs the HMAC on libuv's thread pool and resumes each request in an event-loop callback of its own, so its answers come out one by one (p50 below p99), and on a machine with a free second core part of its work runs in parallel: the ratio moves with the machine's load. A deployed bot sees requests spread over time and over sockets.",
  ].filter((part) => part !== "");
}

/**
 * `markdown` (a docs/benchmarks.md page) with its "Slack webhook" section replaced by `section`
 * (from {@link slackSection}), or the section put before "## Caveats" when the page has none.
 * Throws when the page has neither, rather than writing the section where nobody reads it.
 */
export function replaceSlackSection(markdown: string, section: readonly string[]): string {
  const text = section.join("\n\n");
  const start = markdown.indexOf("\n## Slack webhook\n");
  if (start >= 0) {
    const next = markdown.indexOf("\n## ", start + 1);
    const end = next < 0 ? markdown.length : next;
    return `${markdown.slice(0, start + 1)}${text}\n${markdown.slice(end)}`;
  }
  const caveats = markdown.indexOf("\n## Caveats\n");
  if (caveats < 0) {
    throw new Error("the page has neither a Slack webhook section nor a Caveats section");
  }
  return `${markdown.slice(0, caveats + 1)}${text}\n\n${markdown.slice(caveats + 1)}`;
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
    sig3(summary.usersInfoPerMessage),
    sig3(summary.usersInfoPerUser),
    check,
  ];
}

/** Integers as they are, others to three significant digits (one look-up per 1,000 is 0.001). */
function sig3(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
}
