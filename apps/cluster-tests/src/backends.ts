import { randomUUID } from "node:crypto";
import pg from "pg";
import { createClient } from "redis";
import type { BackendSpec } from "./protocol.js";

export const REDIS_URL = process.env.BATON_REDIS_URL ?? "redis://127.0.0.1:6379";
export const POSTGRES_URL =
  process.env.BATON_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A fresh, isolated backend namespace for one scenario. */
export function isolatedBackend(kind: "redis" | "postgres", url?: string): BackendSpec {
  const id = randomUUID().replaceAll("-", "").slice(0, 12);
  return kind === "redis"
    ? { kind, url: url ?? REDIS_URL, keyPrefix: `cluster-${id}` }
    : { kind, url: url ?? POSTGRES_URL, schema: `cluster_${id}` };
}

/** Fails loudly when the server is not reachable: these tests never skip. */
export async function assertReachable(spec: BackendSpec): Promise<void> {
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
