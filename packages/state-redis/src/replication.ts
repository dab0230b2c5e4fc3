import { StateError } from "@baton/core";
import type { RedisConnection } from "./connection.js";
import type { RedisReplicationOptions } from "./options.js";

/**
 * The `replication` option at work: after a lock write, `WAIT` on the connection that carried it
 * until `waitReplicas` replicas acknowledged it, or `timeoutMs` passed. Redis replication is
 * asynchronous; without this a failover can promote a replica that never saw a lock the handler
 * already runs under.
 */
export class ReplicaConfirmation {
  constructor(
    private readonly connection: RedisConnection,
    private readonly options: RedisReplicationOptions,
  ) {}

  /** Resolves when enough replicas hold every write sent so far for the slot of `redisKey`. */
  async confirm(step: string, redisKey: string): Promise<void> {
    const { waitReplicas, timeoutMs } = this.options;
    const acknowledged = await this.connection.waitForReplicas(
      step,
      redisKey,
      waitReplicas,
      timeoutMs,
    );
    if (acknowledged >= waitReplicas) return;
    throw new StateError(
      "unavailable",
      `the lock write was confirmed by ${acknowledged} of ${waitReplicas} replica(s) within ${timeoutMs} ms (replication.waitReplicas); it is not confirmed by ${waitReplicas} replica(s)`,
      { step },
    );
  }
}
