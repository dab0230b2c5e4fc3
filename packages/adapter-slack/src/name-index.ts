import type { JsonValue, StateAdapter } from "@baton/core";

/** How long an index entry lives after it was last written: a week. */
export const NAME_INDEX_TTL_MS = 7 * 24 * 60 * 60 * 1_000;

/** The State key of the users known by `name` in a workspace (an object `{ [userId]: boolean }`). */
export function userByNameKey(team: string, name: string): string {
  return `slack:user-by-name:${team || "_"}:${name.toLowerCase()}`;
}

/** The State key of the names a user is indexed under (so a profile change can drop them). */
export function namesOfUserKey(team: string, userId: string): string {
  return `slack:user-names:${team || "_"}:${userId}`;
}

/** The State key of the users who wrote in a thread (an object `{ [userId]: true }`). */
export function threadParticipantsKey(threadId: string): string {
  return `slack:thread-participants:${threadId}`;
}

/** A Slack id rather than a name (`U0123ABCD`, `W012345AB`): never looked up by name. */
export function isRawSlackUserId(name: string): boolean {
  return /^[UW](?=[A-Z0-9]*\d)[A-Z0-9]{2,}$/.test(name);
}

/** The names a user can be mentioned by in outbound text: single words, lowercased. */
export function mentionableNames(names: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    if (name === undefined || !/^\w+$/.test(name) || isRawSlackUserId(name)) continue;
    out.add(name.toLowerCase());
  }
  return [...out];
}

function truthyKeys(value: JsonValue | null): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value)
    .filter(([, on]) => on === true)
    .map(([key]) => key);
}

/**
 * The reverse name index and thread participants, in the State so every instance shares them.
 * Entries are objects merged atomically (`mergeObject`), so concurrent writers lose nothing and
 * a user appears once however often it is indexed; a dropped entry is written `false`.
 */
export class SlackNameIndex {
  constructor(private readonly state: StateAdapter) {}

  /**
   * Indexes `userId` under exactly `names` (the mentionable ones) in `team`: names it was
   * indexed under before and no longer has are dropped, so a renamed user stops answering to
   * the old name at its next look-up even when no `user_change` arrived.
   */
  async index(team: string, userId: string, names: readonly (string | undefined)[]) {
    const keep = mentionableNames(names);
    const key = namesOfUserKey(team, userId);
    for (const name of truthyKeys(await this.state.get(key))) {
      if (keep.includes(name)) continue;
      await this.state.mergeObject(userByNameKey(team, name), { [userId]: false });
    }
    for (const name of keep) {
      await this.state.mergeObject(
        userByNameKey(team, name),
        { [userId]: true },
        NAME_INDEX_TTL_MS,
      );
    }
    if (keep.length === 0) await this.state.delete(key);
    else {
      const record = Object.fromEntries(keep.map((name) => [name, true]));
      await this.state.set(key, record, NAME_INDEX_TTL_MS);
    }
  }

  /** The users indexed under `name` in `team`, each once. */
  async usersNamed(team: string, name: string): Promise<string[]> {
    return truthyKeys(await this.state.get(userByNameKey(team, name)));
  }

  /** Records that `userId` wrote in `threadId`. */
  async addParticipant(threadId: string, userId: string): Promise<void> {
    await this.state.mergeObject(
      threadParticipantsKey(threadId),
      { [userId]: true },
      NAME_INDEX_TTL_MS,
    );
  }

  /** The users who wrote in `threadId` (as far as this bot saw). */
  async participants(threadId: string): Promise<string[]> {
    return truthyKeys(await this.state.get(threadParticipantsKey(threadId)));
  }
}
