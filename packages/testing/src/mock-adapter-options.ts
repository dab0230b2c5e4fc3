import {
  type AdapterCapabilities,
  type Clock,
  ConfigError,
  isBatonError,
  type LockScope,
  systemClock,
  type WebhookOptions,
} from "@baton/core";
import { resolveMockCapabilities } from "./mock-capabilities.js";
import { MOCK_DEFAULT_USER_IDS } from "./mock-users.js";

/** Options of {@link createMockAdapter}. */
export interface MockAdapterOptions {
  /** The bot's handle. Default `"bot"`. */
  userName?: string;
  /** The bot's user id; messages from it are `isMe`. Default `"U_BOT"`. */
  botUserId?: string;
  /** The adapter's natural lock scope. Default: none (the runtime then uses `thread`). */
  lockScope?: LockScope;
  /** Stamps `at` of each call and the default `dateSent` of parsed messages. Default: system. */
  clock?: Pick<Clock, "now">;
  /** The page size of `fetchMessages` when the caller gives no `limit`. Default 50. */
  defaultPageSize?: number;
  /**
   * Features to switch off (or on) to stand in for a smaller platform, e.g.
   * `{ streaming: "edit", cards: false, ephemeral: false }`. Default: every feature, with native
   * streaming (`MOCK_DEFAULT_CAPABILITIES`).
   */
  capabilities?: Partial<AdapterCapabilities>;
  /**
   * The user ids this adapter claims as its own (`matchesUserId`), so `chat.getUser(id)` and
   * `chat.openDM(id)` pick it. Default `/^U[A-Z0-9_]+$/` (Slack-like ids such as `U123`);
   * give e.g. `/^\d+$/` to stand in for Telegram.
   */
  userIds?: RegExp;
}

/** Extra options of {@link MockAdapter.deliver}. */
export interface MockDeliverOptions extends WebhookOptions {
  /** The installation the delivery belongs to. */
  tenantId?: string;
}

/** A message the mock adapter posted: by `postMessage`, or by a `stream` that ended. */
export interface MockPost {
  readonly threadId: string;
  /** The string, the markdown or the raw text posted; for a stream, its chunks joined. */
  readonly text: string;
  readonly via: "postMessage" | "stream";
}

/** The options with defaults applied. */
export interface ResolvedMockAdapterOptions {
  userName: string;
  botUserId: string;
  lockScope: LockScope | undefined;
  clock: Pick<Clock, "now">;
  pageSize: number;
  capabilities: AdapterCapabilities;
  userIds: RegExp;
}

/** Applies the defaults; throws one `ConfigError` listing every bad option. */
export function resolveMockAdapterOptions(
  name: string,
  options: MockAdapterOptions,
): ResolvedMockAdapterOptions {
  const problems: string[] = [];
  if (typeof name !== "string" || name === "" || name.includes(":")) {
    problems.push(`name must be a non-empty string without ":"`);
  }
  const userName = options.userName ?? "bot";
  if (typeof userName !== "string" || userName === "") problems.push("userName must not be empty");
  const botUserId = options.botUserId ?? "U_BOT";
  if (typeof botUserId !== "string" || botUserId === "") {
    problems.push("botUserId must not be empty");
  }
  const lockScope = options.lockScope;
  if (lockScope !== undefined && lockScope !== "thread" && lockScope !== "channel") {
    problems.push(`lockScope must be "thread" or "channel", got ${JSON.stringify(lockScope)}`);
  }
  const pageSize = options.defaultPageSize ?? 50;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    problems.push("defaultPageSize must be a positive integer");
  }
  let capabilities: AdapterCapabilities = resolveMockCapabilities(undefined);
  try {
    capabilities = resolveMockCapabilities(options.capabilities);
  } catch (error) {
    if (!isBatonError(error)) throw error;
    problems.push(error.message.replace(/^[^:]*: /, ""));
  }
  const userIds = options.userIds ?? MOCK_DEFAULT_USER_IDS;
  if (!(userIds instanceof RegExp)) problems.push("userIds must be a RegExp");
  if (problems.length > 0) throw new ConfigError(problems, { step: "create mock adapter" });
  const clock = options.clock ?? systemClock;
  return { userName, botUserId, lockScope, clock, pageSize, capabilities, userIds };
}
