import {
  type Clock,
  ConfigError,
  checkInteger,
  configOrEnv,
  isLogger,
  type Logger,
  systemClock,
} from "@baton/core";

/** How updates reach the bot: a webhook, long polling, or (auto) whichever the bot is set up for. */
export type TelegramAdapterMode = "auto" | "webhook" | "polling";

/** The bot token, or a function that resolves it (for rotated secrets); called per request. */
export type TelegramBotToken = string | (() => string | Promise<string>);

/** Long-polling settings (`getUpdates`). */
export interface TelegramLongPollingConfig {
  /** Seconds Telegram holds a `getUpdates` call open waiting for updates. Default 30. */
  timeout?: number;
  /** Updates per `getUpdates` call, 1–100. Default 100. */
  limit?: number;
  /** The update types to receive (Telegram's `allowed_updates`). Default: Telegram's default. */
  allowedUpdates?: readonly string[];
  /** Delete a configured webhook before polling (Telegram refuses both at once). Default true. */
  deleteWebhook?: boolean;
  /** Pause after a failed `getUpdates` call before the next one. Default 1 000 ms. */
  retryDelayMs?: number;
  /**
   * How long the polling lease in the State lasts: one instance polls at a time, and another
   * takes over within this long after the holder dies. Renewed every third of it. Default 30 000.
   */
  leaseTtlMs?: number;
}

/**
 * What `createTelegramAdapter` takes: upstream `@chat-adapter/telegram` 4.41's field names, so a
 * `chat` user changes imports only. Fields fall back to environment variables where named.
 */
export interface TelegramAdapterConfig {
  /** The token BotFather gave (`123456:ABC…`), or a resolver. Default: `TELEGRAM_BOT_TOKEN`. */
  botToken?: TelegramBotToken;
  /**
   * The `secret_token` given to `setWebhook`; every webhook must carry it in
   * `X-Telegram-Bot-Api-Secret-Token`. Default: `TELEGRAM_WEBHOOK_SECRET_TOKEN`.
   */
  secretToken?: string;
  /** The bot's username without `@`. Default: `TELEGRAM_BOT_USERNAME`, else `getMe`'s answer. */
  userName?: string;
  /** Base URL of the Bot API (a local Bot API server, or the offline fake). Default Telegram's. */
  apiUrl?: string;
  /** Upstream's older name of {@link apiUrl}; `apiUrl` wins. Default: `TELEGRAM_API_BASE_URL`. */
  apiBaseUrl?: string;
  /** `webhook`, `polling`, or `auto` (default): poll when no webhook is set on Telegram's side. */
  mode?: TelegramAdapterMode;
  /** Long-polling settings. */
  longPolling?: TelegramLongPollingConfig;
  /**
   * Only these Telegram user ids reach the handlers; updates from others are acknowledged and
   * dropped. Default: `TELEGRAM_ALLOWED_USER_IDS` (comma-separated), else everyone.
   */
  allowedUserIds?: readonly (string | number)[];
  /**
   * Least time between two edits of a streamed reply, in every chat; 0 opts out. Default: by chat
   * type, 1 100 ms in private chats and 3 100 ms in groups and channels (Telegram's flood limits,
   * upstream's values). A floor: a shorter stream or Chat `streamingUpdateIntervalMs` is raised.
   */
  streamingEditIntervalMs?: number;
  /** Receives the adapter's log lines. Default: the Chat's logger after `initialize`. */
  logger?: Logger;
  /** Longest `retry_after` a call waits out before failing with a `RateLimitError`. Default 30 000 ms. */
  maxRetryAfterMs?: number;
  /** How often a call refused with 429 is retried after its `retry_after`. Default 3. */
  maxRetries?: number;
  /** Largest webhook body accepted; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Source of time for retries, polling pauses and the lease. Default: the system clock. */
  clock?: Clock;
}

/** Long-polling settings with defaults applied. */
export interface ResolvedLongPolling {
  readonly timeout: number;
  readonly limit: number;
  readonly allowedUpdates: readonly string[] | undefined;
  readonly deleteWebhook: boolean;
  readonly retryDelayMs: number;
  readonly leaseTtlMs: number;
}

/** The options with every default applied and every value checked. */
export interface ResolvedTelegramOptions {
  readonly botToken: TelegramBotToken;
  readonly secretToken: string | undefined;
  readonly userName: string | undefined;
  readonly apiUrl: string;
  readonly mode: TelegramAdapterMode;
  readonly longPolling: ResolvedLongPolling;
  /** `undefined`: everyone is allowed. */
  readonly allowedUserIds: ReadonlySet<string> | undefined;
  /** `undefined`: the floor depends on the chat type (`stream-pace.ts`). */
  readonly streamingEditIntervalMs: number | undefined;
  readonly logger: Logger | undefined;
  readonly maxRetryAfterMs: number;
  readonly maxRetries: number;
  readonly maxBodyBytes: number;
  readonly clock: Clock;
}

