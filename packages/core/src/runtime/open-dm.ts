import type { Adapter } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import type { Logger } from "../contracts/logger.js";
import { NotSupportedError, ValidationError } from "../errors/index.js";
import { adapterNameOf } from "../thread-id/index.js";
import { callAdapter } from "./adapter-call.js";
import { adapterForUserId, type UserRef, userIdOf } from "./user-adapter.js";

/**
 * Opens (or finds) the direct conversation with `user` on the one adapter that claims the user
 * id, and returns the DM's thread id. Rejects with a `ValidationError` when no adapter or
 * several claim the id or the adapter answers a thread id of another adapter, a
 * `NotSupportedError` when the adapter cannot open DMs, an `AdapterError` when the call fails.
 */
export async function openDirectThread(
  adapters: Readonly<Record<string, Adapter>>,
  user: UserRef,
  logger: Logger,
): Promise<{ adapter: Adapter; threadId: string }> {
  const step = "open DM";
  const userId = userIdOf(user, step);
  const adapter = adapterForUserId(adapters, userId, step);
  const open = adapter.openDM;
  if (!capabilitiesOf(adapter).openDM || typeof open !== "function") {
    throw new NotSupportedError(adapter.name, "openDM", { step });
  }
  const threadId = await callAdapter(adapter, step, () => open.call(adapter, userId), logger);
  if (typeof threadId !== "string" || adapterNameOf(threadId) !== adapter.name) {
    throw new ValidationError(
      `adapter "${adapter.name}" answered openDM with ${JSON.stringify(threadId)}, not one of its thread ids`,
      { step },
    );
  }
  return { adapter, threadId };
}
