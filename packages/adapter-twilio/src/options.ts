import {
  type Clock,
  ConfigError,
  checkHttpUrl,
  checkInteger,
  configOrEnv,
  isLogger,
  type Logger,
  systemClock,
} from "@baton/core";

/**
 * What `createTwilioAdapter` takes: upstream `@chat-adapter/twilio` 4.41's field names where they
 * apply, so a `chat` user changes imports only. Every field falls back to an environment
 * variable where one is named.
 */
export interface TwilioAdapterConfig {
  /** The account (`AC…`). Default: `TWILIO_ACCOUNT_SID`. */
  accountSid?: string;
  /**
   * The account's auth token: signs webhooks, and authenticates REST calls unless an API key pair
   * is given. Default: `TWILIO_AUTH_TOKEN`.
   */
  authToken?: string;
  /** An API key (`SK…`) for REST calls instead of the auth token. Default: `TWILIO_API_KEY`. */
  apiKeySid?: string;
  /** The API key's secret. Default: `TWILIO_API_SECRET`. */
  apiKeySecret?: string;
  /**
   * The number (E.164, or `whatsapp:+…`) the bot sends from when a thread's sender is not a
   * Messaging Service. Default: `TWILIO_PHONE_NUMBER`.
   */
  phoneNumber?: string;
  /** A Messaging Service (`MG…`) to send from. Default: `TWILIO_MESSAGING_SERVICE_SID`. */
  messagingServiceSid?: string;
  /**
   * The public URL Twilio calls, exactly as configured on the number — the URL Twilio signs.
   * Default: `TWILIO_WEBHOOK_URL`. Without it webhooks are refused, unless `trustRequestUrl`.
   */
  webhookUrl?: string;
  /**
   * Verify signatures against `request.url` instead of `webhookUrl`. Only safe when your server
   * builds `request.url` from its own configuration, never from `Host` or `X-Forwarded-*`
   * headers a client controls. Default: false.
   */
  trustRequestUrl?: boolean;
  /** Where Twilio posts delivery status callbacks for messages the bot sends. Optional. */
  statusCallbackUrl?: string;
  /**
   * Base URL of Twilio's REST API (every `*.twilio.com` request is sent here, path kept): for
   * the offline fake in `@baton/adapter-twilio/testing` or a proxy. Default: Twilio's own hosts.
   */
  apiUrl?: string;
  /** The bot's name in messages it sends (`author.userName`). Default: `"bot"`. */
  userName?: string;
  /** Receives the adapter's log lines. Default: the Chat's logger after `initialize`. */
  logger?: Logger;
  /** How often a REST call refused with 429 or 5xx is tried again. Default 3. */
  maxRetries?: number;
  /** The first retry's delay; each next one doubles, up to 8 s. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Largest webhook body accepted; a larger one is answered 413. Default 64 KiB. */
  maxBodyBytes?: number;
  /** Source of time for retry delays. Default: the system clock. */
  clock?: Clock;
  /**
   * Send WhatsApp cards of 1–3 buttons as quick-reply buttons (Twilio's Content API,
   * `twilio/quick-reply` templates the adapter creates and caches); false keeps every card a
   * numbered text menu, e.g. for an account without Content API access. Default: true.
   */
  whatsappQuickReplies?: boolean;
}

/** The options with every default applied and every value checked. */
export interface ResolvedTwilioOptions {
  readonly accountSid: string | undefined;
  readonly authToken: string | undefined;
  readonly apiKeySid: string | undefined;
  readonly apiKeySecret: string | undefined;
  readonly phoneNumber: string | undefined;
  readonly messagingServiceSid: string | undefined;
  readonly webhookUrl: string | undefined;
  readonly trustRequestUrl: boolean;
  readonly statusCallbackUrl: string | undefined;
  readonly apiUrl: string | undefined;
  readonly userName: string;
  readonly logger: Logger | undefined;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  readonly maxBodyBytes: number;
  readonly clock: Clock;
  readonly whatsappQuickReplies: boolean;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * Applies defaults and environment fallbacks and checks every value; throws one `ConfigError`
 * listing every problem. Missing credentials are not a problem here — a bot may only receive,
 * or be built before its secrets are loaded — they are reported by the call that needs them.
 */
export function resolveTwilioOptions(
  config: TwilioAdapterConfig = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedTwilioOptions {
  const problems: string[] = [];
  const accountSid = configOrEnv(config.accountSid, env.TWILIO_ACCOUNT_SID);
  if (accountSid !== undefined && !accountSid.startsWith("AC")) {
    problems.push(`accountSid must start with "AC", got ${JSON.stringify(accountSid)}`);
  }
  const messagingServiceSid = configOrEnv(
    config.messagingServiceSid,
    env.TWILIO_MESSAGING_SERVICE_SID,
  );
  if (messagingServiceSid !== undefined && !messagingServiceSid.startsWith("MG")) {
    problems.push(
      `messagingServiceSid must start with "MG", got ${JSON.stringify(messagingServiceSid)}`,
    );
  }
  const apiKeySid = configOrEnv(config.apiKeySid, env.TWILIO_API_KEY);
  const apiKeySecret = configOrEnv(config.apiKeySecret, env.TWILIO_API_SECRET);
  if ((apiKeySid === undefined) !== (apiKeySecret === undefined)) {
    problems.push("apiKeySid and apiKeySecret must be given together");
  }
  const webhookUrl = configOrEnv(config.webhookUrl, env.TWILIO_WEBHOOK_URL);
  const statusCallbackUrl = config.statusCallbackUrl;
  const apiUrl = config.apiUrl?.replace(/\/+$/, "");
  checkHttpUrl(problems, "webhookUrl", webhookUrl);
  checkHttpUrl(problems, "statusCallbackUrl", statusCallbackUrl);
  checkHttpUrl(problems, "apiUrl", apiUrl);
  const maxRetries = config.maxRetries ?? 3;
  const retryBaseDelayMs = config.retryBaseDelayMs ?? 500;
  const maxBodyBytes = config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  checkInteger(problems, "maxRetries", maxRetries, 0);
  checkInteger(problems, "retryBaseDelayMs", retryBaseDelayMs, 1);
  checkInteger(problems, "maxBodyBytes", maxBodyBytes, 1);
  if (config.logger !== undefined && !isLogger(config.logger)) {
    problems.push("logger must have debug, info, warn and error methods");
  }
  const userName = config.userName ?? "bot";
  if (typeof userName !== "string" || userName === "") problems.push("userName must not be empty");
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `twilio adapter: ${p}`));
  return {
    accountSid,
    authToken: configOrEnv(config.authToken, env.TWILIO_AUTH_TOKEN),
    apiKeySid,
    apiKeySecret,
    phoneNumber: configOrEnv(config.phoneNumber, env.TWILIO_PHONE_NUMBER),
    messagingServiceSid,
    webhookUrl,
    trustRequestUrl: config.trustRequestUrl === true,
    statusCallbackUrl,
    apiUrl,
    userName,
    logger: config.logger,
    maxRetries,
    retryBaseDelayMs,
    maxBodyBytes,
    clock: config.clock ?? systemClock,
    whatsappQuickReplies: config.whatsappQuickReplies !== false,
  };
}
