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

/**
 * The answer a webhook adapter gives when it refuses a request itself (405, 401, 413, 415, 400):
 * JSON `{ ok: false, code, error }`, the same shape as {@link webhookErrorResponse}. `error` names
 * the problem for the platform's logs and must carry no user content.
 */
export function webhookProblem(
  status: number,
  code: string,
  error: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ ok: false, code, error }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * A webhook's body as text, or `undefined` when it is larger than `maxBytes` — declared by
 * `Content-Length` or found while reading, which stops at the limit, so an oversized or lying
 * request is never buffered whole. Answer `undefined` with 413. Bytes are decoded as UTF-8.
 */
export async function readWebhookBody(
  request: Request,
  maxBytes: number,
): Promise<string | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) return undefined;
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
