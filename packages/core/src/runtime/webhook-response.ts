import { isBatonError } from "../errors/index.js";

/** `Retry-After` in whole seconds, rounded up so a client never retries early; at least 1. */
export function retryAfterSeconds(retryAfterMs: number): number {
  return Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? Math.ceil(retryAfterMs / 1_000) : 1;
}

/**
 * The HTTP answer a webhook adapter gives when dispatch failed before acceptance finished:
 * - `AdmissionRejectedError` → 503 with `Retry-After` (nothing was written; the retry counts);
 * - a State failure → 503 with `Retry-After: 1` (no dedupe mark was left; the retry counts);
 * - `ValidationError` → 400;
 * - anything else → 500.
 * The body is JSON `{ ok: false, code, error }`; it names the problem but carries no user data.
 */
export function webhookErrorResponse(error: unknown): Response {
  const message = error instanceof Error ? error.message : String(error);
  const code = isBatonError(error) ? error.code : "INTERNAL";
  const body = JSON.stringify({ ok: false, code, error: message });
  const json = { "content-type": "application/json" };
  if (isBatonError(error, "ADMISSION_REJECTED")) {
    const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs ?? 1_000;
    return new Response(body, {
      status: 503,
      headers: { ...json, "retry-after": String(retryAfterSeconds(retryAfterMs)) },
    });
  }
  if (
    isBatonError(error, "STATE_UNAVAILABLE") ||
    isBatonError(error, "STATE_TIMEOUT") ||
    isBatonError(error, "STATE_DISCONNECTED")
  ) {
    return new Response(body, { status: 503, headers: { ...json, "retry-after": "1" } });
  }
  if (isBatonError(error, "VALIDATION_FAILED"))
    return new Response(body, { status: 400, headers: json });
  return new Response(body, { status: 500, headers: json });
}
