import { resolveTelegramOptions, type TelegramAdapterConfig } from "./options.js";
import { TelegramAdapter } from "./telegram-adapter.js";

/**
 * Creates the Telegram adapter (upstream's factory name). Fields fall back to their
 * `TELEGRAM_*` environment variables; a bad or missing value throws a `ConfigError` naming it.
 */
export function createTelegramAdapter(config: TelegramAdapterConfig = {}): TelegramAdapter {
  return new TelegramAdapter(resolveTelegramOptions(config));
}

export { TelegramApi, type TelegramApiOptions } from "./api.js";
export { TELEGRAM_CAPABILITIES } from "./capabilities.js";
export {
  cardToTelegramInlineKeyboard,
  cardToTelegramText,
  decodeTelegramCallbackData,
  emptyTelegramInlineKeyboard,
  encodeTelegramCallbackData,
  TELEGRAM_CALLBACK_DATA_LIMIT,
  type TelegramCallbackPayload,
  type TelegramInlineButton,
  type TelegramInlineKeyboard,
} from "./cards.js";
export { applyTelegramEntities } from "./entities.js";
export {
  TelegramApiError,
  TelegramAuthError,
  TelegramNetworkError,
  TelegramNotFoundError,
  TelegramParseEntitiesError,
  TelegramRateLimitError,
} from "./errors.js";
export type { TelegramChatMemberEvent, TelegramEventHandler } from "./events.js";
export {
  escapeMarkdownV2,
  escapeMarkdownV2Code,
  escapeMarkdownV2Url,
  TelegramFormatConverter,
  type TelegramParseMode,
} from "./format.js";
export { messageFromTelegram, type TelegramBotIdentity } from "./message.js";
export {
  type ResolvedTelegramOptions,
  resolveTelegramOptions,
  TELEGRAM_API_URL,
  type TelegramAdapterConfig,
  type TelegramAdapterMode,
  type TelegramBotToken,
  type TelegramLongPollingConfig,
} from "./options.js";
export {
  parseTelegramUpdate,
  type TelegramCallbackQuery,
  type TelegramChat,
  type TelegramMessage,
  type TelegramMessageEntity,
  type TelegramUpdate,
  type TelegramUser,
  TelegramWebhookParseError,
} from "./parse.js";
export { isServerlessRuntime, pollLeaseKey, pollOffsetKey } from "./polling.js";
export { splitTelegramMarkdown, splitTelegramText } from "./split.js";
export { TelegramAdapter } from "./telegram-adapter.js";
export {
  decodeTelegramThreadId,
  encodeTelegramThreadId,
  TELEGRAM_ADAPTER_NAME,
  type TelegramThreadData,
} from "./thread-id.js";
export {
  endsWithOrphanBackslash,
  findUnescapedPositions,
  TELEGRAM_CAPTION_LIMIT,
  TELEGRAM_MESSAGE_LIMIT,
  truncateForTelegram,
} from "./truncate.js";
export { TELEGRAM_SECRET_HEADER, verifyTelegramSecretToken } from "./verify.js";
