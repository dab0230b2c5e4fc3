import {
  type ChatHost,
  type Logger,
  readWebhookBody,
  type WebhookOptions,
  webhookErrorResponse,
  webhookProblem,
} from "@baton/core";
import type { ResolvedTelegramOptions } from "./options.js";
import { parseTelegramUpdate, type TelegramUpdate, TelegramWebhookParseError } from "./parse.js";
import {
  dispatchTelegramUpdate,
  TelegramUpdateInProgressError,
  type TelegramUpdateTarget,
} from "./updates.js";
import { TELEGRAM_SECRET_HEADER, verifyTelegramSecretToken } from "./verify.js";

/** What the webhook needs from its adapter. */
export interface TelegramWebhookTarget {
  readonly options: ResolvedTelegramOptions;
  readonly host: ChatHost | undefined;
  logger(): Logger;
  /** The update target, once the Chat initialized the adapter. */
  updateTarget(host: ChatHost): TelegramUpdateTarget;
}

function ok(): Response {
  return new Response(JSON.stringify({ ok: true }), {
    status: 200,
    headers: { "content-type": "application/json" },
  });
}

/**
 * A Telegram webhook, in DESIGN §9's order: method (405) → size limit (413) → the secret token
 * header compared in constant time (401, before the body is parsed or anything written) → parse
 * (400) → the update claimed once and handed to the Chat → 200. Admission rejection and State
 * failures answer 503 (Telegram retries), and leave no claim behind.
 */
export async function handleTelegramWebhook(
  target: TelegramWebhookTarget,
  request: Request,
  options: WebhookOptions = {},
): Promise<Response> {
  const { options: config } = target;
  if (request.method !== "POST") {
    return webhookProblem(405, "METHOD_NOT_ALLOWED", "Telegram webhooks are POST requests");
  }
  const body = await readWebhookBody(request, config.maxBodyBytes);
  if (body === undefined) return webhookProblem(413, "PAYLOAD_TOO_LARGE", "the body is too large");
  const secret = config.secretToken;
  if (secret === undefined) {
    target
      .logger()
      .error(
        "telegram: a webhook arrived but secretToken is not set: set it (and pass it to setWebhook) so forged updates can be refused",
      );
    return webhookProblem(401, "UNAUTHORIZED", "the webhook cannot be verified");
  }
  if (!verifyTelegramSecretToken(request.headers.get(TELEGRAM_SECRET_HEADER), secret)) {
    return webhookProblem(401, "UNAUTHORIZED", "the secret token does not match");
  }
  const host = target.host;
  if (host === undefined) {
    return webhookProblem(503, "NOT_INITIALIZED", "the Chat has not initialized the adapter yet");
  }
  let update: TelegramUpdate;
  try {
    update = parseTelegramUpdate(body);
  } catch (error) {
    if (error instanceof TelegramWebhookParseError)
      return webhookProblem(400, "BAD_REQUEST", error.message);
    throw error;
  }
  try {
    await dispatchTelegramUpdate(target.updateTarget(host), update, options);
    return ok();
  } catch (error) {
    if (error instanceof TelegramUpdateInProgressError) {
      const response = webhookProblem(503, "IN_PROGRESS", error.message);
      response.headers.set("retry-after", "1");
      return response;
    }
    target.logger().warn("telegram: update not accepted", { updateId: update.update_id, error });
    return webhookErrorResponse(error);
  }
}
