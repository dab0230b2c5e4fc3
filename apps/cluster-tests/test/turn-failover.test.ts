import { lockKeyFor } from "@baton/core";
import { RedisKeyLayout } from "@baton/state-redis";
import { afterAll, beforeAll, describe, it } from "vitest";
import { waitFor } from "../src/cluster.js";
import { Fleet } from "../src/fleet.js";
import { checkDurableInvariants } from "../src/invariants.js";
import type { BackendSpec } from "../src/protocol.js";
import { LocalCluster } from "../src/redis-cluster-nodes.js";

// The Redis Cluster master holding a running turn's lock and record is SIGKILLed. The holder's
// lease runs out while no master serves the slot (its handler throws on the abort); the replica
// is promoted with the record; a survivor recovers the turn from it and runs it — the turn is
// handled exactly once, on attempt 2 — and then the message queued behind it. The cluster is
// this file's own (ports 7110–7115 by default), so the kill disturbs no other test file.
const cluster = new LocalCluster(Number(process.env.BATON_TURN_FAILOVER_CLUSTER_PORT ?? 7110));
beforeAll(() => cluster.start(), 60_000);
afterAll(() => cluster.stop());

const LOCK_TTL_MS = 1_000;
const SWEEP_INTERVAL_MS = 250;
const MAX_ATTEMPTS = 3;

/** A thread whose lock (and so its turn record) lives in a slot the master on `port` serves. */
function threadOnAMaster(keyPrefix: string) {
  const layout = new RedisKeyLayout(keyPrefix);
  const threadId = "mock:C1:T1";
  const slot = cluster.keySlot(layout.lock(lockKeyFor("thread", threadId, "")));
  const port = cluster.masterPortOf(slot);
  if (port === undefined) throw new Error(`no master serves slot ${slot}`);
  return { threadId, slot, port };
}

describe("a Redis Cluster master killed while a turn runs on it", () => {
  it("the promoted replica keeps the turn record: a survivor runs the turn once more, handled exactly once, then the queue behind it", async (test) => {
    const { expect } = test;
    // Healthy as beforeAll left it, replicas synced; a moment's doubt on a busy machine waits.
    await cluster.waitUntilHealthy(60_000);
    const backend: BackendSpec = {
      kind: "redis-cluster",
      rootUrls: cluster.rootUrls,
      keyPrefix: `turn-failover-${Date.now()}`,
    };
    const { threadId, slot, port } = threadOnAMaster(backend.keyPrefix);
    const fleet = await Fleet.open(
      backend,
      {
        strategy: "queue",
        lockTtlMs: LOCK_TTL_MS,
        sweepIntervalMs: SWEEP_INTERVAL_MS,
        debounceMs: 300,
        durableTurns: { maxAttempts: MAX_ATTEMPTS },
      },
      test,
    );
    let killed = false;
    test.onTestFinished(async () => {
      if (killed) cluster.startNode(port);
      await cluster.waitUntilHealthy(60_000);
    });
    const [a, b] = await fleet.start(["a", "b"]);
    if (!a || !b) throw new Error("workers did not start");

    void a.deliver("first", threadId, {
      durationMs: 300,
      firstAttemptMs: 60_000,
      onAbort: "throw",
      fails: false,
    });
    await waitFor("a to start first", () => fleet.runs("first").length === 1, 30_000);
    expect(await b.deliver("second", threadId, { durationMs: 100, fails: false })).toBe("queued");

    // Killed once the replica has the turn record (replication is asynchronous; losing the
    // record with the master is what `replication: { waitReplicas }` is for, not this test).
    await cluster.replicated(port);
    const killedAtMs = Date.now();
    cluster.kill(port);
    killed = true;
    await waitFor(
      "a replica to take over the killed master's slots",
      () => {
        const now = cluster.masterPortOf(slot);
        return now !== undefined && now !== port;
      },
      60_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; the cluster: ${JSON.stringify(cluster.nodes())}`);
    });
    await fleet.settled("first", 60_000);
    await fleet.settled("second", 30_000);
    await Promise.all(fleet.live().map((worker) => fleet.terminate(worker)));

    const runs = fleet.runs("first");
    const ends = fleet.runs("first", "run-end");
    // The first run stopped on its lost lease; exactly one run finished the turn.
    expect(ends[0]?.worker).toBe("a");
    expect(ends[0]?.aborted).toBe(true);
    const [finished, ...more] = fleet.completedRuns("first");
    expect(more).toEqual([]);
    expect(finished?.attempt).toBeGreaterThanOrEqual(2);
    expect(finished?.attempt).toBeLessThanOrEqual(MAX_ATTEMPTS);
    expect(runs[1]?.atMs).toBeGreaterThan(killedAtMs);
    expect(runs[1]?.interrupted?.attempt).toBe(1);
    expect(fleet.dispositions("first")).toEqual(["handled"]);
    expect(fleet.dispositions("second")).toEqual(["handled"]);
    const [second] = fleet.runs("second");
    expect(second?.atMs).toBeGreaterThanOrEqual(finished?.atMs ?? Infinity);

    const report = checkDurableInvariants(fleet.entries(), ["first", "second"], {
      maxAttempts: MAX_ATTEMPTS,
      diedAtMs: fleet.diedAtMs,
    });
    expect(report.overlaps).toEqual([]);
    expect(report.problems).toEqual([]);
  }, 180_000);
});
