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
import type { WebClientOptions } from "@slack/web-api";
import {
  type ResolvedSlackAssistantOptions,
  resolveSlackAssistantOptions,
  type SlackAssistantConfig,
} from "./assistant-options.js";
import { checkBotTokenSource, type SlackBotToken } from "./bot-token.js";
import { decodeKey } from "./crypto.js";
import {
  DEFAULT_INSTALLATION_KEY_PREFIX,
  type SlackInstallationProvider,
} from "./installations.js";

/** How the adapter receives Slack's events. */
export type SlackMode = "webhook" | "socket";

/** Retry settings handed to `@slack/web-api`'s `WebClient` (its `retryConfig`). */
export interface SlackRetryConfig {
  /** How often a failed call is tried again. WebClient's default: 10. */
  readonly retries: number;
  /** The first retry's delay. */
  readonly minTimeout?: number;
  /** The largest delay between two tries. */
  readonly maxTimeout?: number;
  readonly factor?: number;
}

/**
 * What `createSlackAdapter` takes: upstream `@chat-adapter/slack` 4.41's field names, so a
 * `chat` user changes imports only. Fields fall back to `SLACK_*` environment variables.
 */
export interface SlackAdapterConfig extends SlackAssistantConfig {
  /**
   * The bot token (`xoxb-…`) every Web API call uses, or a function returning it, called at each
   * use (a rotated token is picked up; it must not be async). Default: `SLACK_BOT_TOKEN`, read
   * only when the config names no other auth field (`signingSecret`, `clientId`, …).
   */
  botToken?: SlackBotToken;
  /**
   * The app's signing secret: every webhook is checked against it before it is read. Required
   * in webhook mode. Default: `SLACK_SIGNING_SECRET`.
   */
  signingSecret?: string;
  /** The bot's user id (`U…`); without it `initialize` asks Slack (`auth.test`). */
  botUserId?: string;
  /**
   * Base URL of Slack's Web API (WebClient's `slackApiUrl`): the offline fake of
   * `@baton/adapter-slack/testing` or a proxy. Default: `SLACK_API_URL`, else Slack's own.
   */
  apiUrl?: string;
  /** The app-level token (`xapp-…`) socket mode connects with. Default: `SLACK_APP_TOKEN`. */
  appToken?: string;
  /**
   * `webhook` (the default): Events API over HTTP. `socket`: Socket Mode, a WebSocket opened with
   * `appToken` at `initialize` (no public URL needed; the signing secret is then optional).
   */
  mode?: SlackMode;
  /**
   * OAuth client id, for multi-workspace installs: without `botToken`, the adapter then takes
   * each delivery's token from its workspace's installation (see `handleOAuthCallback`).
   */
  clientId?: string;
  /** OAuth client secret; given together with `clientId`. */
  clientSecret?: string;
  /**
   * Key that encrypts stored installation tokens (AES-256-GCM): 32 bytes as base64 or 64 hex
   * digits. Without it tokens are stored as they are.
   */
  encryptionKey?: string;
  /** State key prefix of installations: `{prefix}:{teamId}`. Default `"slack:installation"`. */
  installationKeyPrefix?: string;
  /**
   * Installations kept outside the State. Setting it turns multi-workspace mode on (without
   * `botToken`) and the State is then never read for tokens.
   */
  installationProvider?: SlackInstallationProvider;
  /** Receives the adapter's log lines. Default: the Chat's logger after `initialize`. */
  logger?: Logger;
  /** The bot's name in messages it sends (`author.userName`). Default: `"bot"`. */
  userName?: string;
  /** WebClient's retry settings. Default: WebClient's own (10 retries, backing off). */
  retryConfig?: SlackRetryConfig;
  /**
   * Further options of every `@slack/web-api` `WebClient` the adapter makes — the configured
   * token's and each workspace's (e.g. `timeout`, `headers`, `agent`). `apiUrl` and
   * `retryConfig` win over the same settings here when they are set; a `logger` here takes
   * WebClient's own log lines instead of the adapter's logger; each client gets its own copy of
   * `headers`.
   */
  webClientOptions?: WebClientOptions;
  /**
   * How long a modal submit or an options load waits for the handlers before the webhook
   * answers without them: Slack gives up after 3 s. Default 2 500 ms.
   */
  interactionDeadlineMs?: number;
  /** Largest webhook body accepted; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Source of time for the request timestamp check. Default: the system clock. */
  clock?: Clock;
}