/** Telegram's public Bot API. */
export const TELEGRAM_API_URL = "https://api.telegram.org";

function userIdsOf(
  problems: string[],
  config: TelegramAdapterConfig["allowedUserIds"],
  env: string | undefined,
): ReadonlySet<string> | undefined {
  const list =
    config ??
    (env ?? "")
      .split(",")
      .map((id) => id.trim())
      .filter((id) => id !== "");
  if (list.length === 0) return undefined;
  const ids = new Set<string>();
  for (const id of list) {
    const text = String(id).trim();
    if (!/^-?\d+$/.test(text)) problems.push(`allowedUserIds must be numeric ids, got "${text}"`);
    ids.add(text);
  }
  return ids;
}

function longPollingOf(problems: string[], config: TelegramLongPollingConfig = {}) {
  const resolved: ResolvedLongPolling = {
    timeout: config.timeout ?? 30,
    limit: config.limit ?? 100,
    allowedUpdates: config.allowedUpdates,
    deleteWebhook: config.deleteWebhook ?? true,
    retryDelayMs: config.retryDelayMs ?? 1_000,
    leaseTtlMs: config.leaseTtlMs ?? 30_000,
  };
  checkInteger(problems, "longPolling.timeout", resolved.timeout, 0, 50);
  checkInteger(problems, "longPolling.limit", resolved.limit, 1, 100);
  checkInteger(problems, "longPolling.retryDelayMs", resolved.retryDelayMs, 0);
  checkInteger(problems, "longPolling.leaseTtlMs", resolved.leaseTtlMs, 1_000);
  return resolved;
}

/**
 * Applies defaults and environment fallbacks and checks every value; throws one `ConfigError`
 * naming every bad field. A missing bot token is a problem: no Bot API call works without one.
 */
export function resolveTelegramOptions(
  config: TelegramAdapterConfig = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedTelegramOptions {
  const problems: string[] = [];
  const botToken =
    typeof config.botToken === "function"
      ? config.botToken
      : configOrEnv(config.botToken, env.TELEGRAM_BOT_TOKEN);
  if (botToken === undefined) {
    problems.push("botToken is required (pass botToken or set TELEGRAM_BOT_TOKEN)");
  }
  const apiUrl = (
    configOrEnv(config.apiUrl, undefined) ??
    configOrEnv(config.apiBaseUrl, env.TELEGRAM_API_BASE_URL) ??
    TELEGRAM_API_URL
  ).replace(/\/+$/, "");
  try {
    const url = new URL(apiUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      problems.push(`apiUrl must be an http(s) URL, got ${JSON.stringify(apiUrl)}`);
    }
  } catch {
    problems.push(`apiUrl must be an absolute URL, got ${JSON.stringify(apiUrl)}`);
  }
  const mode = config.mode ?? "auto";
  if (!["auto", "webhook", "polling"].includes(mode)) {
    problems.push(`mode must be "auto", "webhook" or "polling", got ${JSON.stringify(mode)}`);
  }
  const userName = configOrEnv(config.userName, env.TELEGRAM_BOT_USERNAME)?.replace(/^@/, "");
  const streamingEditIntervalMs = config.streamingEditIntervalMs;
  const maxRetryAfterMs = config.maxRetryAfterMs ?? 30_000;
  const maxRetries = config.maxRetries ?? 3;
  const maxBodyBytes = config.maxBodyBytes ?? 1024 * 1024;
  if (streamingEditIntervalMs !== undefined) {
    checkInteger(problems, "streamingEditIntervalMs", streamingEditIntervalMs, 0);
  }
  checkInteger(problems, "maxRetryAfterMs", maxRetryAfterMs, 0);
  checkInteger(problems, "maxRetries", maxRetries, 0, 20);
  checkInteger(problems, "maxBodyBytes", maxBodyBytes, 1);
  if (config.logger !== undefined && !isLogger(config.logger)) {
    problems.push("logger must have debug, info, warn and error methods");
  }
  const secretToken = configOrEnv(config.secretToken, env.TELEGRAM_WEBHOOK_SECRET_TOKEN);
  if (secretToken !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secretToken)) {
    problems.push(
      "secretToken must be 1–256 characters of A-Z, a-z, 0-9, _ and - (Telegram's rule)",
    );
  }
  const allowedUserIds = userIdsOf(problems, config.allowedUserIds, env.TELEGRAM_ALLOWED_USER_IDS);
  const longPolling = longPollingOf(problems, config.longPolling);
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `telegram adapter: ${p}`));
  return {
    botToken: botToken as TelegramBotToken,
    secretToken,
    userName,
    apiUrl,
    mode,
    longPolling,
    allowedUserIds,
    streamingEditIntervalMs,
    logger: config.logger,
    maxRetryAfterMs,
    maxRetries,
    maxBodyBytes,
    clock: config.clock ?? systemClock,
  };
}
