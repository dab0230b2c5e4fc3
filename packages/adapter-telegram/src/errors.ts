import { AdapterError, type BatonErrorOptions, RateLimitError } from "@baton/core";
import { TELEGRAM_ADAPTER_NAME } from "./thread-id.js";

/** A Bot API call Telegram refused (`ok: false`); `errorCode` and `description` are Telegram's. */
export class TelegramApiError extends AdapterError {
  /** Telegram's `error_code` (400, 401, 403, 404, …). */
  readonly errorCode: number;
  /** Telegram's `description` ("Bad Request: chat not found"). */
  readonly description: string;
  /** The Bot API method that was called. */
  readonly method: string;

  constructor(
    method: string,
    details: { errorCode: number; description: string },
    options: BatonErrorOptions = {},
  ) {
    super(
      TELEGRAM_ADAPTER_NAME,
      `Telegram refused ${method}: ${details.errorCode} ${details.description}`,
      options,
    );
    this.method = method;
    this.errorCode = details.errorCode;
    this.description = details.description;
  }
}

/** Telegram could not parse the MarkdownV2/HTML of a message (400 "can't parse entities"). */
export class TelegramParseEntitiesError extends TelegramApiError {}

/** The bot token was refused (401) or the bot was blocked or removed from the chat (403). */
export class TelegramAuthError extends TelegramApiError {}

/** The chat or message does not exist, or the bot cannot see it (400 "… not found"). */
export class TelegramNotFoundError extends TelegramApiError {}

/** Telegram could not be reached, or answered something that is not the Bot API's JSON. */
export class TelegramNetworkError extends AdapterError {
  readonly method: string;

  constructor(method: string, message: string, options: BatonErrorOptions = {}) {
    super(TELEGRAM_ADAPTER_NAME, `Telegram ${method} failed: ${message}`, options);
    this.method = method;
  }
}

/** Telegram rate-limited a call (429) longer than the adapter waits, or too many times. */
export class TelegramRateLimitError extends RateLimitError {
  readonly method: string;

  constructor(method: string, retryAfterMs: number | undefined, options: BatonErrorOptions = {}) {
    super(
      `Telegram rate-limited ${method}${retryAfterMs === undefined ? "" : ` (retry after ${retryAfterMs} ms)`}`,
      retryAfterMs,
      options,
    );
    this.method = method;
  }
}

/** The adapter-specific error for a Telegram refusal, by its code and description. */
export function telegramApiError(
  method: string,
  errorCode: number,
  description: string,
  cause?: unknown,
): TelegramApiError {
  const details = { errorCode, description };
  const options = cause === undefined ? {} : { cause };
  if (errorCode === 400 && /can't parse entities/i.test(description)) {
    return new TelegramParseEntitiesError(method, details, options);
  }
  if (errorCode === 401 || errorCode === 403)
    return new TelegramAuthError(method, details, options);
  if (errorCode === 404 || (errorCode === 400 && /not found/i.test(description))) {
    return new TelegramNotFoundError(method, details, options);
  }
  return new TelegramApiError(method, details, options);
}
