import type {
  AdapterPostableMessage,
  ChatHost,
  Clock,
  Logger,
  StateAdapter,
  UserInfo,
} from "@baton/core";
import type { SlackApi } from "./api.js";
import { fetchSlackChannelInfo } from "./channels.js";
import { type SlackNameSnapshot, slackMentionIds } from "./inbound-mentions.js";
import { MemoryTtlCache } from "./memory-ttl-cache.js";
import { bareMentionNames, replaceBareMentions } from "./mention-scan.js";
import { isRawSlackUserId, SlackNameIndex } from "./name-index.js";
import { fetchSlackUserRecord, type SlackUserRecord, slackUserOf } from "./slack-user.js";

/** How long a user or channel name this instance looked up is fresh: one hour. */
export const NAME_CACHE_TTL_MS = 60 * 60 * 1_000;
/**
 * How long past that an inbound message may still read the name while the look-up after its
 * answer refreshes it: one more hour. Without it, an active user's message would read as the bare
 * id once an hour, each time the entry lapsed.
 */
export const NAME_STALE_GRACE_MS = NAME_CACHE_TTL_MS;
/** The most users this instance keeps names of. */
const MAX_CACHED_USERS = 10_000;
/** The most channels this instance keeps names of. */
const MAX_CACHED_CHANNELS = 2_000;

/** What {@link SlackUserNames} works with; the adapter passes its own. */
export interface SlackUserNamesOptions {
  readonly api: SlackApi;
  readonly clock: Clock;
  logger(): Logger;
  /** The Chat, once `initialize` ran: its State holds the index, its `getUser` the shared cache. */
  host(): ChatHost | undefined;
  /** The workspace of the work in progress (the delivery's, else the bot token's). */
  team(): string;
  /**
   * The installation of the work in progress, when the adapter serves several: this instance's
   * names are kept per installation, as the Chat's user cache is. Undefined: one cache.
   */
  scope(): string | undefined;
}

/** The Chat's cached `getUser`, when the host is a Chat (ChatHost does not promise it). */
type UserLookupHost = ChatHost & { getUser?: (userId: string) => Promise<UserInfo | null> };

/** What one inbound message teaches the adapter, after the webhook answered. */
export interface SlackMessageSighting {
  readonly threadId: string;
  /** The author's user id, when a user (not an integration) wrote it. */
  readonly userId: string | undefined;
  /** The message's mrkdwn text. */
  readonly text: string;
  /** The bot's own ids: never looked up, never a participant. */
  readonly selfIds: ReadonlySet<string>;
}

/**
 * Slack user-name resolution. Inbound, `<@U…>` and `<#C…>` read as names from this instance's
 * cache only (a synchronous {@link snapshot}: the webhook path asks Slack nothing before it
 * answers); what the cache lacks is looked up after the answer ({@link learn}), through the
 * Chat's `getUser` — cached in the State for every instance, one `users.info` per user per TTL —
 * so the next message reads the names. Outbound, a bare `@name` becomes `<@U…>` when the reverse
 * name index (filled from every user looked up) names one user, or one thread participant.
 */
export class SlackUserNames {
  private readonly users: MemoryTtlCache<UserInfo | null>;
  private readonly channels: MemoryTtlCache<string | null>;
  private readonly pendingUsers = new Map<string, Promise<UserInfo | null>>();
  private readonly pendingChannels = new Map<string, Promise<string | null>>();

  constructor(private readonly options: SlackUserNamesOptions) {
    const cache = { ttlMs: NAME_CACHE_TTL_MS, staleGraceMs: NAME_STALE_GRACE_MS };
    this.users = new MemoryTtlCache(options.clock, { ...cache, maxEntries: MAX_CACHED_USERS });
    this.channels = new MemoryTtlCache(options.clock, {
      ...cache,
      maxEntries: MAX_CACHED_CHANNELS,
    });
  }

  /**
   * The cached names, read without I/O: fresh ones, and lapsed ones within their grace period
   * (the look-up after the answer refreshes those, as {@link lookupUser} reads only fresh ones).
   */
  snapshot(): SlackNameSnapshot {
    const scope = this.options.scope();
    return {
      user: (userId) => this.users.getAllowingStale(scoped(scope, userId)) ?? undefined,
      channelName: (channelId) =>
        this.channels.getAllowingStale(scoped(scope, channelId)) ?? undefined,
    };
  }

  /**
   * `users.info` for the adapter's `getUser`: the answer is cached on this instance and indexed
   * by name for outbound mentions. `null` for an unknown user or a failed call (logged).
   */
  async fetchUser(userId: string): Promise<UserInfo | null> {
    const record = await fetchSlackUserRecord(this.options.api, this.options.logger(), userId);
    if (record === null) return null;
    this.users.set(this.keyOf(userId), record.info);
    await this.index(record);
    return record.info;
  }

  /**
   * The user, from this instance's cache, else the Chat's `getUser` (the State's cache, then
   * Slack), else `users.info` directly when the Chat cannot say. Concurrent calls for one user
   * share one lookup. Never rejects: a failure is logged and reads as `null`.
   */
  lookupUser(userId: string): Promise<UserInfo | null> {
    const key = this.keyOf(userId);
    const cached = this.users.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const running = this.pendingUsers.get(key);
    if (running !== undefined) return running;
    const lookup = this.lookupUncached(userId, key).finally(() => this.pendingUsers.delete(key));
    this.pendingUsers.set(key, lookup);
    return lookup;
  }

