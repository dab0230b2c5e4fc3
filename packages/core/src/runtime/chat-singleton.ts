import { ValidationError } from "../errors/index.js";
import type { BindingSource, RuntimeBinding } from "./runtime-binding.js";

/**
 * The process's default Chat for revival without a Chat at hand: the standalone `reviver`,
 * `ThreadImpl.fromJSON(json)` and the Workflow SDK's deserializers bind the handles they build to
 * it on first use. Set by `chat.registerSingleton()`; one per process, the last call wins.
 */
let registered: BindingSource | undefined;

/** Makes `source` the process's default Chat; see `chat.registerSingleton()`. */
export function registerChatSingleton(source: BindingSource): void {
  registered = source;
}

/** Forgets the default Chat (tests, hot reload). Handles already bound keep their binding. */
export function clearChatSingleton(): void {
  registered = undefined;
}

/** True while a default Chat is registered. */
export function hasChatSingleton(): boolean {
  return registered !== undefined;
}

/**
 * The binding of `adapterName` in the default Chat. Throws a `ValidationError` when no Chat is
 * registered or it has no adapter of that name.
 */
export function singletonBindingFor(adapterName: string): RuntimeBinding {
  const step = "bind revived handle";
  if (!registered) {
    throw new ValidationError(
      `No Chat singleton registered: call chat.registerSingleton() before using a handle revived ` +
        `without a Chat (adapter "${adapterName}"), or revive with chat.reviver()`,
      { step },
    );
  }
  try {
    return registered.bindingFor(adapterName);
  } catch (error) {
    throw new ValidationError(`Adapter "${adapterName}" not found in Chat singleton`, {
      step,
      cause: error,
    });
  }
}