/** The options with every default applied and every value checked. */
export interface ResolvedSlackOptions {
  readonly botToken: SlackBotToken | undefined;
  readonly signingSecret: string | undefined;
  readonly botUserId: string | undefined;
  readonly apiUrl: string | undefined;
  readonly appToken: string | undefined;
  readonly mode: SlackMode;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly encryptionKey: string | undefined;
  /** `encryptionKey`, decoded. */
  readonly encryptionKeyBytes: Buffer | undefined;
  readonly installationKeyPrefix: string;
  readonly installationProvider: SlackInstallationProvider | undefined;
  /**
   * A webhook app with no `botToken` whose config names an auth field (`signingSecret`,
   * `clientId`, `installationProvider`, …): tokens come per workspace from its installations.
   */
  readonly multiWorkspace: boolean;
  readonly logger: Logger | undefined;
  readonly userName: string;
  readonly retryConfig: SlackRetryConfig | undefined;
  readonly webClientOptions: WebClientOptions | undefined;
  readonly interactionDeadlineMs: number;
  readonly maxBodyBytes: number;
  readonly clock: Clock;
  /** Agent view, suggested prompts, loading messages, native streaming and feedback buttons. */
  readonly assistant: ResolvedSlackAssistantOptions;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

function checkPrefix(problems: string[], field: string, value: string | undefined, prefix: string) {
  if (value !== undefined && !value.startsWith(prefix)) {
    problems.push(`${field} must start with "${prefix}"`);
  }
}

function decodedKey(problems: string[], key: string | undefined): Buffer | undefined {
  if (key === undefined) return undefined;
  try {
    return decodeKey(key);
  } catch {
    problems.push("encryptionKey must be 32 bytes: base64 or 64 hex digits");
    return undefined;
  }
}

/**
 * Applies defaults and `SLACK_*` fallbacks and checks every value; throws one `ConfigError`
 * naming every bad field. A signing secret is required in webhook mode (upstream's rule: an
 * unverifiable webhook is never read), an app token in socket mode. A missing bot token is not
 * an error here: a bot may be built before its secrets load; the first call that needs it says so.
 */
/**
 * The config fields that say how the app authenticates. With any of them given, `botToken` is
 * not read from `SLACK_BOT_TOKEN`, and a webhook app without `botToken` is multi-workspace
 * (upstream's rule).
 */
const AUTH_FIELDS = [
  "botToken",
  "signingSecret",
  "clientId",
  "clientSecret",
  "encryptionKey",
  "installationProvider",
] as const satisfies readonly (keyof SlackAdapterConfig)[];

export function resolveSlackOptions(
  config: SlackAdapterConfig = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedSlackOptions {
  const problems: string[] = [];
  const mode = config.mode ?? "webhook";
  if (mode !== "webhook" && mode !== "socket") {
    problems.push(`mode must be "webhook" or "socket", got ${JSON.stringify(mode)}`);
  }
  const signingSecret = configOrEnv(config.signingSecret, env.SLACK_SIGNING_SECRET);
  const appToken = configOrEnv(config.appToken, env.SLACK_APP_TOKEN);
  if (mode === "webhook" && signingSecret === undefined) {
    problems.push("signingSecret is required (or set SLACK_SIGNING_SECRET)");
  }
  if (mode === "socket" && appToken === undefined) {
    problems.push('appToken is required when mode is "socket" (or set SLACK_APP_TOKEN)');
  }
  checkPrefix(problems, "appToken", appToken, "xapp-");
  checkBotTokenSource(problems, config.botToken);
  const given: unknown = config.botToken;
  // Any auth field in the config means the app chose how it authenticates: a SLACK_BOT_TOKEN
  // left in the environment must not turn a multi-workspace app into a one-token app.
  const authGiven = AUTH_FIELDS.some((field) => config[field] !== undefined);
  const botToken: SlackBotToken | undefined =
    typeof given === "function"
      ? (given as () => string)
      : given === undefined || typeof given === "string"
        ? configOrEnv(given, authGiven ? undefined : env.SLACK_BOT_TOKEN)
        : undefined;
  if (typeof botToken === "string") checkPrefix(problems, "botToken", botToken, "xox");
  const botUserId = configOrEnv(config.botUserId, undefined);
  if (botUserId !== undefined && !/^[UWB][A-Z0-9_]+$/.test(botUserId)) {
    problems.push(`botUserId must be a Slack user id (U…), got ${JSON.stringify(botUserId)}`);
  }
  const apiUrl = configOrEnv(config.apiUrl, env.SLACK_API_URL);
  checkHttpUrl(problems, "apiUrl", apiUrl);
  if (mode === "socket" && (config.clientId !== undefined || config.clientSecret !== undefined)) {
    // One socket connection serves one app install; multi-workspace installs need the webhook.
    problems.push(
      'clientId and clientSecret (multi-workspace installs) cannot be used with mode "socket"',
    );
  }
  if ((config.clientId === undefined) !== (config.clientSecret === undefined)) {
    problems.push("clientId and clientSecret must be given together");
  }
  const encryptionKeyBytes = decodedKey(problems, config.encryptionKey);
  const installationKeyPrefix = config.installationKeyPrefix ?? DEFAULT_INSTALLATION_KEY_PREFIX;
  if (typeof installationKeyPrefix !== "string" || installationKeyPrefix.trim() === "") {
    problems.push("installationKeyPrefix must not be empty");
  }
  const provider = config.installationProvider;
  if (provider !== undefined && typeof provider?.getInstallation !== "function") {
    problems.push("installationProvider must have a getInstallation(installationId) method");
  }
  if (provider !== undefined && mode === "socket") {
    problems.push(
      'installationProvider (multi-workspace installs) cannot be used with mode "socket"',
    );
  }
  if (config.logger !== undefined && !isLogger(config.logger)) {
    problems.push("logger must have debug, info, warn and error methods");
  }
  const userName = config.userName ?? "bot";
  if (typeof userName !== "string" || userName === "") problems.push("userName must not be empty");
  const deadline = config.interactionDeadlineMs ?? 2_500;
  if (!Number.isInteger(deadline) || deadline < 1 || deadline > 3_000) {
    problems.push("interactionDeadlineMs must be an integer from 1 to 3000 (Slack waits 3 s)");
  }
  const maxBodyBytes = config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  checkInteger(problems, "maxBodyBytes", maxBodyBytes, 1);
  const retries = config.retryConfig?.retries;
  if (retries !== undefined) checkInteger(problems, "retryConfig.retries", retries, 0);
  const extra: unknown = config.webClientOptions;
  if (
    extra !== undefined &&
    (typeof extra !== "object" || extra === null || Array.isArray(extra))
  ) {
    problems.push("webClientOptions must be an object of @slack/web-api WebClient options");
  }
  const assistant = resolveSlackAssistantOptions(config, problems);
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `slack adapter: ${p}`));
  return {
    botToken,
    signingSecret,
    botUserId,
    apiUrl,
    appToken,
    mode,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    encryptionKey: config.encryptionKey,
    encryptionKeyBytes,
    installationKeyPrefix,
    installationProvider: provider,
    multiWorkspace: mode === "webhook" && botToken === undefined && authGiven,
    logger: config.logger,
    userName,
    retryConfig: config.retryConfig,
    webClientOptions: config.webClientOptions,
    interactionDeadlineMs: deadline,
    maxBodyBytes,
    clock: config.clock ?? systemClock,
    assistant,
  };
}
