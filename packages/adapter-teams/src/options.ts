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
import type { CloudEnvironment } from "@microsoft/teams.api";

/** Certificate credentials (upstream's shape). The Teams SDK 2.0 cannot use them yet. */
export interface TeamsAuthCertificate {
  /** PEM-encoded private key of the certificate. */
  certificatePrivateKey: string;
  /** Hex thumbprint of the certificate. */
  certificateThumbprint?: string;
  /** The public certificate, for subject-name validation. */
  x5c?: string;
}

/** Federated (workload identity) credentials: the bot's managed identity. */
export interface TeamsAuthFederated {
  /** Client id of the managed identity assigned to the bot. */
  clientId: string;
  /** Audience of the federated credential; the Teams SDK ignores it (a warning is logged). */
  clientAudience?: string;
}

/** A token factory for outbound calls, the Teams SDK's `token` credential. */
export type TeamsTokenFactory = (
  scope: string | string[],
  tenantId?: string,
) => string | Promise<string>;

/**
 * What `createTeamsAdapter` takes: upstream `@chat-adapter/teams` 4.41's field names, with the
 * `TEAMS_*` environment fallbacks, plus `cloud` (where the SDK looks up token-signing keys and
 * mints outbound tokens — the offline fake points it at itself).
 */
export interface TeamsAdapterConfig {
  /** The bot's Microsoft App ID. Default: `TEAMS_APP_ID`. Required. */
  appId?: string;
  /** The app's client secret. Default: `TEAMS_APP_PASSWORD` (ignored with `token`/`federated`). */
  appPassword?: string;
  /** The app's tenant (single-tenant apps). Default: `TEAMS_APP_TENANT_ID`. */
  appTenantId?: string;
  /** `MultiTenant` drops the tenant; `SingleTenant` (default when a tenant is known) keeps it. */
  appType?: "MultiTenant" | "SingleTenant";
  /** Certificate auth: not supported by the Teams SDK 2.0; giving it is a `ConfigError`. */
  certificate?: TeamsAuthCertificate;
  /** Workload identity: maps to the SDK's `managedIdentityClientId`. */
  federated?: TeamsAuthFederated;
  /** A custom token factory for outbound calls (the SDK's `token`); wins over `appPassword`. */
  token?: TeamsTokenFactory;
  /**
   * Overrides every conversation's service URL for outbound calls (GCC-High, a proxy, or the
   * offline fake). Default: `TEAMS_API_URL`, else the service URL each activity carries.
   */
  apiUrl?: string;
  /** The Azure cloud (Teams SDK `CloudEnvironment`). Default: the public cloud. */
  cloud?: CloudEnvironment;
  /** The bot's name in messages it sends. Default `"bot"`. */
  userName?: string;
  /** Receives the adapter's log lines. Default: the Chat's logger after `initialize`. */
  logger?: Logger;
  /** How long a modal button's handler has to call `openModal`. Default 5 000 ms (upstream's). */
  dialogOpenTimeoutMs?: number;
  /** How often a call refused with 429 or 5xx is tried again. Default 3. */
  maxRetries?: number;
  /** The first retry's delay when Teams sends no Retry-After; doubles each time. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Largest webhook body accepted; a larger one is answered 413. Default 256 KiB. */
  maxBodyBytes?: number;
  /**
   * How long a file offered in a personal chat (a file consent card) waits in the State for the
   * user to accept it. Default 24 hours.
   */
  fileConsentTtlMs?: number;
  /**
   * Largest file offered through a file consent card: its bytes wait in the State, and OneDrive
   * takes at most 60 MiB in one upload. Default 10 MiB; at most 60 MiB − 1.
   */
  fileConsentMaxBytes?: number;
  /** Source of time (retry delays, received times). Default: the system clock. */
  clock?: Clock;
}

/** The options with every default applied and every value checked. */
export interface ResolvedTeamsOptions {
  readonly appId: string;
  readonly appPassword: string | undefined;
  readonly appTenantId: string | undefined;
  readonly appType: "MultiTenant" | "SingleTenant";
  readonly managedIdentityClientId: string | undefined;
  readonly token: TeamsTokenFactory | undefined;
  readonly apiUrl: string | undefined;
  readonly cloud: CloudEnvironment | undefined;
  readonly userName: string;
  readonly logger: Logger | undefined;
  readonly dialogOpenTimeoutMs: number;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  readonly maxBodyBytes: number;
  readonly fileConsentTtlMs: number;
  readonly fileConsentMaxBytes: number;
  readonly clock: Clock;
}

