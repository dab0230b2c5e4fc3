/** What {@link createTelegramWebhookRequest} builds a request from. */
export interface TelegramWebhookRequestInit {
  /** The update (or any body, for malformed-body tests). */
  readonly update: unknown;
  /** The secret token set with `setWebhook`; `null` sends no header. */
  readonly secretToken: string | null;
  /** Default `https://bot.example.com/api/telegram`. */
  readonly url?: string;
  /** A raw body instead of the JSON of `update`. */
  readonly body?: string;
}

/**
 * A web-standard `Request` exactly as Telegram sends a webhook: a JSON POST carrying the secret
 * token in `X-Telegram-Bot-Api-Secret-Token`.
 */
export function createTelegramWebhookRequest(init: TelegramWebhookRequestInit): Request {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.secretToken !== null) headers["x-telegram-bot-api-secret-token"] = init.secretToken;
  return new Request(init.url ?? "https://bot.example.com/api/telegram", {
    method: "POST",
    headers,
    body: init.body ?? JSON.stringify(init.update),
  });
}
