import pg from "pg";
import { createClient } from "redis";
import type { ServerUrls } from "./backends.js";
import type { BackendName } from "./bench-bot.js";
import { type DelayProxy, startDelayProxyProcess, targetOf, throughProxy } from "./delay-proxy.js";
import { quantile } from "./stats.js";

/** The servers as the bench reached them through the delay proxies, with measured round trips. */
export interface LinkReport {
  /** How long the proxy held each chunk on each way. */
  readonly oneWayDelayMs: number;
  /** Median round trip of a trivial command (Redis `PING`, Postgres `SELECT 1`), direct. */
  readonly directRoundTripMs: Partial<Record<BackendName, number>>;
  /** The same through the proxy. */
  readonly linkRoundTripMs: Partial<Record<BackendName, number>>;
}

/** An open link: the URLs to use instead of the servers', and how to close it. */
export interface OpenLink {
  readonly urls: ServerUrls;
  readonly report: LinkReport;
  close(): Promise<void>;
}

const PINGS = 200;

/** The networked backends: where their servers listen by default, and a trivial command's timing. */
const SERVERS: ReadonlyArray<{
  readonly backend: "redis" | "postgres";
  readonly defaultPort: number;
  readonly roundTripMs: (url: string) => Promise<number>;
}> = [
  { backend: "redis", defaultPort: 6379, roundTripMs: redisRoundTripMs },
  { backend: "postgres", defaultPort: 5432, roundTripMs: postgresRoundTripMs },
];

/**
 * Puts a delay proxy (a child process) in front of each networked backend of `backends`, and
 * measures a trivial command's round trip directly and through it, so the report says what
 * link the numbers were taken over. Memory has no link: asking for one is an error.
 */
export async function openLink(
  urls: ServerUrls,
  backends: readonly BackendName[],
  oneWayDelayMs: number,
): Promise<OpenLink> {
  if (backends.includes("memory")) {
    throw new Error(
      "--link-delay-ms needs --backends without memory: the memory State has no link",
    );
  }
  const proxies: DelayProxy[] = [];
  const closeAll = () => Promise.all(proxies.map((proxy) => proxy.close())).then(() => {});
  try {
    const linked: { redis: string; postgres: string } = { ...urls };
    const direct: Partial<Record<BackendName, number>> = {};
    const link: Partial<Record<BackendName, number>> = {};
    for (const server of SERVERS.filter((one) => backends.includes(one.backend))) {
      const url = urls[server.backend];
      const { host, port } = targetOf(url, server.defaultPort);
      const proxy = await startDelayProxyProcess({
        targetHost: host,
        targetPort: port,
        oneWayDelayMs,
      });
      proxies.push(proxy);
      linked[server.backend] = throughProxy(url, proxy);
      direct[server.backend] = await server.roundTripMs(url);
      link[server.backend] = await server.roundTripMs(linked[server.backend]);
    }
    return {
      urls: linked,
      report: { oneWayDelayMs, directRoundTripMs: direct, linkRoundTripMs: link },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function redisRoundTripMs(url: string): Promise<number> {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  try {
    return await timed(() => client.ping());
  } finally {
    client.destroy();
  }
}

async function postgresRoundTripMs(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await timed(() => client.query("SELECT 1"));
  } finally {
    await client.end();
  }
}

/** The median duration of `PINGS` calls of `call`, one after the other, after ten unmeasured. */
async function timed(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i += 1) await call();
  const durations: number[] = [];
  for (let i = 0; i < PINGS; i += 1) {
    const started = performance.now();
    await call();
    durations.push(performance.now() - started);
  }
  return quantile(durations, 0.5) ?? Number.NaN;
}

/** `Redis 2.21 ms (direct 0.09 ms), PostgreSQL 2.30 ms (direct 0.12 ms)`. */
export function linkText(report: LinkReport): string {
  const names: Array<[BackendName, string]> = [
    ["redis", "Redis"],
    ["postgres", "PostgreSQL"],
  ];
  return names
    .filter(([backend]) => report.linkRoundTripMs[backend] !== undefined)
    .map(
      ([backend, name]) =>
        `${name} ${report.linkRoundTripMs[backend]?.toFixed(2)} ms (direct ${report.directRoundTripMs[backend]?.toFixed(2)} ms)`,
    )
    .join(", ");
}
