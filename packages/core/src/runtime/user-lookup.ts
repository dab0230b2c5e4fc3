import { type Clock, sleep } from "../clock/index.js";
import type { Adapter } from "../contracts/adapter.js";
import { capabilitiesOf } from "../contracts/capabilities.js";
import type { Logger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import type { UserInfo } from "../contracts/thread-surface-types.js";
import { NotSupportedError } from "../errors/index.js";
import type { JsonValue } from "../model/json.js";
import { callAdapter } from "./adapter-call.js";
import { adapterForUserId, type UserRef, userIdOf } from "./user-adapter.js";

/** The State key prefix of cached users (see {@link userCacheKey}). */
export const USER_CACHE_KEY_PREFIX = "user:";

/** How long a looked-up user is kept when `userCacheTtlMs` is not given: 1 hour. */
export const DEFAULT_USER_CACHE_TTL_MS = 3_600_000;

/**
 * The longest a lookup in progress keeps other instances waiting. Past it (the looking-up
 * instance died, or the platform hangs) the next lookup may call the platform again.
 */
export const USER_LOOKUP_LEASE_MS = 30_000;

/** How often an instance waiting for another instance's lookup re-reads the State. */
export const USER_LOOKUP_POLL_MS = 50;

/** A cached answer, or the mark of a lookup in progress on some instance. */
type UserCacheEntry =
  | { status: "pending" }
  | { status: "found"; user: UserInfo }
  | { status: "missing" };

/** What a {@link UserLookup} works with; a `Chat` passes its own. */
export interface UserLookupOptions {
  adapters: Readonly<Record<string, Adapter>>;
  state: StateAdapter;
  clock: Clock;
  logger: Logger;
  /** How long an answer (a user, or "no such user") is cached. */
  ttlMs: number;
}

/**
 * `chat.getUser` behind a cache in the State, shared by every instance. At most one platform
 * call per user per `ttlMs`: concurrent lookups on one instance share one call, and across
 * instances the first to mark the user `pending` (with `setIfNotExists`, one atomic step) makes
 * the call while the others wait for its answer in the State. A failed call removes the mark
 * and rejects, so a later lookup retries; a mark whose instance died lapses after
 * {@link USER_LOOKUP_LEASE_MS}. The dispatch path never calls it, so no webhook waits for a
 * platform's user API.
 */
export class UserLookup {
  private readonly inFlight = new Map<string, Promise<UserInfo | null>>();

  constructor(private readonly options: UserLookupOptions) {}

  /**
   * The user `user` (an id or an author) on the one adapter that claims the id. Rejects with a
   * `ValidationError` when no adapter or several claim it, a `NotSupportedError` when that
   * adapter cannot look users up, an `AdapterError` when the platform call fails.
   */
  async getUser(user: UserRef): Promise<UserInfo | null> {
    const step = "get user";
    const userId = userIdOf(user, step);
    const adapter = adapterForUserId(this.options.adapters, userId, step);
    const fetchUser = adapter.getUser;
    if (!capabilitiesOf(adapter).getUser || typeof fetchUser !== "function") {
      throw new NotSupportedError(adapter.name, "getUser", { step });
    }
    const key = userCacheKey(adapter.name, userId, adapter.userCacheScope?.());
    const running = this.inFlight.get(key);
    if (running) return running;
    const call = () => fetchUser.call(adapter, userId);
    const lookup = this.lookup(adapter, call, userId, key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  private async lookup(
    adapter: Adapter,
    call: () => Promise<UserInfo | null>,
    userId: string,
    key: string,
  ): Promise<UserInfo | null> {
    const { state, clock, ttlMs } = this.options;
    const leaseMs = Math.min(ttlMs, USER_LOOKUP_LEASE_MS);
    for (;;) {
      const cached = (await state.get(key)) as UserCacheEntry | null;
      if (cached?.status === "found") return cached.user;
      if (cached?.status === "missing") return null;
      if (cached === null) {
        // The one atomic step that decides which instance calls the platform.
        if (await state.setIfNotExists(key, { status: "pending" }, leaseMs)) {
          return this.fetch(adapter, call, userId, key);
        }
        continue;
      }
      await sleep(clock, USER_LOOKUP_POLL_MS);
    }
  }

  private async fetch(
    adapter: Adapter,
    call: () => Promise<UserInfo | null>,
    userId: string,
    key: string,
  ): Promise<UserInfo | null> {
    const { state, ttlMs, logger } = this.options;
    let user: UserInfo | null;
    try {
      user = await callAdapter(adapter, `get user ${userId}`, call, logger);
    } catch (error) {
      await state.delete(key).catch(() => undefined);
      throw error;
    }
    const entry: UserCacheEntry = user
      ? { status: "found", user: { ...user } }
      : { status: "missing" };
    await state.set(key, entry as unknown as JsonValue, ttlMs);
    return user ?? null;
  }
}

/**
 * The State key of a cached user: `user:{adapter}:{userId}`, or `user:{adapter}:{scope}:{userId}`
 * under an adapter's `userCacheScope` (both parts URI-encoded, so the two shapes never meet).
 */
export function userCacheKey(adapterName: string, userId: string, scope?: string): string {
  const id = encodeURIComponent(userId);
  return scope === undefined
    ? `${USER_CACHE_KEY_PREFIX}${adapterName}:${id}`
    : `${USER_CACHE_KEY_PREFIX}${adapterName}:${encodeURIComponent(scope)}:${id}`;
}
