import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pause } from "./cluster.js";

/** One line of `CLUSTER NODES`. */
export interface ClusterNode {
  readonly port: number;
  readonly flags: string[];
  readonly slots: Array<[number, number]>;
}

function cli(port: number, ...args: string[]): string | undefined {
  const result = spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], {
    encoding: "utf8",
    timeout: 5_000,
  });
  return result.status === 0 ? result.stdout : undefined;
}

/**
 * A Redis Cluster of three masters and three replicas that a test starts for itself, on its own
 * ports and in its own folder, so killing its nodes never disturbs the shared CI cluster (which
 * other test files use at the same time). Same settings as .ci/services.sh: short
 * cluster-node-timeout, no persistence.
 */
export class LocalCluster {
  readonly ports: readonly number[];
  private readonly dir = mkdtempSync(join(tmpdir(), "baton-redis-cluster-"));

  constructor(firstPort: number) {
    this.ports = Array.from({ length: 6 }, (_, i) => firstPort + i);
  }

  /** Root node URLs for `createRedisState({ cluster })`. */
  get rootUrls(): string[] {
    return this.ports.slice(0, 3).map((port) => `redis://127.0.0.1:${port}`);
  }

  /** Starts the six nodes, forms the cluster and waits until it is healthy. */
  async start(): Promise<void> {
    for (const port of this.ports) this.startNode(port);
    for (const port of this.ports) {
      await waitUntil(() => cli(port, "ping")?.includes("PONG") === true, 10_000, `node ${port}`);
    }
    execFileSync(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...this.ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        "1",
        "--cluster-yes",
      ],
      { stdio: "ignore", timeout: 30_000 },
    );
    await this.waitUntilHealthy(30_000);
  }

  /** Stops every node and removes the folder. */
  stop(): void {
    for (const port of this.ports) cli(port, "shutdown", "nosave");
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The cluster as a live node sees it, or `undefined` when no node answers. */
  nodes(): ClusterNode[] | undefined {
    for (const port of this.ports) {
      const text = cli(port, "cluster", "nodes");
      if (!text?.includes("myself")) continue;
      return text
        .trim()
        .split("\n")
        .map((line) => {
          const [, address = "", flags = "", , , , , , ...slots] = line.split(" ");
          return {
            port: Number(address.split("@")[0]?.split(":")[1]),
            flags: flags.split(","),
            slots: slots
              .filter((slot) => /^\d/.test(slot))
              .map((slot) => {
                const [from = 0, to = from] = slot.split("-").map(Number);
                return [from, to] as [number, number];
              }),
          };
        });
    }
    return undefined;
  }

  /** The slot of `key`, as the server computes it. */
  keySlot(key: string): number {
    for (const port of this.ports) {
      const text = cli(port, "cluster", "keyslot", key);
      if (text !== undefined) return Number(text.trim());
    }
    throw new Error("no cluster node answers");
  }

  /** The port of the healthy master serving `slot`, as a live node sees it. */
  masterPortOf(slot: number): number | undefined {
    return this.nodes()?.find(
      (node) =>
        node.flags.includes("master") &&
        !node.flags.some((flag) => flag.startsWith("fail")) &&
        node.slots.some(([from, to]) => slot >= from && slot <= to),
    )?.port;
  }

  /**
   * Resolves once every replica of the master on `port` has what the master had written when
   * this was called (its replication offset then), so a kill after it loses none of it.
   */
  async replicated(port: number, timeoutMs = 10_000): Promise<void> {
    const info = cli(port, "info", "replication") ?? "";
    const target = Number(/master_repl_offset:(\d+)/.exec(info)?.[1]);
    if (!Number.isFinite(target)) throw new Error(`no master answers on ${port}`);
    await waitUntil(
      () => {
        const now = cli(port, "info", "replication") ?? "";
        const offsets = [...now.matchAll(/^slave\d+:.*offset=(\d+)/gm)].map((m) => Number(m[1]));
        return offsets.length > 0 && offsets.every((offset) => offset >= target);
      },
      timeoutMs,
      `the replicas of ${port} to catch up`,
    );
  }

  /** SIGKILLs the node on `port`: it dies holding whatever it had not replicated. */
  kill(port: number): void {
    const info = cli(port, "info", "server") ?? "";
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    if (!pid) throw new Error(`no redis-server answers on ${port}`);
    process.kill(pid, "SIGKILL");
  }

  /**
   * Starts the node on `port` (again) from its nodes.conf: a killed node rejoins the cluster as
   * a replica of whoever took its slots over.
   */
  startNode(port: number): void {
    if (cli(port, "ping")?.includes("PONG")) return;
    const dir = join(this.dir, String(port));
    mkdirSync(dir, { recursive: true });
    execFileSync("redis-server", [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--cluster-enabled",
      "yes",
      "--cluster-config-file",
      join(dir, "nodes.conf"),
      "--cluster-node-timeout",
      "2000",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--logfile",
      join(dir, "redis.log"),
      "--daemonize",
      "yes",
    ]);
  }

  /**
   * True when every node answers, sees the cluster ok, none is flagged failing, and every replica
   * has synced with its master. A replica that has not (right after the cluster formed, or after
   * a killed node rejoined: the first sync waits for the diskless-sync delay, ~5 s) refuses to
   * take over when its master dies, so a test killing a master before that waits forever.
   */
  healthy(): boolean {
    for (const port of this.ports) {
      if (!cli(port, "cluster", "info")?.includes("cluster_state:ok")) return false;
    }
    const nodes = this.nodes();
    const formed =
      nodes !== undefined &&
      nodes.length === this.ports.length &&
      nodes.every((node) => !node.flags.some((flag) => flag.startsWith("fail")));
    return (
      formed &&
      nodes.every(
        (node) =>
          !node.flags.includes("slave") ||
          cli(node.port, "info", "replication")?.includes("master_link_status:up") === true,
      )
    );
  }

  /** Polls until the cluster is healthy, or fails after `timeoutMs`. */
  waitUntilHealthy(timeoutMs: number): Promise<void> {
    return waitUntil(() => this.healthy(), timeoutMs, "the Redis Cluster to be healthy");
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await pause(200);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
