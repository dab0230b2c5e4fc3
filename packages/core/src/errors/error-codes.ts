/**
 * The closed set of error codes Baton raises. Switch on `error.code`, never on message text:
 * codes are stable across releases, messages are for people.
 */
export type BatonErrorCode =
  | "CONFIG_INVALID"
  | "VALIDATION_FAILED"
  | "STATE_DISCONNECTED"
  | "STATE_UNAVAILABLE"
  | "STATE_TIMEOUT"
  | "LOCK_FAILED"
  | "LOCK_LOST"
  | "ADMISSION_REJECTED"
  | "ADAPTER_FAILED"
  | "RATE_LIMITED"
  | "NOT_IMPLEMENTED"
  | "NOT_SUPPORTED"
  | "SHUTTING_DOWN"
  | "DETACH_TIMEOUT";

/** Every code of {@link BatonErrorCode}, for exhaustive checks and docs. */
export const BATON_ERROR_CODES: readonly BatonErrorCode[] = [
  "CONFIG_INVALID",
  "VALIDATION_FAILED",
  "STATE_DISCONNECTED",
  "STATE_UNAVAILABLE",
  "STATE_TIMEOUT",
  "LOCK_FAILED",
  "LOCK_LOST",
  "ADMISSION_REJECTED",
  "ADAPTER_FAILED",
  "RATE_LIMITED",
  "NOT_IMPLEMENTED",
  "NOT_SUPPORTED",
  "SHUTTING_DOWN",
  "DETACH_TIMEOUT",
];

/** Where each code is explained; every Baton error exposes it as `error.docsUrl`. */
export function docsUrlFor(code: BatonErrorCode): string {
  return `https://github.com/baton-sdk/baton/blob/main/docs/errors.md#${code.toLowerCase().replaceAll("_", "-")}`;
}
