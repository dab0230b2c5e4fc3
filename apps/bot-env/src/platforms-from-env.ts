import { createSlackAdapter } from "@baton/adapter-slack";
import { createTeamsAdapter } from "@baton/adapter-teams";
import { createTelegramAdapter, type TelegramAdapterMode } from "@baton/adapter-telegram";
import { createTwilioAdapter } from "@baton/adapter-twilio";
import type { Adapter, Logger } from "@baton/core";

/** The hosted platforms the environment enables, each with the route its webhook is mounted at. */
export interface ChosenPlatform {
  readonly adapter: Adapter;
  /** The path the platform calls, e.g. `/api/twilio`. */
  readonly path: string;
  /** What to log about it; no secrets. */
  readonly description: string;
}

/** Where Twilio's webhooks (messages and status callbacks) are mounted. */
export const TWILIO_PATH = "/api/twilio";

/** Where Slack's Events API, interactivity and slash commands are sent (one request URL). */
export const SLACK_PATH = "/api/slack";

/** Where the Bot Framework posts Teams activities (the bot's messaging endpoint). */
export const TEAMS_PATH = "/api/teams";

/** Where Telegram's webhook is mounted (when the bot runs on a webhook rather than polling). */
export const TELEGRAM_PATH = "/api/telegram";

/**
 * The platforms whose variables are set, beside the web adapter that always runs:
 * - Twilio (SMS, WhatsApp) when `TWILIO_ACCOUNT_SID` is set; it also reads `TWILIO_AUTH_TOKEN`,
 *   `TWILIO_PHONE_NUMBER` or `TWILIO_MESSAGING_SERVICE_SID`, and `TWILIO_WEBHOOK_URL` — the public
 *   URL of {@link TWILIO_PATH} as configured on the number.
 * - Telegram when `TELEGRAM_BOT_TOKEN` is set: long polling by default, so it works from a laptop
 *   with no public URL; `TELEGRAM_MODE=webhook` (with `TELEGRAM_WEBHOOK_SECRET_TOKEN`) serves
 *   {@link TELEGRAM_PATH} instead. Several replicas may poll: one at a time holds the lease.
 * - Slack when `SLACK_BOT_TOKEN` is set; it also reads `SLACK_SIGNING_SECRET`. Set the Events
 *   API, interactivity and slash-command request URLs to `https://your-host{@link SLACK_PATH}`.
 * - Microsoft Teams when `TEAMS_APP_ID` is set; it also reads `TEAMS_APP_PASSWORD`,
 *   `TEAMS_APP_TENANT_ID` and `TEAMS_API_URL`. The Azure Bot's messaging endpoint is
 *   `https://your-host{@link TEAMS_PATH}`; the Teams SDK checks every activity's token.
 * A platform whose variables are set but wrong fails here, with a `ConfigError` naming them.
 */
export function platformsFromEnv(env: NodeJS.ProcessEnv, logger: Logger): ChosenPlatform[] {
  const platforms: ChosenPlatform[] = [];
  if (env.TWILIO_ACCOUNT_SID) {
    if (!env.TWILIO_WEBHOOK_URL) {
      logger.warn(
        `TWILIO_WEBHOOK_URL is not set: Twilio's webhooks to ${TWILIO_PATH} will be refused`,
      );
    }
    const adapter = createTwilioAdapter({ logger });
    const sender = env.TWILIO_MESSAGING_SERVICE_SID ?? env.TWILIO_PHONE_NUMBER ?? "(no sender)";
    platforms.push({ adapter, path: TWILIO_PATH, description: `Twilio from ${sender}` });
  }
  if (env.TELEGRAM_BOT_TOKEN) {
    const mode = (env.TELEGRAM_MODE ?? "polling") as TelegramAdapterMode;
    const allowed = env.TELEGRAM_ALLOWED_USER_IDS?.split(",").map((id) => id.trim());
    const adapter = createTelegramAdapter({
      logger,
      mode,
      botToken: env.TELEGRAM_BOT_TOKEN,
      ...(env.TELEGRAM_WEBHOOK_SECRET_TOKEN
        ? { secretToken: env.TELEGRAM_WEBHOOK_SECRET_TOKEN }
        : {}),
      ...(env.TELEGRAM_BOT_USERNAME ? { userName: env.TELEGRAM_BOT_USERNAME } : {}),
      ...(env.TELEGRAM_API_BASE_URL ? { apiUrl: env.TELEGRAM_API_BASE_URL } : {}),
      ...(allowed?.some((id) => id !== "")
        ? { allowedUserIds: allowed.filter((id) => id !== "") }
        : {}),
    });
    platforms.push({ adapter, path: TELEGRAM_PATH, description: `Telegram (${mode})` });
  }
  if (env.SLACK_BOT_TOKEN) {
    const adapter = createSlackAdapter({ logger });
    platforms.push({ adapter, path: SLACK_PATH, description: "Slack (Events API)" });
  }
  if (env.TEAMS_APP_ID) {
    const adapter = createTeamsAdapter({ logger });
    platforms.push({ adapter, path: TEAMS_PATH, description: `Teams (app ${env.TEAMS_APP_ID})` });
  }
  return platforms;
}
