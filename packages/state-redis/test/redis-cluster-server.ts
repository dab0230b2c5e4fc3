import { createCluster, type RedisClusterType } from "redis";

/**
 * The Redis Cluster the tests run against: BATON_REDIS_CLUSTER_URLS (comma-separated root
 * nodes), or the local 3 masters + 3 replicas on 127.0.0.1:7000–7005 that .ci/services.sh starts.
 */
export const CLUSTER_ROOT_URLS = (
  process.env.BATON_REDIS_CLUSTER_URLS ??
  "redis://127.0.0.1:7000,redis://127.0.0.1:7001,redis://127.0.0.1:7002"
)
  .split(",")
  .map((url) => url.trim());

/** The cluster option of `createRedisState` for the test cluster. */
export const CLUSTER_OPTION = { rootNodes: CLUSTER_ROOT_URLS.map((url) => ({ url })) };

/** A raw cluster client for looking behind the backend's back. */
export type RawCluster = RedisClusterType;

/**
 * Connects a raw cluster client and checks the cluster is healthy, or throws a clear error. Test
 * files call it at import, so a missing cluster fails the run instead of skipping it.
 */
export async function connectRawCluster(): Promise<RawCluster> {
  const cluster = createCluster({
    rootNodes: CLUSTER_ROOT_URLS.map((url) => ({ url })),
    defaults: { socket: { connectTimeout: 2_000, reconnectStrategy: false } },
  }) as unknown as RawCluster;
  cluster.on("error", () => undefined);
  try {
    await cluster.connect();
    const info = String(await cluster.sendCommand(undefined, true, ["CLUSTER", "INFO"]));
    if (!info.includes("cluster_state:ok")) throw new Error(`cluster state is not ok: ${info}`);
  } catch (error) {
    cluster.destroy();
    throw new Error(
      `Redis Cluster is not reachable at ${CLUSTER_ROOT_URLS.join(", ")} (${String(error)}). ` +
        "Start it with `bash .ci/services.sh` or point BATON_REDIS_CLUSTER_URLS at one. " +
        "These tests never skip.",
      { cause: error },
    );
  }
  return cluster;
}

/** Every key under `prefix` on every master (SCAN per node is fine in tests). */
export async function clusterKeysUnder(cluster: RawCluster, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (const master of cluster.masters) {
    const client = await cluster.nodeClient(master);
    for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
      keys.push(...batch);
    }
  }
  return keys;
}

/** Deletes every key under `prefix` on every master, one key at a time (keys span slots). */
export async function clusterDeleteKeysUnder(cluster: RawCluster, prefix: string): Promise<void> {
  await Promise.all((await clusterKeysUnder(cluster, prefix)).map((key) => cluster.del(key)));
}
