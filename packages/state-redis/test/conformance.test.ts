import { describeStateAdapter } from "@baton/conformance";
import { silentLogger } from "@baton/core";
import { afterAll } from "vitest";
import { createRedisState, type RedisState } from "../src/index.js";
import {
  connectRawClient,
  deleteKeysUnder,
  keysUnder,
  REDIS_URL,
  uniquePrefix,
} from "./redis-test-server.js";

// Throws at import when Redis is down: the file fails, it never skips.
const raw = await connectRawClient();
afterAll(() => raw.close());

const open = (keyPrefix: string) =>
  createRedisState({ url: REDIS_URL, keyPrefix, logger: silentLogger });

describeStateAdapter("redis", {
  create: () => open(uniquePrefix()),
  createPeer: (state) => open((state as RedisState).keyPrefix),
  advanceTime: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  // Durable turn records (DESIGN §6.1): losing them must fail the suite, not pass it quietly.
  requires: ["turns"],
  shortTtlMs: 300,
  expirySlackMs: 150,
  // Redis purges claim records by their TTL; nothing to trigger.
  storedClaimRecords: async (state) =>
    (await keysUnder(raw, (state as RedisState).keyPrefix)).filter((key) =>
      key.startsWith(`${(state as RedisState).keyPrefix}:claim:`),
    ).length,
  dispose: async (state, peers) => {
    await deleteKeysUnder(raw, (state as RedisState).keyPrefix);
    for (const client of [state, ...peers]) await client.disconnect();
  },
});
