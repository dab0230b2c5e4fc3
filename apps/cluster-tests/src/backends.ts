import { randomUUID } from "node:crypto";
import pg from "pg";
import { createClient, createCluster } from "redis";
import type { BackendSpec } from "./protocol.js";

export const REDIS_URL = process.env.BATON_REDIS_URL ?? "redis://127.0.0.1:6379";
export const POSTGRES_URL =
  process.env.BATON_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
/** PgBouncer in transaction pooling mode in front of the test Postgres (.ci/services.sh). */
export const PGBOUNCER_URL =
  process.env.BATON_PGBOUNCER_URL ?? "postgres://postgres@127.0.0.1:6432/test";
/** The root nodes of the local Redis Cluster, 3 masters + 3 replicas (.ci/services.sh). */
export const REDIS_CLUSTER_URLS = (
  process.env.BATON_REDIS_CLUSTER_URLS ??
  "redis://127.0.0.1:7000,redis://127.0.0.1:7001,redis://127.0.0.1:7002"
)
  .split(",")
  .map((url) => url.trim());

/** The shared engines the scenarios run on. */
export type BackendKind = "redis" | "redis-cluster" | "postgres" | "pgbouncer";

/** A fresh, isolated backend namespace for one scenario. */
export function isolatedBackend(kind: BackendKind, url?: string): BackendSpec {
  const id = randomUUID().replaceAll("-", "").slice(0, 12);
  if (kind === "redis") return { kind, url: url ?? REDIS_URL, keyPrefix: `cluster-${id}` };
  if (kind === "redis-cluster") {
    return { kind, rootUrls: REDIS_CLUSTER_URLS, keyPrefix: `cluster-${id}` };
  }
  const fallback = kind === "pgbouncer" ? PGBOUNCER_URL : POSTGRES_URL;
  return { kind: "postgres", url: url ?? fallback, schema: `cluster_${id}` };
}

/** A connected raw client of a Redis Cluster (default: the shared test cluster). */
export async function connectCluster(rootUrls: readonly string[] = REDIS_CLUSTER_URLS) {
  const cluster = createCluster({
    rootNodes: rootUrls.map((url) => ({ url })),
    defaults: { socket: { connectTimeout: 2_000 } },
  });
  cluster.on("error", () => undefined);
  await cluster.connect();
  return cluster;
}

/** Fails loudly when the server is not reachable: these tests never skip. */
export async function assertReachable(spec: BackendSpec): Promise<void> {
  if (spec.kind === "redis-cluster") {
    const cluster = await connectCluster(spec.rootUrls);
    const info = String(await cluster.sendCommand(undefined, true, ["CLUSTER", "INFO"]));
    await cluster.close();
    if (!info.includes("cluster_state:ok")) throw new Error(`the Redis Cluster is not ok: ${info}`);
    return;
  }
  if (spec.kind === "redis") {
    const client = createClient({ url: spec.url, socket: { reconnectStrategy: false } });
    await client.connect();
    await client.ping();
    await client.quit();
    return;
  }
  const client = new pg.Client({ connectionString: spec.url });
  await client.connect();
  await client.query("select 1");
  await client.end();
}

/** Removes everything a scenario wrote. */
export async function dropBackend(spec: BackendSpec): Promise<void> {
  if (spec.kind === "redis-cluster") {
    const cluster = await connectCluster(spec.rootUrls);
    for (const master of cluster.masters) {
      const client = await cluster.nodeClient(master);
      for await (const keys of client.scanIterator({ MATCH: `${spec.keyPrefix}:*`, COUNT: 500 })) {
        for (const key of keys) await cluster.del(key);
      }
    }
    await cluster.close();
    return;
  }
  if (spec.kind === "redis") {
    const client = createClient({ url: spec.url, socket: { reconnectStrategy: false } });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `*${spec.keyPrefix}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.quit();
    return;
  }
  const client = new pg.Client({ connectionString: spec.url });
  await client.connect();
  await client.query(`drop schema if exists "${spec.schema}" cascade`);
  await client.end();
}
