import { BATON_ERROR_CODES, type BatonErrorCode, docsUrlFor } from "./error-codes.js";

/** Options shared by every Baton error. */
export interface BatonErrorOptions {
  /** The underlying failure. Always kept, so the original stack is never lost. */
  cause?: unknown;
  /**
   * The step that failed, in words a reader of the log understands ("acquire thread lock").
   * It prefixes the message: `acquire thread lock: the state is disconnected`.
   */
  step?: string;
}

/**
 * The base class of every error Baton throws. `code` is one of a closed union, `cause` is kept,
 * and `step` names what was being attempted. `docsUrl` points at the explanation of the code.
 */
export class BatonError extends Error {
  readonly code: BatonErrorCode;
  readonly step: string | undefined;

  constructor(code: BatonErrorCode, message: string, options: BatonErrorOptions = {}) {
    const full = options.step ? `${options.step}: ${message}` : message;
    super(full, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.step = options.step;
  }

  /** The documentation anchor that explains this error's code. */
  get docsUrl(): string {
    return docsUrlFor(this.code);
  }
}

/**
 * True when `error` is a Baton error, optionally of one code. Works across package copies: it
 * checks for an `Error` carrying one of the closed set of Baton codes, not class identity.
 */
export function isBatonError(error: unknown, code?: BatonErrorCode): error is BatonError {
  if (!(error instanceof Error)) return false;
  const candidate: unknown = (error as { code?: unknown }).code;
  if (!BATON_ERROR_CODES.includes(candidate as BatonErrorCode)) return false;
  return code === undefined || candidate === code;
}
