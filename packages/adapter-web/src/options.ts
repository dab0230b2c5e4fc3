import { type Clock, ConfigError, type LockScope, systemClock } from "@baton/core";
import { WEB_ID_PATTERN } from "./thread-id.js";

/** Who sent a request, as the host application knows it (from its session cookie, a header…). */
export interface WebIdentity {
  /** Stable id of the user; becomes part of thread ids, so 1–64 of `[A-Za-z0-9_.-]`. */
  userId: string;
  /** The name shown next to the user's messages. */
  userName: string;
}

/** Options of {@link createWebAdapter}. */
export interface WebAdapterOptions {
  /**
   * Tells who sent `request`, or `null` when nobody is signed in (the request is answered 401).
   * The adapter trusts the answer: this is where the host checks its cookie or token. A user
   * whose `userId` equals {@link botUserId} is the bot itself, and their messages are ignored.
   */
  identify(request: Request): WebIdentity | null | Promise<WebIdentity | null>;
  /** The adapter's key in `new Chat({ adapters })` and the prefix of its thread ids. Default `"web"`. */
  name?: string;
  /** The bot's handle; `@{userName}` in a message is a mention. Default `"bot"`. */
  userName?: string;
  /** The bot's user id, the author id of its posts. Default `"bot"`. */
  botUserId?: string;
  /** The platform's natural lock scope. Default: none (the runtime then uses `thread`). */
  lockScope?: LockScope;
  /** The largest request body accepted, in bytes; larger ones get 413. Default 16 384. */
  maxBodyBytes?: number;
  /** The longest message text accepted, in characters; longer ones get 413. Default 4 000. */
  maxTextLength?: number;
  /** Messages kept per thread for `fetchMessages` and for pages that (re)connect. Default 100. */
  historyLimit?: number;
  /** Threads kept in memory; the least recently active one is forgotten first. Default 1 000. */
  maxThreads?: number;
  /** How often an idle event stream sends a comment so proxies keep it open. Default 15 000. */
  heartbeatMs?: number;
  /** The reconnect delay the browser is told to use after a stream ends. Default 1 000. */
  reconnectDelayMs?: number;
  /** The least time between two edits while `stream()` is producing a reply. Default 250. */
  streamEditIntervalMs?: number;
  /** The time source of `dateSent` and stream throttling. Default: the system clock. */
  clock?: Clock;
}

/** {@link WebAdapterOptions} with every default applied. */
export type ResolvedWebAdapterOptions = Required<Omit<WebAdapterOptions, "lockScope">> & {
  lockScope: LockScope | undefined;
};

/** Applies the defaults; throws one `ConfigError` listing every bad option. */
export function resolveWebAdapterOptions(options: WebAdapterOptions): ResolvedWebAdapterOptions {
  const problems: string[] = [];
  if (typeof options?.identify !== "function") {
    problems.push("identify must be a function (request) => { userId, userName } | null");
  }
  const resolved: ResolvedWebAdapterOptions = {
    identify: options?.identify,
    name: options?.name ?? "web",
    userName: options?.userName ?? "bot",
    botUserId: options?.botUserId ?? "bot",
    lockScope: options?.lockScope,
    maxBodyBytes: options?.maxBodyBytes ?? 16_384,
    maxTextLength: options?.maxTextLength ?? 4_000,
    historyLimit: options?.historyLimit ?? 100,
    maxThreads: options?.maxThreads ?? 1_000,
    heartbeatMs: options?.heartbeatMs ?? 15_000,
    reconnectDelayMs: options?.reconnectDelayMs ?? 1_000,
    streamEditIntervalMs: options?.streamEditIntervalMs ?? 250,
    clock: options?.clock ?? systemClock,
  };
  if (!WEB_ID_PATTERN.test(resolved.name)) {
    problems.push(`name must be 1–64 of [A-Za-z0-9_.-], got ${JSON.stringify(resolved.name)}`);
  }
  if (typeof resolved.userName !== "string" || resolved.userName === "") {
    problems.push("userName must be a non-empty string");
  }
  if (!WEB_ID_PATTERN.test(resolved.botUserId)) {
    problems.push(
      `botUserId must be 1–64 of [A-Za-z0-9_.-], got ${JSON.stringify(resolved.botUserId)}`,
    );
  }
  if (resolved.lockScope !== undefined && !["thread", "channel"].includes(resolved.lockScope)) {
    problems.push(
      `lockScope must be "thread" or "channel", got ${JSON.stringify(resolved.lockScope)}`,
    );
  }
  const positive = [
    "maxBodyBytes",
    "maxTextLength",
    "historyLimit",
    "maxThreads",
    "heartbeatMs",
    "reconnectDelayMs",
  ] as const;
  for (const key of positive) {
    const value = resolved[key];
    if (!Number.isInteger(value) || value < 1) {
      problems.push(`${key} must be a positive integer, got ${JSON.stringify(value)}`);
    }
  }
  const interval = resolved.streamEditIntervalMs;
  if (!Number.isFinite(interval) || interval < 0) {
    problems.push(`streamEditIntervalMs must be a number ≥ 0, got ${JSON.stringify(interval)}`);
  }
  if (problems.length > 0) throw new ConfigError(problems.map((p) => `web adapter: ${p}`));
  return resolved;
}
