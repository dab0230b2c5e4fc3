export { BatonError, type BatonErrorOptions, isBatonError } from "./baton-error.js";
export { BATON_ERROR_CODES, type BatonErrorCode, docsUrlFor } from "./error-codes.js";
export {
  AdapterError,
  AdmissionRejectedError,
  ConfigError,
  DetachTimeoutError,
  LockError,
  LockLostError,
  NotImplementedError,
  NotSupportedError,
  RateLimitError,
  ShutdownError,
  StateError,
  type StateFailure,
  ValidationError,
} from "./errors.js";
