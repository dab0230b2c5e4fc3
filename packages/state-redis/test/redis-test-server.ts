import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "redis";

/** The Redis the tests run against: BATON_REDIS_URL, or the local default. */
export const REDIS_URL = process.env.BATON_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A raw client for looking behind the backend's back. */
export type RawClient = RedisClientType;

/**
 * Connects a raw client, or throws a clear error. Test files call it at import, so a missing
 * server fails the run instead of skipping it (DESIGN §10).
 */
export async function connectRawClient(url = REDIS_URL): Promise<RawClient> {
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.destroy();
    throw new Error(
      `Redis is not reachable at ${url} (${String(error)}). Start it with ` +
        '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no` ' +
        "or point BATON_REDIS_URL at one. These tests never skip.",
      { cause: error },
    );
  }
  return client;
}

/** A prefix no other test uses. */
export function uniquePrefix(): string {
  return `test-${randomUUID()}`;
}

/** Every key under `prefix` (SCAN is fine in tests; the backend itself never scans). */
export async function keysUnder(client: RawClient, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
    keys.push(...batch);
  }
  return keys;
}

/** Deletes every key under `prefix`. */
export async function deleteKeysUnder(client: RawClient, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(keys);
}
