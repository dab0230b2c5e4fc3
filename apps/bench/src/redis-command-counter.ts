import diagnosticsChannel from "node:diagnostics_channel";
import { OperationTally, type RoundTripCounter, type RoundTripSnapshot } from "./round-trips.js";

/**
 * node-redis (5.x and 6.x alike) wraps every `sendCommand` in the `node-redis:command`
 * TracingChannel. Channels are named process-wide, so one subscription sees the commands of both
 * the `redis@6` client Baton uses and the `redis@5` client upstream's adapter bundles, without
 * patching either client or changing how either implementation is configured.
 */
const COMMAND_CHANNEL = "node-redis:command";

/** What node-redis publishes when a command starts. */
interface CommandTraceContext {
  readonly command?: string;
}

/**
 * Counts Redis round trips on the client side: one per command a node-redis client sends. A Lua
 * script is one command (`EVALSHA`, or `EVALSHA` + `EVAL` when the server has not cached it), and
 * the commands the script runs inside Redis are not round trips, so they are not counted. The
 * connection handshake (`HELLO`, `CLIENT SETINFO`) bypasses `sendCommand` and happens before any
 * measured window anyway.
 *
 * Scope: every node-redis client in this process. The bench keeps exactly one bot active during
 * a measured window, and its own admin client idle, so the count is that bot's.
 */
export class RedisCommandCounter implements RoundTripCounter {
  private readonly tally = new OperationTally();
  private readonly channel = diagnosticsChannel.tracingChannel(COMMAND_CHANNEL);
  private readonly handlers = {
    start: (message: unknown) => {
      const command = (message as CommandTraceContext).command ?? "UNKNOWN";
      this.tally.add(command.toUpperCase());
    },
  };
  private attached = false;

  /** Starts observing; idempotent. */
  attach(): this {
    if (!this.attached) {
      // subscribe() wants every lifecycle hook; only `start` carries the command.
      this.channel.subscribe(this.handlers as never);
      this.attached = true;
    }
    return this;
  }

  /** Stops observing; idempotent. */
  detach(): void {
    if (this.attached) {
      this.channel.unsubscribe(this.handlers as never);
      this.attached = false;
    }
  }

  reset(): void {
    this.tally.reset();
  }

  snapshot(): RoundTripSnapshot {
    return this.tally.snapshot();
  }
}
