import { AdapterError, type BatonErrorOptions, RateLimitError } from "@baton/core";
import { TEAMS_ADAPTER_NAME } from "./thread-id.js";

/** A Bot Connector call Teams refused; `code` is the connector's error code when it sent one. */
export class TeamsApiError extends AdapterError {
  /** The HTTP status Teams answered, when the call reached Teams. */
  readonly status: number | undefined;
  /** The connector's error code (`ConversationNotFound`, `BadArgument`, …). */
  readonly connectorCode: string | undefined;

  constructor(
    message: string,
    details: { status?: number; code?: string },
    options: BatonErrorOptions = {},
  ) {
    super(TEAMS_ADAPTER_NAME, message, options);
    this.name = "TeamsApiError";
    this.status = details.status;
    this.connectorCode = details.code;
  }
}

/** What an SDK (axios) failure says: status, Retry-After and the connector's error body. */
export interface TeamsFailure {
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;
  readonly message: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

function numberOf(value: unknown): number | undefined {
  const parsed = typeof value === "string" ? Number(value) : value;
  return typeof parsed === "number" && Number.isFinite(parsed) ? parsed : undefined;
}

/** Reads `Retry-After` (seconds, or an HTTP date) into ms. */
export function retryAfterMsOf(header: unknown, nowMs: number): number | undefined {
  if (typeof header !== "string" || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Normalizes whatever the SDK threw: an axios error, an `HttpError` with `innerHttpError`, … */
export function teamsFailureOf(error: unknown, nowMs = Date.now()): TeamsFailure {
  const outer = record(error);
  const inner = record(outer?.innerHttpError) ?? outer;
  const response = record(inner?.response);
  const status =
    numberOf(response?.status) ??
    numberOf(inner?.statusCode) ??
    numberOf(inner?.status) ??
    numberOf(inner?.code);
  const headers = record(response?.headers);
  // axios keeps header names lower-cased as own properties (AxiosHeaders too).
  const retryHeader = headers?.["retry-after"];
  const body = record(record(response?.data)?.error);
  const message =
    (typeof body?.message === "string" ? body.message : undefined) ??
    (error instanceof Error ? error.message : typeof error === "string" ? error : "unknown error");
  return {
    status,
    retryAfterMs: retryAfterMsOf(retryHeader, nowMs),
    code: typeof body?.code === "string" ? body.code : undefined,
    message,
  };
}

/** The Baton error for a refused call: `RateLimitError` for 429, else a `TeamsApiError`. */
export function teamsApiError(step: string, error: unknown, nowMs = Date.now()): Error {
  const failure = teamsFailureOf(error, nowMs);
  const text = `teams: ${step} failed${failure.status ? ` (${failure.status})` : ""}: ${failure.message}`;
  if (failure.status === 429) {
    return new RateLimitError(text, failure.retryAfterMs, { cause: error });
  }
  return new TeamsApiError(text, { status: failure.status, code: failure.code }, { cause: error });
}