const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
const DEFAULT_FILE_CONSENT_TTL_MS = 24 * 60 * 60 * 1000;
const DEFAULT_FILE_CONSENT_MAX_BYTES = 10 * 1024 * 1024;
/** OneDrive upload sessions take less than 60 MiB per request; the adapter sends one. */
const ONEDRIVE_MAX_REQUEST_BYTES = 60 * 1024 * 1024 - 1;

/**
 * Applies defaults and `TEAMS_*` fallbacks and checks every value; throws one `ConfigError`
 * naming every bad field. `appId` is required: without it no inbound token can be checked
 * (its audience is the app id), so a bot without one would refuse every activity.
 */
export function resolveTeamsOptions(
  config: TeamsAdapterConfig = {},
  env: Record<string, string | undefined> = process.env,
): ResolvedTeamsOptions {
  const problems: string[] = [];
  const appId = configOrEnv(config.appId, env.TEAMS_APP_ID);
  if (appId === undefined) problems.push("appId is required (or set TEAMS_APP_ID)");
  if (config.certificate !== undefined) {
    problems.push(
      "certificate: certificate auth is not supported by the Teams SDK 2.0; use appPassword, " +
        "federated or token",
    );
  }
  const appType = config.appType ?? "SingleTenant";
  if (appType !== "MultiTenant" && appType !== "SingleTenant") {
    problems.push(`appType must be "MultiTenant" or "SingleTenant", got ${String(appType)}`);
  }
  if (config.token !== undefined && typeof config.token !== "function") {
    problems.push("token must be a function (scope, tenantId) => string | Promise<string>");
  }
  const federatedId = config.federated?.clientId;
  if (config.federated !== undefined && (typeof federatedId !== "string" || federatedId === "")) {
    problems.push("federated.clientId must be a non-empty string");
  }
  // A token factory or a managed identity replaces the secret, as upstream (and the SDK) do.
  const secretless = config.token !== undefined || config.federated !== undefined;
  const appPassword = secretless
    ? undefined
    : configOrEnv(config.appPassword, env.TEAMS_APP_PASSWORD);
  const appTenantId =
    appType === "MultiTenant"
      ? undefined
      : configOrEnv(config.appTenantId, env.TEAMS_APP_TENANT_ID);
  const apiUrl = configOrEnv(config.apiUrl, env.TEAMS_API_URL)?.replace(/\/+$/, "");
  checkHttpUrl(problems, "apiUrl", apiUrl);
  const maxRetries = config.maxRetries ?? 3;
  const retryBaseDelayMs = config.retryBaseDelayMs ?? 500;
  const maxBodyBytes = config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dialogOpenTimeoutMs = config.dialogOpenTimeoutMs ?? 5_000;
  checkInteger(problems, "dialogOpenTimeoutMs", dialogOpenTimeoutMs, 1);
  checkInteger(problems, "maxRetries", maxRetries, 0);
  checkInteger(problems, "retryBaseDelayMs", retryBaseDelayMs, 1);
  checkInteger(problems, "maxBodyBytes", maxBodyBytes, 1);
  const fileConsentTtlMs = config.fileConsentTtlMs ?? DEFAULT_FILE_CONSENT_TTL_MS;
  const fileConsentMaxBytes = config.fileConsentMaxBytes ?? DEFAULT_FILE_CONSENT_MAX_BYTES;
  checkInteger(problems, "fileConsentTtlMs", fileConsentTtlMs, 1);
  checkInteger(problems, "fileConsentMaxBytes", fileConsentMaxBytes, 1, ONEDRIVE_MAX_REQUEST_BYTES);
  if (config.logger !== undefined && !isLogger(config.logger)) {
    problems.push("logger must have debug, info, warn and error methods");
  }
  const userName = config.userName ?? "bot";
  if (typeof userName !== "string" || userName === "") problems.push("userName must not be empty");
  if (problems.length > 0 || appId === undefined) {
    throw new ConfigError(problems.map((p) => `teams adapter: ${p}`));
  }
  return {
    appId,
    appPassword,
    appTenantId,
    appType,
    managedIdentityClientId: federatedId,
    token: config.token,
    apiUrl,
    cloud: config.cloud,
    userName,
    logger: config.logger,
    dialogOpenTimeoutMs,
    maxRetries,
    retryBaseDelayMs,
    maxBodyBytes,
    fileConsentTtlMs,
    fileConsentMaxBytes,
    clock: config.clock ?? systemClock,
  };
}
