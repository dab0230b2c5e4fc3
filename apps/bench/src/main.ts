import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type ServerUrls, serverUrlsFromEnv } from "./backends.js";
import type { BackendName } from "./bench-bot.js";
import { type BenchEnvironment, describeEnvironment } from "./environment.js";
import { type HandOffResult, measureHandOff, summarizeHandOff } from "./handoff-bench.js";
import { type LinkReport, linkText, openLink } from "./link.js";
import { BENCH_COMMAND, benchmarksMarkdown } from "./markdown.js";
import { DEFAULT_MEMORY_PLAN, type MemoryReport, measureMemory } from "./memory-bench.js";
import { consoleTable, progressLine, ratioTable } from "./report.js";
import { BACKENDS, runBench } from "./run-bench.js";
import { SCENARIO_NAMES, type ScenarioName } from "./scenarios.js";
import { runSlackBench } from "./slack-bench.js";
import { replaceSlackSection, type SlackReport, slackSection } from "./slack-markdown.js";

const USAGE = `Usage: pnpm --filter @baton/bench bench [-- options]

  --messages N     measured messages per scenario and implementation (default 1000; memory: 10×)
  --warmup N       warm-up messages before each measurement (default 200; memory: 10×)
  --rounds N       interleaved rounds per scenario and backend, median reported (default 5)
  --no-fast-paths  measure Baton without the State's fused fast paths (the fallback path)
  --backends LIST  comma-separated: memory,redis,postgres (default all)
  --scenarios LIST comma-separated: ${SCENARIO_NAMES.join(",")} (default all)
  --slack-mentions N  signed Slack mentions per webhook burst (default 1000)
  --slack-handler-ms N  how long each Slack mention handler works (default 200)
  --no-slack       skip the Slack webhook scenario
  --handoffs N     lock hand-offs measured per implementation and variant (default 200)
  --no-handoff     skip the lock hand-off scenario
  --soak-messages N  messages of the memory soak (default 100000)
  --no-memory      skip the memory scenario (parked waiters, idle threads, soak)
  --slack-only     run only the Slack webhook scenario and replace that section of the report
  --link-delay-ms N  reach Redis and Postgres through a proxy holding each chunk N ms each way,
                   as over a network link (redis and postgres backends only; skips the
                   hand-off, memory and Slack scenarios, which use no server; default 0: direct)
  --out PATH       where to write the report (default docs/benchmarks.md, or with
                   --link-delay-ms docs/benchmarks-over-a-link.md)
  --no-write       print only; leave docs/benchmarks.md alone

Servers: BATON_REDIS_URL (default redis://127.0.0.1:6379),
BATON_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test).`;

/** The repository's docs/benchmarks.md, whatever the working directory. */
const DEFAULT_OUT = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
/** Where a run over a delayed link writes, so it never replaces the direct run's page. */
const DEFAULT_LINK_OUT = fileURLToPath(
  new URL("../../../docs/benchmarks-over-a-link.md", import.meta.url),
);

