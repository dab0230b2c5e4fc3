import type { Adapter } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import { AdapterError, isBatonError } from "../errors/index.js";

/**
 * Runs one outbound platform call. A Baton error (a `RateLimitError`, an `AdapterError` the
 * adapter raised itself, a `ValidationError`) passes through unchanged, since it already says
 * what went wrong in a way callers switch on. Anything else is wrapped in an `AdapterError`
 * whose `step` names the call and whose `cause` is the original error, so its stack is kept.
 */
export async function callAdapter<T>(
  adapter: Adapter,
  step: string,
  call: () => Promise<T>,
  logger: Logger = silentLogger,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isBatonError(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    // Debug only: the caller decides whether the failure is worth more than that.
    logger.debug(`${step} failed`, { adapter: adapter.name, reason });
    throw new AdapterError(adapter.name, reason, { step, cause: error });
  }
}
