import {
  type Adapter,
  type ChatHost,
  type Message,
  type ProcessOptions,
  type SerializedMessage,
  type WebhookOptions,
  webhookErrorResponse,
} from "@baton/core";
import type { MockRawMessage } from "./parse-mock-message.js";

/** The message of a mock webhook: a mock payload (its thread id may be left out) or a JSON form. */
export type MockWebhookMessage =
  | (Omit<MockRawMessage, "threadId"> & { threadId?: string })
  | SerializedMessage
  | Message;

/** The JSON body the mock adapter's webhook accepts. */
export interface MockWebhookBody {
  /** The thread the message belongs to; must be a thread id of the receiving adapter. */
  threadId: string;
  message: MockWebhookMessage;
  /** The installation the delivery belongs to, passed on for per-tenant admission. */
  tenantId?: string;
}

/** The JSON body of every mock webhook response. */
export type MockWebhookResponseBody =
  | { ok: true; messageId: string; outcome: string }
  | { ok: false; error: string };

/** The URL a mock webhook request is sent to unless told otherwise. */
export const MOCK_WEBHOOK_URL = "http://localhost/webhooks/mock";

/**
 * Builds the `POST` request the mock adapter's `handleWebhook` accepts: `body` as JSON (a
 * `Message` is sent in its JSON form). For testing a runtime end to end through
 * `chat.webhooks.<name>(request)`.
 */
export function createMockWebhookRequest(body: MockWebhookBody, url = MOCK_WEBHOOK_URL): Request {
  return new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** What the webhook needs from its adapter. */
export interface MockWebhookTarget {
  readonly adapter: Adapter;
  readonly host: ChatHost | undefined;
  /** Parses one message payload (throws a `ValidationError` when it is malformed). */
  parse(raw: unknown): Message;
}

/**
 * Handles a mock webhook: 405 for a method other than POST; 500 when the adapter was not
 * initialized; 400 (with the problem in `error`) for a body that is not JSON, a bad or foreign
 * thread id or a malformed message; otherwise hands the message to `host.receiveMessage` and
 * answers 200 `{ ok: true, messageId, outcome }` when it resolves (after acceptance under
 * deferred dispatch), or core's `webhookErrorResponse` when it rejects: 503 with `Retry-After`
 * for an admission rejection or a State failure, 400 for bad input, 500 otherwise.
 */
export async function handleMockWebhook(
  target: MockWebhookTarget,
  request: Request,
  options: WebhookOptions = {},
): Promise<Response> {
  if (request.method !== "POST") {
    return reply(
      405,
      { ok: false, error: `method ${request.method} not allowed; use POST` },
      {
        allow: "POST",
      },
    );
  }
  const host = target.host;
  if (!host) {
    const error = `adapter "${target.adapter.name}" is not initialized; call initialize(chat) first`;
    return reply(500, { ok: false, error });
  }
  const parsed = await readDelivery(target, request);
  if ("error" in parsed) return reply(400, { ok: false, error: parsed.error });

  const processOptions: ProcessOptions = {};
  if (options.waitUntil) processOptions.waitUntil = options.waitUntil;
  if (parsed.tenantId !== undefined) processOptions.tenantId = parsed.tenantId;
  let outcome: string;
  try {
    const result = await host.receiveMessage(
      target.adapter,
      parsed.threadId,
      parsed.message,
      processOptions,
    );
    outcome = result.outcome;
  } catch (error) {
    return webhookErrorResponse(error);
  }
  return reply(200, { ok: true, messageId: parsed.message.id, outcome });
}

type Delivery = { threadId: string; message: Message; tenantId?: string } | { error: string };

async function readDelivery(target: MockWebhookTarget, request: Request): Promise<Delivery> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch (error) {
    return { error: `body is not valid JSON: ${error instanceof Error ? error.message : error}` };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { error: "body must be a JSON object { threadId, message }" };
  }
  const { threadId, message, tenantId } = body as Record<string, unknown>;
  if (typeof threadId !== "string") return { error: "threadId must be a string" };
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { error: "message must be an object" };
  }
  if (tenantId !== undefined && typeof tenantId !== "string") {
    return { error: "tenantId must be a string when given" };
  }
  const claimedThreadId = (message as Record<string, unknown>).threadId;
  if (claimedThreadId !== undefined && claimedThreadId !== threadId) {
    return {
      error: `message.threadId ${JSON.stringify(claimedThreadId)} differs from threadId ${JSON.stringify(threadId)}`,
    };
  }
  try {
    target.adapter.decodeThreadId(threadId);
    const parsed = target.parse({ ...message, threadId });
    return tenantId === undefined
      ? { threadId, message: parsed }
      : { threadId, message: parsed, tenantId };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function reply(
  status: number,
  body: MockWebhookResponseBody,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
