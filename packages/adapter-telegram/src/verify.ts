import { createHash, timingSafeEqual } from "node:crypto";

/** The header Telegram sets to the webhook's `secret_token` on every call. */
export const TELEGRAM_SECRET_HEADER = "x-telegram-bot-api-secret-token";

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/**
 * True when `received` equals `expected`, compared in constant time: both sides are hashed
 * first, so neither the content nor the length of the secret leaks through timing. A missing
 * header never matches.
 */
export function verifyTelegramSecretToken(received: string | null, expected: string): boolean {
  if (received === null) return false;
  return timingSafeEqual(digest(received), digest(expected));
}
