/** A failure the fake answers one call with, in the Bot Connector's error shape. */
export interface FakeTeamsFailure {
  readonly status: number;
  /** The connector's error code; default by status (`Throttled` for 429 …). */
  readonly code?: string;
  readonly message?: string;
  /** Seconds sent in `Retry-After` (429 only). */
  readonly retryAfterSeconds?: number;
}

const DEFAULT_CODES: Record<number, string> = {
  400: "BadArgument",
  401: "Unauthorized",
  403: "Forbidden",
  404: "ConversationNotFound",
  412: "PreconditionFailed",
  429: "Throttled",
  500: "ServiceError",
  502: "BadGateway",
  503: "ServiceUnavailable",
};

/** The body the Bot Connector answers an error with: `{ error: { code, message } }`. */
export function connectorErrorBody(failure: FakeTeamsFailure): Record<string, unknown> {
  return {
    error: {
      code: failure.code ?? DEFAULT_CODES[failure.status] ?? "ServiceError",
      message: failure.message ?? `fake Bot Connector: ${failure.status}`,
    },
  };
}
