import { ConfigError, ConsoleLogger, describeValue, isLogger, type Logger } from "@baton/core";
import type { RedisClientType } from "redis";

/** The key prefix used when `keyPrefix` is not given. */
export const DEFAULT_KEY_PREFIX = "baton";

/** The per-call time budget used when `timeoutMs` is not given. */
export const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A node-redis client as returned by `createClient()` from `redis` (any modules, scripts, RESP 2
 * or 3, any type mapping). Only its commands are used: the backend passes its own type mapping
 * on every command, so a client-level mapping (e.g. to Buffers) does not change what it reads.
 */
// `any` on purpose: a client with any modules, scripts, RESP version or type mapping fits.
export type RedisStateClient = RedisClientType<any, any, any, any, any>;

/**
 * A node-redis cluster client as returned by `createCluster()` from `redis` (any modules,
 * scripts, RESP version or type mapping): the members the backend uses. Like a single client, it
 * is routed per command by the command's first key, with the backend's own type mapping.
 */
export interface RedisStateClusterClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
  // `any` on purpose: node-redis' listener signatures vary by event.
  on(event: string, listener: (...args: any[]) => void): unknown;
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
    options?: object,
  ): Promise<unknown>;
  getSlotMaster(slot: number): unknown;
  getNodeClientForKey(
    key: string,
    isReadonly?: boolean,
  ): Promise<{ sendCommand(args: string[], options?: object): Promise<unknown> }>;
}

/** Where to find a Redis Cluster: `createRedisState({ cluster: { rootNodes: [{ url }] } })`. */
export interface RedisStateClusterOptions {
  /**
   * One or more nodes of the cluster, `{ url: "redis://host:port" }` each; the rest of the
   * topology is discovered from them (node-redis `createCluster`). Give more than one, so a
   * restart still finds the cluster while one node is down.
   */
  rootNodes: ReadonlyArray<{ url: string }>;
}

/**
 * Waits for replicas to acknowledge lock writes before a lock is used (Redis `WAIT`), so a
 * failover to a replica cannot lose a lock the handler already runs under.
 */
export interface RedisReplicationOptions {
  /**
   * How many replicas must have each lock write (acquire, extend) before the call succeeds. An
   * acquire that is not confirmed in time is released again and rejects with a `StateError`
   * `unavailable`; an extend that is not confirmed rejects likewise (the lease keeper then keeps
   * the lock only until its last confirmed lease ends). At least 1.
   */
  waitReplicas: number;
  /** How long, in milliseconds, to wait for the acknowledgements; below the call's `timeoutMs`. */
  timeoutMs: number;
}

/**
 * Options of {@link createRedisState}. Exactly one of `url`, `cluster` and `client` is required.
 */
export interface RedisStateOptions {
  /**
   * `redis[s]://[[user][:password]@]host[:port][/db]`. The backend creates, connects and closes
   * its own client: `connect()` opens it, `disconnect()` closes it.
   */
  url?: string;
  /**
   * A Redis Cluster to connect to. The backend creates, connects and closes its own cluster
   * client (node-redis `createCluster`), follows MOVED/ASK redirections and re-discovers the
   * topology after a failover. Every script and multi-key command names keys of one slot.
   */
  cluster?: RedisStateClusterOptions;
  /**
   * An existing node-redis client — a single-node client from `createClient()` or a cluster
   * client from `createCluster()` — for sharing one connection or configuring TLS, sentinel
   * discovery or auth yourself. The backend does not own it: `connect()` requires it to be open
   * already and never opens it, `disconnect()` never closes it, and its reconnect and offline
   * queue settings stay yours (every call is still bounded by `timeoutMs`).
   */
  client?: RedisStateClient | RedisStateClusterClient;
  /**
   * Prepended to every key this backend writes (`<keyPrefix>:lock:{<key>}`); one prefix is one
   * isolated store with its own fence sequence. Non-empty, without `{` or `}` (they would change
   * the keys' cluster hash tags). Default `"baton"`.
   */
  keyPrefix?: string;
  /**
   * The most time, in milliseconds, one call (and `connect()`) may take; past it the call rejects
   * with a `StateError` of failure `timeout`. Default 5 000.
   */
  timeoutMs?: number;
  /**
   * Confirm lock writes on replicas with `WAIT` before they count; off by default (Redis
   * replication is asynchronous). See "Running on Redis Cluster" in the README for its cost.
   */
  replication?: RedisReplicationOptions;
  /** Where connection problems and recoveries are logged. Default: warnings to the console. */
  logger?: Logger;
  /**
   * Offer the fused fast paths of DESIGN §4.1, which the runtime then uses instead of separate
   * calls: `acceptAndAcquire` (dedupe mark + lock + subscription read) and `releaseAndNext`
   * (release + a look at the queue), one script each, so an uncontended message costs 2 round
   * trips instead of 4. On a Redis Cluster only `releaseAndNext` is offered: the keys of
   * `acceptAndAcquire` live in different slots (ADR 0026). `false` offers neither. Default `true`.
   */
  fastPaths?: boolean;
}