  private async lookupUncached(userId: string, key: string): Promise<UserInfo | null> {
    const host = this.options.host() as UserLookupHost | undefined;
    let user: UserInfo | null;
    try {
      user =
        typeof host?.getUser === "function"
          ? await host.getUser(userId)
          : await this.fetchUser(userId);
    } catch (error) {
      // Several adapters claiming the id, or the platform failing: ask Slack ourselves.
      this.options.logger().debug("slack: chat.getUser failed, asking users.info", { error });
      user = await this.fetchUser(userId);
    }
    this.users.set(key, user);
    return user;
  }

  /** The channel's name (`conversations.info`, cached like users); `null` when Slack won't say. */
  lookupChannel(channelId: string): Promise<string | null> {
    const key = this.keyOf(channelId);
    const cached = this.channels.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const running = this.pendingChannels.get(key);
    if (running !== undefined) return running;
    const lookup = fetchSlackChannelInfo(this.options.api, channelId)
      .then((info) => info.name ?? null)
      .catch((error: unknown) => {
        this.options.logger().debug("slack: conversations.info failed", { error, channelId });
        return null;
      })
      .then((name) => {
        this.channels.set(key, name);
        return name;
      })
      .finally(() => this.pendingChannels.delete(key));
    this.pendingChannels.set(key, lookup);
    return lookup;
  }

  /**
   * After the webhook answered: records the author as a participant of the thread and looks up
   * the author and every mentioned user and channel the cache lacks. Never rejects.
   */
  async learn(sighting: SlackMessageSighting): Promise<void> {
    const { users, channels } = slackMentionIds(sighting.text);
    const author = sighting.userId;
    const work: Promise<unknown>[] = [];
    if (author !== undefined && !sighting.selfIds.has(author)) {
      const state = this.state();
      if (state !== undefined) {
        work.push(new SlackNameIndex(state).addParticipant(sighting.threadId, author));
      }
      work.push(this.lookupUser(author));
    }
    for (const userId of users) {
      if (!sighting.selfIds.has(userId) && userId !== author) work.push(this.lookupUser(userId));
    }
    for (const channelId of channels) work.push(this.lookupChannel(channelId));
    const results = await Promise.allSettled(work);
    for (const result of results) {
      if (result.status === "rejected") {
        this.options.logger().warn("slack: learning user names failed", { error: result.reason });
      }
    }
  }

  /**
   * A `user_change`: Slack sends the whole new profile, so this instance names the user by it at
   * once (no look-up), and the reverse index holds the user under the new names only.
   */
  async profileChanged(team: string, userId: string, rawUser: unknown): Promise<void> {
    const fresh = slackUserOf(userId, rawUser);
    this.users.set(this.keyOf(userId), fresh.info);
    const state = this.state();
    if (state === undefined) return;
    await new SlackNameIndex(state).index(team, userId, [fresh.info.userName, fresh.handle]);
  }

  /**
   * Outbound text with each bare `@name` (outside code, URLs and Slack tokens) written as a
   * mention: `@U…`/`@W…` ids as `<@id>`; a name the index gives one user as `<@U…>`; a name
   * several users share as the one of them who wrote in the thread, if exactly one did. Anything
   * else stays plain text. Without a Chat (not initialized) the text is returned as is.
   */
  async resolveText(text: string, threadId: string): Promise<string> {
    const state = this.state();
    if (state === undefined) return text;
    const names = bareMentionNames(text);
    if (names.length === 0) return text;
    const index = new SlackNameIndex(state);
    const team = this.options.team();
    let participants: Promise<string[]> | undefined;
    const chosen = new Map<string, string>();
    for (const name of names) {
      if (isRawSlackUserId(name)) {
        chosen.set(name, name);
        continue;
      }
      const ids = await index.usersNamed(team, name);
      if (ids.length === 1) chosen.set(name, ids[0] as string);
      if (ids.length > 1) {
        participants ??= index.participants(threadId);
        const present = await participants;
        const inThread = ids.filter((id) => present.includes(id));
        if (inThread.length === 1) chosen.set(name, inThread[0] as string);
      }
    }
    return replaceBareMentions(text, (name) => {
      const id = chosen.get(name);
      return id === undefined ? undefined : `<@${id}>`;
    });
  }

  /** {@link resolveText} on a postable's text: strings, `{ raw }` and `{ markdown }`; others as is. */
  async resolvePostable(
    message: AdapterPostableMessage,
    threadId: string,
  ): Promise<AdapterPostableMessage> {
    if (typeof message === "string") return this.resolveText(message, threadId);
    if (typeof message !== "object" || message === null) return message;
    if ("raw" in message && typeof message.raw === "string") {
      return { ...message, raw: await this.resolveText(message.raw, threadId) };
    }
    if ("markdown" in message && typeof message.markdown === "string") {
      return { ...message, markdown: await this.resolveText(message.markdown, threadId) };
    }
    return message;
  }

  private async index(record: SlackUserRecord): Promise<void> {
    const state = this.state();
    if (state === undefined) return;
    try {
      await new SlackNameIndex(state).index(this.options.team(), record.info.userId, [
        record.info.userName,
        record.handle,
      ]);
    } catch (error) {
      this.options.logger().warn("slack: indexing a user name failed", { error });
    }
  }

  /** A user's or channel's key in this instance's caches: under the installation, if any. */
  private keyOf(id: string): string {
    return scoped(this.options.scope(), id);
  }

  private state(): StateAdapter | undefined {
    return this.options.host()?.getState();
  }
}

/** `id` under `scope` (`{scope}:{id}`), or `id` itself without one; Slack ids hold no `:`. */
function scoped(scope: string | undefined, id: string): string {
  return scope === undefined ? id : `${scope}:${id}`;
}
