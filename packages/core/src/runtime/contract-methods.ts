import type { Adapter } from "../contracts/adapter.js";
import type { StateAdapter } from "../contracts/state.js";

type MethodNames<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends (...args: never[]) => unknown ? K : never;
}[keyof T] &
  string;

type RequiredMethodNames<T> = {
  [K in keyof T]-?: undefined extends T[K]
    ? never
    : T[K] extends (...args: never[]) => unknown
      ? K
      : never;
}[keyof T] &
  string;

/**
 * The methods every adapter must have, in the order of the Adapter contract. Typed against the
 * contract, so adding a required method there without listing it here fails to compile.
 */
export const ADAPTER_REQUIRED_METHODS = [
  "initialize",
  "handleWebhook",
  "encodeThreadId",
  "decodeThreadId",
  "channelIdFromThreadId",
  "parseMessage",
  "postMessage",
  "editMessage",
  "deleteMessage",
  "addReaction",
  "removeReaction",
  "startTyping",
  "fetchMessages",
] as const satisfies readonly RequiredMethodNames<Adapter>[];

/** The optional adapter methods; when present they must be functions. */
export const ADAPTER_OPTIONAL_METHODS = [
  "listen",
  "disconnect",
  "isDM",
  "rehydrateAttachment",
  "stream",
  "openDM",
  "postEphemeral",
  "userCacheScope",
  "runForTenant",
] as const satisfies readonly MethodNames<Adapter>[];

/**
 * Every method of the State contract, in its lifecycle order. An upstream `chat` state adapter
 * has only some of them (no `mergeObject`, `claim`, `pendingQueueKeys`…), so it is told apart
 * here, at construction, instead of failing at the first message.
 */
export const STATE_REQUIRED_METHODS = [
  "connect",
  "disconnect",
  "subscribe",
  "unsubscribe",
  "isSubscribed",
  "get",
  "set",
  "delete",
  "setIfNotExists",
  "mergeObject",
  "acquireLock",
  "extendLock",
  "releaseLock",
  "forceReleaseLock",
  "inspectLock",
  "enqueue",
  "dequeue",
  "queueDepth",
  "pendingQueueKeys",
  "appendToList",
  "getList",
  "claim",
  "completeClaim",
  "rearmClaim",
] as const satisfies readonly RequiredMethodNames<StateAdapter>[];

// Compile-time completeness: each alias fails to compile when the contract gains a required
// method that the list above does not name.
type AssertNone<T extends never> = T;
type AdapterMethodsListed = AssertNone<
  Exclude<RequiredMethodNames<Adapter>, (typeof ADAPTER_REQUIRED_METHODS)[number]>
>;
type StateMethodsListed = AssertNone<
  Exclude<RequiredMethodNames<StateAdapter>, (typeof STATE_REQUIRED_METHODS)[number]>
>;

/** The names in `methods` that `value` does not have as functions, in the given order. */
export function missingMethods(value: object, methods: readonly string[]): string[] {
  const record = value as Record<string, unknown>;
  return methods.filter((method) => typeof record[method] !== "function");
}