/** {@link RedisStateOptions} after validation, with defaults applied. */
export interface ResolvedRedisStateOptions {
  readonly url: string | undefined;
  readonly cluster: RedisStateClusterOptions | undefined;
  readonly client: RedisStateClient | RedisStateClusterClient | undefined;
  readonly replication: RedisReplicationOptions | undefined;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly fastPaths: boolean;
}

/**
 * Validates `options` and applies defaults. Throws one `ConfigError` listing every problem, so a
 * deployment is fixed in one pass rather than one restart per mistake.
 */
export function resolveRedisStateOptions(
  options: RedisStateOptions | undefined,
): ResolvedRedisStateOptions {
  const given: RedisStateOptions = options ?? {};
  const problems: string[] = [];
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new ConfigError([`options must be an object, got ${describeValue(options)}`]);
  }
  const {
    url,
    cluster,
    client,
    replication,
    keyPrefix = DEFAULT_KEY_PREFIX,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    fastPaths = true,
  } = given;

  const sources = [
    url !== undefined && "url",
    cluster !== undefined && "cluster",
    client !== undefined && "client",
  ].filter((name): name is string => name !== false);
  if (sources.length === 0) {
    problems.push(
      "url, cluster or client: one is required (a redis:// URL, { rootNodes: [{ url }] }, or a node-redis client)",
    );
  }
  if (sources.length > 1) {
    problems.push(
      `${sources.join(" and ")}: give one, not several (each already names the servers)`,
    );
  }
  if (url !== undefined) problems.push(...urlProblems(url));
  if (cluster !== undefined) problems.push(...clusterProblems(cluster));
  if (replication !== undefined) problems.push(...replicationProblems(replication, timeoutMs));
  if (
    client !== undefined &&
    typeof (client as { sendCommand?: unknown })?.sendCommand !== "function"
  ) {
    problems.push(
      `client: must be a node-redis client (from createClient()), got ${describeValue(client)}`,
    );
  }
  if (typeof keyPrefix !== "string" || keyPrefix.length === 0) {
    problems.push(`keyPrefix: must be a non-empty string, got ${describeValue(keyPrefix)}`);
  } else if (/[{}]/.test(keyPrefix)) {
    problems.push(
      `keyPrefix: must not contain "{" or "}" (they would change the keys' cluster hash tags), got ${describeValue(keyPrefix)}`,
    );
  }
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    problems.push(
      `timeoutMs: must be a positive number of milliseconds, got ${describeValue(timeoutMs)}`,
    );
  }
  if (typeof fastPaths !== "boolean") {
    problems.push(`fastPaths: must be true or false, got ${describeValue(fastPaths)}`);
  }
  if (given.logger !== undefined && !isLogger(given.logger)) {
    problems.push("logger: must have debug, info, warn and error methods");
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    url,
    cluster,
    client,
    replication,
    keyPrefix,
    timeoutMs,
    logger: given.logger ?? new ConsoleLogger("warn", "baton:state-redis"),
    fastPaths,
  };
}

function clusterProblems(cluster: unknown): string[] {
  const rootNodes = (cluster as { rootNodes?: unknown } | null)?.rootNodes;
  if (!Array.isArray(rootNodes) || rootNodes.length === 0) {
    return [
      `cluster.rootNodes: must be a non-empty array of { url }, got ${describeValue(rootNodes)}`,
    ];
  }
  return rootNodes.flatMap((node: unknown, i) =>
    urlProblems((node as { url?: unknown } | null)?.url).map((problem) =>
      problem.replace(/^url:/, `cluster.rootNodes[${i}].url:`),
    ),
  );
}

function replicationProblems(replication: unknown, callTimeoutMs: unknown): string[] {
  const { waitReplicas, timeoutMs } = (replication ?? {}) as Partial<RedisReplicationOptions>;
  const problems: string[] = [];
  if (typeof waitReplicas !== "number" || !Number.isInteger(waitReplicas) || waitReplicas < 1) {
    problems.push(
      `replication.waitReplicas: must be an integer of at least 1, got ${describeValue(waitReplicas)}`,
    );
  }
  if (typeof timeoutMs !== "number" || !Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    problems.push(
      `replication.timeoutMs: must be a positive integer of milliseconds, got ${describeValue(timeoutMs)}`,
    );
  } else if (typeof callTimeoutMs === "number" && timeoutMs >= callTimeoutMs) {
    problems.push(
      `replication.timeoutMs: must be below timeoutMs (${callTimeoutMs}), so a call can still report the outcome, got ${timeoutMs}`,
    );
  }
  return problems;
}

function urlProblems(url: unknown): string[] {
  if (typeof url !== "string" || url.length === 0) {
    return [`url: must be a non-empty string, got ${describeValue(url)}`];
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return [`url: not a valid URL: ${describeValue(redactPassword(url))}`];
  }
  if (protocol !== "redis:" && protocol !== "rediss:") {
    return [
      `url: must start with redis:// or rediss://, got ${describeValue(redactPassword(url))}`,
    ];
  }
  return [];
}

/** Keeps a password out of error messages and logs. */
export function redactPassword(url: string): string {
  return url.replace(/\/\/([^@/]*):([^@/]*)@/, "//$1:***@");
}
