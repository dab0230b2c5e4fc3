import { isBatonError, StateError } from "@baton/core";

/**
 * Turns whatever a node-redis call threw into a Baton error naming `step`. Error classes are
 * matched by name, not `instanceof`, so a client built from another copy of `@redis/client`
 * maps the same way. The cause is always kept.
 */
export function toStateError(step: string, error: unknown): Error {
  if (isBatonError(error)) return error;
  const kind = errorKind(error);
  const detail = error instanceof Error ? error.message : String(error);
  switch (kind) {
    case "ClientOfflineError":
      return new StateError(
        "unavailable",
        "Redis is unreachable (the client is reconnecting); the command was not sent",
        { step, cause: error },
      );
    case "ClientClosedError":
    case "DisconnectsClientError":
      return new StateError("unavailable", `the Redis client is closed (${detail})`, {
        step,
        cause: error,
      });
    case "TimeoutError":
    case "ConnectionTimeoutError":
    case "SocketTimeoutError":
      return new StateError("timeout", `Redis did not answer in time (${detail})`, {
        step,
        cause: error,
      });
    case "ErrorReply":
    case "SimpleError":
    case "BlobError":
      return new StateError("unavailable", `Redis refused the command: ${detail}`, {
        step,
        cause: error,
      });
    default:
      return new StateError("unavailable", `Redis is unreachable: ${detail}`, {
        step,
        cause: error,
      });
  }
}

/** True for Redis's answer to EVALSHA of a script it does not have cached. */
export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith("NOSCRIPT");
}

function errorKind(error: unknown): string {
  if (!(error instanceof Error)) return "unknown";
  let prototype: unknown = Object.getPrototypeOf(error);
  // Walk the chain so a subclass (e.g. a maintenance timeout) maps like its base class.
  while (prototype && prototype !== Error.prototype) {
    const name = (prototype as { constructor?: { name?: string } }).constructor?.name;
    if (name && KNOWN.has(name)) return name;
    prototype = Object.getPrototypeOf(prototype);
  }
  return "unknown";
}

const KNOWN = new Set([
  "ClientOfflineError",
  "ClientClosedError",
  "DisconnectsClientError",
  "TimeoutError",
  "ConnectionTimeoutError",
  "SocketTimeoutError",
  "ErrorReply",
  "SimpleError",
  "BlobError",
]);
