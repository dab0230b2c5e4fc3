import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";

/** The State key of a delivery's dedupe mark. */
export function dedupeKey(deliveryKey: string): string {
  return `dedupe:${deliveryKey}`;
}

/** Removes a delivery's dedupe mark; best effort, since the State may be what failed. */
export async function forgetDedupeMark(
  state: StateAdapter,
  logger: Logger,
  deliveryKey: string,
): Promise<void> {
  try {
    await state.delete(dedupeKey(deliveryKey));
  } catch (error) {
    logger.warn("could not remove the dedupe mark; a retry may be skipped", { deliveryKey, error });
  }
}
