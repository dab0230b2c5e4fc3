import { type Logger, StateError } from "@baton/core";
import { createClient, createCluster } from "redis";
import { type CommandTarget, commandTarget } from "./command-target.js";
import { DeadlineBuckets } from "./deadlines.js";
import { isNoScript, toStateError } from "./errors.js";
import type { LuaScript } from "./lua.js";
import {
  type RedisStateClient,
  type RedisStateClusterClient,
  type ResolvedRedisStateOptions,
  redactPassword,
} from "./options.js";

/** One command's arguments, e.g. `["SET", key, value]`. */
export type RedisArgs = readonly string[];

/**
 * Sends one command within the current call's time budget. `firstKey` routes it on a cluster
 * (every command and script this backend sends names its keys, all of one slot); `pinned` sends it
 * on the connection of the node that owns `firstKey`'s slot instead of letting the cluster client
 * fan it out (for `WAIT`, which counts that connection's writes).
 */
type Send = (args: RedisArgs, firstKey?: string, pinned?: boolean) => Promise<unknown>;

/** A client this connection owns: a single-node client or a cluster client. */
type OwnedClient = RedisStateClient | RedisStateClusterClient;

/** After a connection drop, wait this long before the first reconnect attempt, doubling after. */
const RECONNECT_BASE_DELAY_MS = 50;
/** The longest wait between reconnect attempts. */
const RECONNECT_MAX_DELAY_MS = 2_000;
/**
 * How long a cluster node may stay unreachable before the topology is refreshed (and again every
 * as long while it is): a failover promotes a replica after `cluster-node-timeout`, typically a
 * few seconds; node-redis' default waits 5 s.
 */
const CLUSTER_TOPOLOGY_REFRESH_MS = 1_000;
// Reconnect attempts drive those refreshes, so a cluster node is retried at least twice per
// refresh interval.

/**
 * The connection under a `RedisState`: opens (or borrows) the node-redis client, and runs each
 * call with one deadline of `timeoutMs`, mapping every failure to a `StateError` that names the
 * step. It never hangs: a call that Redis does not answer in time rejects with `timeout`, and a
 * command still waiting to be written at that moment is withdrawn, so it cannot run late.
 */
export class RedisConnection {
  private client: CommandTarget | undefined;
  private ownedClient: OwnedClient | undefined;
  private connecting: Promise<void> | undefined;
  private connected = false;
  private readonly logger: Logger;
  private readonly deadlines: DeadlineBuckets;

  constructor(private readonly options: ResolvedRedisStateOptions) {
    this.logger = options.logger;
    this.deadlines = new DeadlineBuckets(options.timeoutMs);
  }

  /** True between a successful `connect()` and the next `disconnect()`. */
  get isConnected(): boolean {
    return this.connected;
  }

