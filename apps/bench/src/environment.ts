import { readFile } from "node:fs/promises";
import os from "node:os";
import pg from "pg";
import { createClient } from "redis";
import type { ServerUrls } from "./backends.js";

/** The facts a reader needs to judge the numbers. */
export interface BenchEnvironment {
  readonly date: string;
  readonly node: string;
  readonly platform: string;
  readonly cpuModel: string;
  readonly cores: number;
  /** 1-minute load average when the run started: how busy the machine already was. */
  readonly loadAverage: number;
  readonly redisVersion: string;
  readonly postgresVersion: string;
  /** Installed upstream packages and their versions. */
  readonly upstreamPackages: Readonly<Record<string, string>>;
}

/** The upstream packages compared against. */
const UPSTREAM_PACKAGES = [
  "chat",
  "@chat-adapter/state-memory",
  "@chat-adapter/state-redis",
  "@chat-adapter/state-pg",
  "@chat-adapter/slack",
] as const;

/** Reads the machine, the servers' versions and the installed upstream versions. */
export async function describeEnvironment(
  urls: ServerUrls,
  backends: readonly string[],
): Promise<BenchEnvironment> {
  const cpus = os.cpus();
  const upstreamPackages: Record<string, string> = {};
  for (const name of UPSTREAM_PACKAGES) upstreamPackages[name] = await installedVersion(name);
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? cpus.length,
    loadAverage: os.loadavg()[0] ?? 0,
    redisVersion: backends.includes("redis") ? await redisVersion(urls.redis) : "not run",
    postgresVersion: backends.includes("postgres")
      ? await postgresVersion(urls.postgres)
      : "not run",
    upstreamPackages,
  };
}

async function installedVersion(name: string): Promise<string> {
  // The bench's own node_modules: what `pnpm install` put there for this app.
  const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
  try {
    const json = JSON.parse(await readFile(url, "utf8")) as { version?: string };
    return json.version ?? "unknown";
  } catch {
    return "not installed";
  }
}

async function redisVersion(url: string): Promise<string> {
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    const info = await client.info("server");
    return /redis_version:([^\r\n]+)/.exec(info)?.[1] ?? "unknown";
  } finally {
    client.destroy();
  }
}

async function postgresVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const result = await client.query<{ server_version: string }>("SHOW server_version");
    return result.rows[0]?.server_version ?? "unknown";
  } finally {
    await client.end();
  }
}
