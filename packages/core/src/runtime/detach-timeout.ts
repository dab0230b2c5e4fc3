import type { Clock } from "../clock/clock.js";
import type { DeliveryResult } from "../contracts/adapter.js";
import type { AcceptedDelivery, MessageDispatcher } from "../dispatch/message-dispatcher.js";
import { DetachTimeoutError } from "../errors/index.js";

/**
 * Runs an accepted delivery after its webhook was answered, so a State failure before the
 * handler is retried in-process (ADR 0015); with `timeoutMs`, its handler's signal (and any retry
 * wait) aborts with a `DetachTimeoutError` once that much clock time has passed, so detached work
 * cannot run forever.
 */
export async function runWithDetachTimeout(
  messages: MessageDispatcher,
  clock: Clock,
  timeoutMs: number | undefined,
  accepted: AcceptedDelivery,
): Promise<DeliveryResult> {
  if (timeoutMs === undefined) return messages.run(accepted, { retryStateFailures: true });
  const bound = new AbortController();
  const timer = clock.setTimeout(() => {
    bound.abort(
      new DetachTimeoutError(timeoutMs, `detached work ran past ${timeoutMs} ms`, {
        step: `run ${accepted.delivery.key}`,
      }),
    );
  }, timeoutMs);
  try {
    return await messages.run(accepted, { signal: bound.signal, retryStateFailures: true });
  } finally {
    clock.clearTimeout(timer);
  }
}
