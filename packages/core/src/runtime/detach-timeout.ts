import type { Clock } from "../clock/clock.js";
import type { DeliveryResult } from "../contracts/adapter.js";
import type { AcceptedDelivery, MessageDispatcher } from "../dispatch/message-dispatcher.js";
import { DetachTimeoutError } from "../errors/index.js";

/**
 * Runs an accepted delivery; with `timeoutMs`, its handler's signal aborts with a
 * `DetachTimeoutError` once that much clock time has passed, so detached work cannot run forever.
 */
export async function runWithDetachTimeout(
  messages: MessageDispatcher,
  clock: Clock,
  timeoutMs: number | undefined,
  accepted: AcceptedDelivery,
): Promise<DeliveryResult> {
  if (timeoutMs === undefined) return messages.run(accepted);
  const bound = new AbortController();
  const timer = clock.setTimeout(() => {
    bound.abort(
      new DetachTimeoutError(timeoutMs, `detached work ran past ${timeoutMs} ms`, {
        step: `run ${accepted.delivery.key}`,
      }),
    );
  }, timeoutMs);
  try {
    return await messages.run(accepted, bound.signal);
  } finally {
    clock.clearTimeout(timer);
  }
}
