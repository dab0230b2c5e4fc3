import type { TelegramApi } from "./api.js";

/** Options of {@link setTelegramWebhook}. */
export interface TelegramWebhookRegistration {
  /** Update kinds Telegram should send (`allowed_updates`); Telegram's own default when absent. */
  readonly allowedUpdates?: readonly string[];
}

/**
 * Points the bot's Telegram webhook at `url` (`setWebhook`), with `secretToken` when one is
 * configured so every delivery carries it in `X-Telegram-Bot-Api-Secret-Token`.
 */
export async function setTelegramWebhook(
  api: TelegramApi,
  secretToken: string | undefined,
  url: string,
  options: TelegramWebhookRegistration = {},
): Promise<void> {
  await api.call("setWebhook", {
    url,
    ...(secretToken === undefined ? {} : { secret_token: secretToken }),
    ...(options.allowedUpdates === undefined ? {} : { allowed_updates: options.allowedUpdates }),
  });
}

/**
 * Removes the bot's webhook (`deleteWebhook`), after which Telegram allows `getUpdates`; pending
 * updates are kept unless `dropPendingUpdates` is true.
 */
export async function resetTelegramWebhook(
  api: TelegramApi,
  options: { dropPendingUpdates?: boolean } = {},
): Promise<void> {
  await api.call("deleteWebhook", { drop_pending_updates: options.dropPendingUpdates === true });
}

/**
 * Whether Telegram has a webhook URL for the bot (`getWebhookInfo`). A failed check counts as
 * "yes": an instance that cannot tell stays on webhooks rather than stealing updates by polling.
 */
export async function telegramHasWebhook(api: TelegramApi): Promise<boolean> {
  const info = await api.call<{ url?: string }>("getWebhookInfo").catch(() => ({ url: "unknown" }));
  return Boolean(info.url);
}