  /** Idempotent; concurrent calls share one attempt, and a failed attempt can be retried. */
  connect(): Promise<void> {
    if (this.connected) return Promise.resolve();
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Idempotent. Closes the client only when this connection created it. */
  async disconnect(): Promise<void> {
    await this.connecting?.catch(() => undefined);
    this.connected = false;
    this.client = undefined;
    this.deadlines.close();
    const owned = this.ownedClient;
    this.ownedClient = undefined;
    if (owned) await this.close(owned);
  }

  /** True when the servers are a Redis Cluster (from `cluster`, or a cluster client given). */
  get isCluster(): boolean {
    return this.client?.isCluster ?? this.options.cluster !== undefined;
  }

  /** Runs one command; `args[1]` is its key (every keyed command this backend sends). */
  command<T = unknown>(step: string, args: RedisArgs): Promise<T> {
    return this.run(step, (send) => send(args, args[1])) as Promise<T>;
  }

  /**
   * Runs `WAIT replicas timeoutMs` on the connection that wrote `key` and returns how many
   * replicas acknowledged every write sent on it so far.
   */
  waitForReplicas(step: string, key: string, replicas: number, timeoutMs: number): Promise<number> {
    return this.run(step, (send) =>
      send(["WAIT", String(replicas), String(timeoutMs)], key, true),
    ).then(Number);
  }

  /** Runs one script: EVALSHA, and EVAL only when Redis answers NOSCRIPT (one extra trip). */
  script<T = unknown>(
    step: string,
    script: LuaScript,
    keys: readonly string[],
    args: readonly string[],
  ): Promise<T> {
    const tail = [String(keys.length), ...keys, ...args];
    // A node that never ran the script (a fresh node, a promoted replica) answers NOSCRIPT once.
    return this.run(step, (send) =>
      send(["EVALSHA", script.sha1, ...tail], keys[0]).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return send(["EVAL", script.source, ...tail], keys[0]);
      }),
    ) as Promise<T>;
  }

  private run(step: string, work: (send: Send) => Promise<unknown>): Promise<unknown> {
    const client = this.client;
    if (!this.connected || !client) {
      return Promise.reject(
        new StateError(
          "disconnected",
          "the Redis state is not connected; call connect() first (and not after disconnect())",
          { step },
        ),
      );
    }
    return this.withDeadline(step, client, work);
  }

  /**
   * Runs `work` within `timeoutMs` (the deadline of its millisecond's bucket, see
   * {@link DeadlineBuckets}) and maps any failure to a `StateError` naming `step`: `timeout` once
   * the deadline passed, `disconnected` when `disconnect()` came meanwhile.
   */
  private async withDeadline(
    step: string,
    client: CommandTarget,
    work: (send: Send) => Promise<unknown>,
  ): Promise<unknown> {
    const bucket = this.deadlines.join();
    // typeMapping {} overrides any client-level mapping: replies come back as plain strings
    // and numbers whatever the client was configured with. The bucket's signal withdraws the
    // commands still waiting to be written at the deadline, so none runs late.
    const options = { abortSignal: bucket.signal, typeMapping: {} };
    const send: Send = (args, firstKey, pinned) =>
      client.send(args, firstKey, pinned === true, options);
    try {
      const pending = work(send);
      // Once the deadline wins, the work may still settle (or reject with AbortError): never let
      // that become an unhandled rejection.
      pending.catch(() => undefined);
      return await Promise.race([pending, bucket.expiry]);
    } catch (error) {
      const mapped = bucket.expired ? this.timedOut(step) : toStateError(step, error);
      if (this.connected || step === "connect") throw mapped;
      throw new StateError("disconnected", "the Redis state was disconnected during the call", {
        step,
        cause: mapped,
      });
    } finally {
      this.deadlines.leave(bucket);
    }
  }

  private timedOut(step: string): StateError {
    const { timeoutMs } = this.options;
    return new StateError(
      "timeout",
      step === "connect"
        ? `Redis did not answer within ${timeoutMs} ms`
        : `Redis did not answer within ${timeoutMs} ms; the command may still take effect, so treat the outcome as unknown`,
      { step },
    );
  }

  private async open(): Promise<void> {
    const given = this.options.client;
    if (given) {
      const target = commandTarget(given);
      if (!target.isOpen) {
        throw new StateError(
          "unavailable",
          "the client given in options.client is not open; call its connect() first (this backend never opens or closes a client it did not create)",
          { step: "connect" },
        );
      }
      await this.verify(target);
      this.client = target;
      this.connected = true;
      return;
    }
    const client = this.options.cluster ? this.createOwnedCluster() : this.createOwnedClient();
    const target = commandTarget(client);
    try {
      await this.withConnectDeadline(client, target);
    } catch (error) {
      client.destroy();
      throw error;
    }
    this.client = target;
    this.ownedClient = client;
    this.connected = true;
  }

  /** Connects `client` and verifies the server, all within one `timeoutMs`. */
  private async withConnectDeadline(client: OwnedClient, target: CommandTarget): Promise<void> {
    const where = redactPassword(
      this.options.url ?? this.options.cluster?.rootNodes.map((node) => node.url).join(", ") ?? "",
    );
    try {
      await this.withDeadline("connect", target, async () => {
        await client.connect();
        await this.verify(target);
      });
    } catch (error) {
      const mapped = toStateError("connect", error);
      throw new StateError(
        (mapped as StateError).failure ?? "unavailable",
        `could not connect to ${where}: ${mapped.message.replace(/^connect: /, "")}`,
        { step: "connect", cause: mapped.cause ?? error },
      );
    }
  }

  /**
   * Checks that the server answers and is Redis 7.0 or later (the scripts use PEXPIRETIME), so a
   * wrong server fails at startup rather than at the first lock.
   */
  private async verify(client: CommandTarget): Promise<void> {
    const info = await this.withDeadline("connect", client, (send) => send(["INFO", "server"]));
    const version = /redis_version:(\d+)\./.exec(String(info))?.[1];
    if (version !== undefined && Number(version) < 7) {
      throw new StateError(
        "unavailable",
        `Redis ${version}.x is too old: this backend needs Redis 7.0 or later (PEXPIRETIME)`,
        { step: "connect" },
      );
    }
  }

  private createOwnedClient(): RedisStateClient {
    const { url, timeoutMs, keyPrefix } = this.options;
    let everReady = false;
    let outageLogged = false;
    const client = createClient({
      url,
      // Visible in CLIENT LIST, so an operator can tell Baton's connections apart.
      name: `baton:${keyPrefix}`.replace(/[^\w:.-]/g, "_"),
      // Fail fast while reconnecting instead of queueing commands that might run long after the
      // caller gave up: the caller gets "unavailable" and knows the command was not sent.
      disableOfflineQueue: true,
      // Every call already has its deadline here (`timeoutMs`); node-redis's own per-command
      // timeout (5 s by default in node-redis 6) would add a timer and a signal per command.
      commandOptions: { timeout: 0 },
      socket: {
        connectTimeout: timeoutMs,
        // The first connect gives up at once (connect() reports it and can be retried); after
        // that, reconnect forever with capped exponential backoff and jitter.
        reconnectStrategy: (retries) => {
          if (!everReady) return false;
          const delay = Math.min(RECONNECT_BASE_DELAY_MS * 2 ** retries, RECONNECT_MAX_DELAY_MS);
          return Math.round(delay / 2 + (Math.random() * delay) / 2);
        },
      },
    });
    // node-redis emits "error" on every failed (re)connect; without a listener Node would crash.
    client.on("error", (error: unknown) => {
      if (!everReady) return; // reported by connect() itself
      const message = error instanceof Error ? error.message : String(error);
      if (outageLogged) {
        this.logger.debug(`redis connection error (still reconnecting): ${message}`);
      } else {
        outageLogged = true;
        this.logger.warn(`redis connection lost, reconnecting: ${message}`);
      }
    });
    client.on("ready", () => {
      if (everReady && outageLogged) this.logger.info("redis connection restored");
      everReady = true;
      outageLogged = false;
    });
    return client as unknown as RedisStateClient;
  }

  /**
   * A cluster client: node-redis discovers the topology from the root nodes, follows MOVED/ASK,
   * and refreshes the topology when a node's connection drops (a failover). Every node
   * connection gets the same settings as a single-node client, and the credentials and TLS of
   * the first root node's URL.
   */
  private createOwnedCluster(): RedisStateClusterClient {
    const { cluster, timeoutMs, keyPrefix } = this.options;
    const rootNodes = cluster?.rootNodes ?? [];
    const first = new URL(rootNodes[0]?.url ?? "redis://127.0.0.1:6379");
    let outageLogged = false;
    const client = createCluster({
      rootNodes: rootNodes.map((node) => ({ url: node.url })),
      // As for a single node: every call has its own deadline, node-redis's is not needed.
      commandOptions: { timeout: 0 },
      defaults: {
        name: `baton:${keyPrefix}`.replace(/[^\w:.-]/g, "_"),
        disableOfflineQueue: true,
        ...(first.username ? { username: decodeURIComponent(first.username) } : {}),
        ...(first.password ? { password: decodeURIComponent(first.password) } : {}),
        socket: {
          connectTimeout: timeoutMs,
          ...(first.protocol === "rediss:" ? { tls: true as const } : {}),
          // A node that went away (a killed master) is retried with capped backoff; while it
          // is, the cluster client refreshes the topology every
          // CLUSTER_TOPOLOGY_REFRESH_MS, so once a replica is promoted the slots move to it and
          // the dead node's connection is dropped.
          reconnectStrategy: (retries: number) =>
            Math.min(RECONNECT_BASE_DELAY_MS * 2 ** retries, CLUSTER_TOPOLOGY_REFRESH_MS / 2),
        },
      },
      topologyRefreshOnReconnectionAttemptStrategy: CLUSTER_TOPOLOGY_REFRESH_MS,
    });
    // Without listeners, node-redis errors would crash the process.
    client.on("error", (error: unknown) => {
      this.logger.debug(`redis cluster error: ${(error as Error)?.message ?? error}`);
    });
    client.on("node-error", (error: unknown, node: { host?: string; port?: number }) => {
      const message = `redis cluster node ${node?.host}:${node?.port}: ${(error as Error)?.message ?? error}`;
      if (outageLogged) {
        this.logger.debug(message);
      } else {
        outageLogged = true;
        this.logger.warn(`${message} (the cluster client re-discovers the topology)`);
      }
    });
    client.on("node-ready", () => {
      outageLogged = false;
    });
    return client as unknown as RedisStateClusterClient;
  }

  /** Closes gracefully (pending replies first), but never waits longer than `timeoutMs`. */
  private async close(client: OwnedClient): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), this.options.timeoutMs);
    });
    try {
      const outcome = await Promise.race([client.close().then(() => "closed" as const), gaveUp]);
      if (outcome === "timeout") client.destroy();
    } catch {
      client.destroy();
    } finally {
      clearTimeout(timer);
    }
  }
}
