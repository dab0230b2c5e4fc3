import { parseArgs } from "node:util";
import { openBackend, type ServerUrls, serverUrlsFromEnv } from "./backends.js";
import { createBot } from "./bots.js";
import { HandlerProbe } from "./handler-probe.js";
import { openLink } from "./link.js";
import { messageSource, runScenario, SCENARIO_NAMES, SCENARIOS } from "./scenarios.js";

// Baton's Postgres backend on both of its clients in one process (issue 26): node-postgres and
// postgres.js, each scenario in interleaved rounds (pg first, then postgres.js first, …), each
// run on a fresh Chat and schema; the medians are printed as a Markdown table. Statements are
// counted per client (counting-pool.ts, counting-sql.ts); on postgres.js also round trips in
// the protocol sense, where pipelined statements share one.
//   pnpm --filter @baton/bench exec tsx src/pg-clients.ts [--messages N] [--warmup N]
//     [--rounds N] [--link-delay-ms N] [--scenarios a,b]
const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== "--"),
  options: {
    messages: { type: "string", default: "500" },
    warmup: { type: "string", default: "100" },
    rounds: { type: "string", default: "3" },
    "link-delay-ms": { type: "string", default: "0" },
    scenarios: { type: "string", default: SCENARIO_NAMES.join(",") },
  },
});
const messages = Number(values.messages);
const warmupMessages = Number(values.warmup);
const rounds = Number(values.rounds);
const linkDelayMs = Number(values["link-delay-ms"]);
const CLIENTS = ["pg", "postgres"] as const;

interface Sample {
  readonly perSecond: number;
  readonly statements: number;
  readonly roundTrips: number | undefined;
  readonly unanswered: number;
}

async function measure(urls: ServerUrls, client: "pg" | "postgres", scenario: string) {
  const spec = SCENARIOS[scenario as keyof typeof SCENARIOS];
  const routeUrls = { ...urls, postgresClient: client };
  const backend = await openBackend("postgres", "baton", routeUrls);
  const probe = new HandlerProbe();
  const bot = await createBot(
    {
      implementation: "baton",
      backend: "postgres",
      strategy: spec.strategy,
      probe,
      urls: routeUrls,
    },
    backend,
  );
  try {
    const source = messageSource(`${client}${scenario}${Date.now().toString(36)}`);
    const measured = await runScenario(bot, probe, spec, source, { messages, warmupMessages });
    const flushes = backend.flushes?.();
    return {
      perSecond: measured.messagesPerSecond,
      statements: measured.roundTrips.total / measured.messages,
      roundTrips: flushes === undefined ? undefined : flushes / measured.messages,
      unanswered: measured.unanswered,
    } satisfies Sample;
  } finally {
    await bot.close();
    await backend.cleanup();
  }
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const direct = serverUrlsFromEnv();
const link = linkDelayMs > 0 ? await openLink(direct, ["postgres"], linkDelayMs) : undefined;
const urls = link?.urls ?? direct;
const rows: string[] = [];
try {
  for (const scenario of SCENARIO_NAMES.filter((name) =>
    values.scenarios.split(",").includes(name),
  )) {
    const samples: Record<string, Sample[]> = { pg: [], postgres: [] };
    for (let round = 0; round < rounds; round += 1) {
      const order =
        round % 2 === 0 ? CLIENTS : ([...CLIENTS].reverse() as (typeof CLIENTS)[number][]);
      for (const client of order) {
        const sample = await measure(urls, client, scenario);
        samples[client]?.push(sample);
        console.error(`${scenario} ${client} round ${round + 1}: ${JSON.stringify(sample)}`);
      }
    }
    const cell = (client: string, pick: (sample: Sample) => number | undefined, digits: number) => {
      const picked = (samples[client] ?? []).map(pick).filter((n): n is number => n !== undefined);
      return picked.length === 0 ? "—" : median(picked).toFixed(digits);
    };
    rows.push(
      `| ${scenario} | ${cell("pg", (s) => s.perSecond, 0)} | ${cell("postgres", (s) => s.perSecond, 0)} | ` +
        `${cell("pg", (s) => s.statements, 2)} | ${cell("postgres", (s) => s.statements, 2)} | ` +
        `${cell("postgres", (s) => s.roundTrips, 2)} |`,
    );
  }
} finally {
  await link?.close();
}
console.log(
  [
    `Over ${linkDelayMs > 0 ? `a ${linkDelayMs} ms (each way) link` : "localhost"}: ${messages} messages (${warmupMessages} warm-up), median of ${rounds} rounds.`,
    "",
    "| Scenario | pg msgs/s | postgres.js msgs/s | pg statements/msg | postgres.js statements/msg | postgres.js round trips/msg |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows,
  ].join("\n"),
);