async function main(): Promise<void> {
  // `pnpm bench -- --x` hands the script a literal `--` before the options on some pnpm versions.
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv[0] === "--" ? argv.slice(1) : argv,
    options: {
      messages: { type: "string", default: "1000" },
      warmup: { type: "string", default: "200" },
      rounds: { type: "string", default: "5" },
      "no-fast-paths": { type: "boolean", default: false },
      backends: { type: "string", default: BACKENDS.join(",") },
      scenarios: { type: "string", default: SCENARIO_NAMES.join(",") },
      "slack-mentions": { type: "string", default: "1000" },
      "slack-handler-ms": { type: "string", default: "200" },
      "no-slack": { type: "boolean", default: false },
      handoffs: { type: "string", default: "200" },
      "no-handoff": { type: "boolean", default: false },
      "soak-messages": { type: "string", default: "100000" },
      "no-memory": { type: "boolean", default: false },
      "link-delay-ms": { type: "string", default: "0" },
      "slack-only": { type: "boolean", default: false },
      out: { type: "string" },
      "no-write": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const messages = positiveInteger("--messages", values.messages);
  const warmupMessages = positiveInteger("--warmup", values.warmup, true);
  const rounds = positiveInteger("--rounds", values.rounds);
  const backends = listOf("--backends", values.backends, BACKENDS);
  const scenarios = listOf("--scenarios", values.scenarios, SCENARIO_NAMES);
  const linkDelayMs = positiveInteger("--link-delay-ms", values["link-delay-ms"], true);
  const out = values.out ?? (linkDelayMs > 0 ? DEFAULT_LINK_OUT : DEFAULT_OUT);
  const slackPlan =
    values["no-slack"] || linkDelayMs > 0
      ? undefined
      : {
          mentions: positiveInteger("--slack-mentions", values["slack-mentions"]),
          handlerMs: positiveInteger("--slack-handler-ms", values["slack-handler-ms"], true),
        };

  if (values["slack-only"]) {
    if (slackPlan === undefined) throw new Error("--slack-only and --no-slack exclude each other");
    await slackOnly(slackPlan, rounds, values["no-write"] ? undefined : out);
    return;
  }
  const direct = serverUrlsFromEnv();
  const environment = await describeEnvironment(direct, backends);
  const link = linkDelayMs > 0 ? await openLink(direct, backends, linkDelayMs) : undefined;
  if (link) {
    console.log(`over a link: ${linkDelayMs} ms each way; round trip ${linkText(link.report)}`);
  }
  try {
    await measureAndReport({
      messages,
      warmupMessages,
      rounds,
      backends,
      scenarios,
      fastPaths: !values["no-fast-paths"],
      handOffs:
        values["no-handoff"] || link ? undefined : positiveInteger("--handoffs", values.handoffs),
      soakMessages:
        values["no-memory"] || link
          ? undefined
          : positiveInteger("--soak-messages", values["soak-messages"]),
      slackPlan,
      out: values["no-write"] ? undefined : out,
      environment,
      urls: link?.urls ?? direct,
      link: link?.report,
    });
  } finally {
    await link?.close();
  }
}

/** One run of the bench as `main` planned it; `undefined` fields are scenarios not run. */
interface PlannedRun {
  readonly messages: number;
  readonly warmupMessages: number;
  readonly rounds: number;
  readonly backends: readonly BackendName[];
  readonly scenarios: readonly ScenarioName[];
  readonly fastPaths: boolean;
  readonly handOffs: number | undefined;
  readonly soakMessages: number | undefined;
  readonly slackPlan: { mentions: number; handlerMs: number } | undefined;
  readonly out: string | undefined;
  readonly environment: BenchEnvironment;
  readonly urls: ServerUrls;
  readonly link: LinkReport | undefined;
}

async function measureAndReport(run: PlannedRun): Promise<void> {
  const { environment, messages, warmupMessages, rounds } = run;
  console.log(
    `Baton vs upstream chat: ${messages} messages per run (+${warmupMessages} warm-up), ${rounds} rounds, ` +
      `node ${environment.node}, ${environment.cores} cores, load ${environment.loadAverage.toFixed(2)}`,
  );
  const results = await runBench({
    backends: run.backends,
    scenarios: run.scenarios,
    messages,
    warmupMessages,
    rounds,
    fastPaths: run.fastPaths,
    urls: run.urls,
    onResult: (result) => console.log(progressLine(result)),
  });
  console.log(`\n${consoleTable(results)}\n\n${ratioTable(results)}\n`);
  const handOff = run.handOffs === undefined ? undefined : await runHandOffs(run.handOffs);
  const memory = run.soakMessages === undefined ? undefined : await runMemory(run.soakMessages);
  const slack = run.slackPlan === undefined ? undefined : await runSlack(run.slackPlan, rounds);
  if (run.out === undefined) return;
  const markdown = benchmarksMarkdown({
    environment,
    results,
    messages,
    warmupMessages,
    rounds,
    batonRevision: gitRevision(),
    slack,
    handOff,
    memory,
    loadAverageAtEnd: os.loadavg()[0],
    link: run.link,
    command: run.link ? commandLine() : undefined,
  });
  await writeFile(run.out, markdown);
  console.log(`wrote ${run.out}`);
}

/** How this run was started, for a page that a plain `bench` would not regenerate. */
function commandLine(): string {
  const argv = process.argv.slice(2);
  return [BENCH_COMMAND, ...(argv[0] === "--" ? argv : ["--", ...argv])].join(" ");
}

/**
 * Only the Slack webhook scenario: its section of the report at `out` is replaced (the rest of
 * the page stays as its own run wrote it), with the date, load and revision of this run.
 */
async function slackOnly(
  plan: { mentions: number; handlerMs: number },
  rounds: number,
  out: string | undefined,
): Promise<void> {
  const alone = {
    date: new Date().toISOString(),
    loadAverage: os.loadavg()[0] ?? 0,
    batonRevision: gitRevision(),
  };
  console.log(
    `Slack webhook only: ${plan.mentions} mentions per burst, ${plan.handlerMs} ms handler, ${rounds} rounds, load ${alone.loadAverage.toFixed(2)}`,
  );
  const report = { ...(await runSlack(plan, rounds)), alone };
  const section = slackSection(report);
  console.log(`\n${section.join("\n\n")}\n`);
  if (out === undefined) return;
  await writeFile(out, replaceSlackSection(await readFile(out, "utf8"), section));
  console.log(`replaced the Slack webhook section of ${out}`);
}

/** The lock hand-off scenario: Baton in both variants, upstream on one instance. */
async function runHandOffs(handOffs: number): Promise<HandOffResult[]> {
  const results: HandOffResult[] = [];
  for (const [implementation, variant] of [
    ["baton", "same-instance"],
    ["upstream", "same-instance"],
    ["baton", "other-instance"],
  ] as const) {
    const result = await measureHandOff(implementation, variant, handOffs);
    const summary = summarizeHandOff(result);
    console.log(
      `hand-off ${implementation} ${variant}: p50 ${summary?.p50Ms.toFixed(3)} ms, p95 ${summary?.p95Ms.toFixed(3)} ms, max ${summary?.maxMs.toFixed(3)} ms, missed ${result.missed}`,
    );
    results.push(result);
  }
  return results;
}

/** The memory scenario, with the soak at `soakMessages` messages. */
async function runMemory(soakMessages: number): Promise<MemoryReport> {
  const report = await measureMemory({ ...DEFAULT_MEMORY_PLAN, soakMessages });
  console.log(
    `memory: ${Math.round(report.bytesPerParkedWaiter)} B per parked waiter, ${Math.round(report.bytesPerIdleThread)} B per idle thread (${Math.round(report.bytesPerIdleThreadAfterTtl)} B after the dedupe TTL), soak heap ${report.soakBaselineBytes} → ${report.soakAfterBytes} B`,
  );
  return report;
}

/** The Slack webhook scenario, interleaved like the others, with a progress line per burst. */
async function runSlack(
  plan: { mentions: number; handlerMs: number },
  rounds: number,
): Promise<SlackReport> {
  const results = await runSlackBench({
    ...plan,
    rounds,
    onResult: ({ round, measurement: m }) =>
      console.log(
        `slack-webhook round ${round + 1} ${m.implementation}: p50 ${m.p50Ms.toFixed(1)} ms, ` +
          `p99 ${m.p99Ms.toFixed(1)} ms, users.info ${m.usersInfoCalls}`,
      ),
  });
  return { ...plan, results };
}

function positiveInteger(flag: string, text: string, zeroAllowed = false): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < (zeroAllowed ? 0 : 1)) {
    throw new Error(
      `${flag} must be a ${zeroAllowed ? "non-negative" : "positive"} integer, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

function listOf<T extends string>(flag: string, text: string, allowed: readonly T[]): T[] {
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
  const unknown = items.filter((item) => !allowed.includes(item as T));
  if (unknown.length > 0 || items.length === 0) {
    throw new Error(
      `${flag} takes a comma-separated list of ${allowed.join(", ")}; got ${JSON.stringify(text)}`,
    );
  }
  return items as T[];
}

/** `abc1234`, with `+ local changes` when the work tree differs from it. */
function gitRevision(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
    }).trim();
    const dirty =
      execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== "";
    return `\`${commit}\`${dirty ? " + local changes" : ""}`;
  } catch {
    return "an unknown revision";
  }
}

main().then(
  // The State clients' sockets and timers are closed, but a stray handle must not keep a
  // finished bench alive.
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
