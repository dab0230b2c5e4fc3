import { describeStateAdapter } from "@baton/conformance";
import { silentLogger } from "@baton/core";
import { afterAll } from "vitest";
import { createRedisState, type RedisState } from "../src/index.js";
import {
  CLUSTER_OPTION,
  clusterDeleteKeysUnder,
  clusterKeysUnder,
  connectRawCluster,
} from "./redis-cluster-server.js";
import { uniquePrefix } from "./redis-test-server.js";

// The whole suite against a real Redis Cluster of 3 masters and 3 replicas (.ci/services.sh):
// any script or multi-key command whose keys span slots fails here with CROSSSLOT. Throws at
// import when the cluster is down: the file fails, it never skips.
const raw = await connectRawCluster();
afterAll(() => raw.close());

const open = (keyPrefix: string) =>
  createRedisState({ cluster: CLUSTER_OPTION, keyPrefix, logger: silentLogger });

describeStateAdapter("redis cluster", {
  create: () => open(uniquePrefix()),
  createPeer: (state) => open((state as RedisState).keyPrefix),
  advanceTime: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  // Durable turn records (DESIGN §6.1): losing them must fail the suite, not pass it quietly.
  requires: ["turns"],
  shortTtlMs: 300,
  expirySlackMs: 150,
  storedClaimRecords: async (state) =>
    (await clusterKeysUnder(raw, (state as RedisState).keyPrefix)).filter((key) =>
      key.startsWith(`${(state as RedisState).keyPrefix}:claim:`),
    ).length,
  dispose: async (state, peers) => {
    await clusterDeleteKeysUnder(raw, (state as RedisState).keyPrefix);
    for (const client of [state, ...peers]) await client.disconnect();
  },
});
