import type { RedisStateClient, RedisStateClusterClient } from "./options.js";

/** What the backend passes with every command. */
export interface SendOptions {
  abortSignal?: AbortSignal;
  typeMapping?: object;
}

/**
 * One way of sending commands, whether the servers are one Redis or a Redis Cluster. On a
 * cluster, `firstKey` picks the slot, hence the node; a single node ignores it.
 */
export interface CommandTarget {
  readonly isOpen: boolean;
  readonly isCluster: boolean;
  send(
    args: readonly string[],
    firstKey: string | undefined,
    pinned: boolean,
    options: SendOptions,
  ): Promise<unknown>;
}

interface SingleClient {
  readonly isOpen: boolean;
  sendCommand(args: readonly string[], options?: SendOptions): Promise<unknown>;
}

interface ClusterClient {
  readonly isOpen: boolean;
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: readonly string[],
    options?: SendOptions,
  ): Promise<unknown>;
  getNodeClientForKey(key: string, isReadonly?: boolean): Promise<SingleClient>;
  getSlotMaster(slot: number): unknown;
}

/** True for a node-redis cluster client (`createCluster()`). */
export function isClusterClient(client: unknown): boolean {
  return typeof (client as { getSlotMaster?: unknown } | null)?.getSlotMaster === "function";
}

/** Wraps a node-redis client or cluster client. */
export function commandTarget(client: RedisStateClient | RedisStateClusterClient): CommandTarget {
  if (isClusterClient(client)) {
    const cluster = client as unknown as ClusterClient;
    return {
      get isOpen() {
        return cluster.isOpen;
      },
      isCluster: true,
      async send(args, firstKey, pinned, options) {
        if (pinned && firstKey !== undefined) {
          // The cluster client would fan a keyless command such as WAIT out to every master;
          // it must run on the connection that carried the write.
          const node = await cluster.getNodeClientForKey(firstKey, false);
          return node.sendCommand(args, options);
        }
        return cluster.sendCommand(firstKey, false, args, options);
      },
    };
  }
  const single = client as unknown as SingleClient;
  return {
    get isOpen() {
      return single.isOpen;
    },
    isCluster: false,
    send: (args, _firstKey, _pinned, options) => single.sendCommand(args, options),
  };
}
