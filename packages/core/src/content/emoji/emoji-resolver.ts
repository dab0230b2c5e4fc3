import {
  DEFAULT_EMOJI_MAP,
  type EmojiFormats,
  type EmojiMapConfig,
  spellingsOf,
} from "./emoji-map.js";
import { type EmojiValue, getEmoji } from "./emoji-value.js";

// Teams reactions are a closed set of six names; only `like` differs from the normalized name.
const TEAMS_REACTIONS: Readonly<Record<string, string>> = {
  like: "thumbs_up",
  heart: "heart",
  laugh: "laugh",
  surprised: "surprised",
  sad: "sad",
  angry: "angry",
};

/**
 * Translates between normalized emoji names and platform spellings, both ways. Slack names are
 * matched without colons and case-insensitively; Unicode forms exactly. A spelling with no
 * mapping becomes an {@link EmojiValue} of its own (colons stripped), so unknown and custom emoji
 * still round-trip.
 */
export class EmojiResolver {
  private readonly formats: Record<string, EmojiFormats>;
  private readonly bySlack = new Map<string, string>();
  private readonly byUnicode = new Map<string, string>();

  /** A resolver over the well-known emoji plus `customMap` (which wins on the same name). */
  constructor(customMap?: EmojiMapConfig) {
    this.formats = { ...DEFAULT_EMOJI_MAP, ...customMap };
    this.index();
  }

  /** The emoji a Slack short name (`+1`, `:fire:`, `FIRE`) stands for. */
  fromSlack(slackEmoji: string): EmojiValue {
    const bare = stripColons(slackEmoji);
    return getEmoji(this.bySlack.get(bare.toLowerCase()) ?? bare);
  }

  /** The emoji a Unicode character (as Google Chat sends it) stands for. */
  fromGChat(gchatEmoji: string): EmojiValue {
    return getEmoji(this.byUnicode.get(gchatEmoji) ?? gchatEmoji);
  }

  /** The emoji a Teams reaction type (`like`, `heart`, `laugh`, `surprised`, `sad`, `angry`) stands for. */
  fromTeams(teamsReaction: string): EmojiValue {
    return getEmoji(TEAMS_REACTIONS[teamsReaction] ?? teamsReaction);
  }

  /** The preferred Slack short name (no colons) of `emoji`, or its name when it has no mapping. */
  toSlack(emoji: EmojiValue | string): string {
    const name = nameOf(emoji);
    const formats = this.formats[name];
    return formats === undefined ? name : (spellingsOf(formats.slack)[0] ?? name);
  }

  /** The preferred Unicode form of `emoji`, or its name when it has no mapping. */
  toGChat(emoji: EmojiValue | string): string {
    const name = nameOf(emoji);
    const formats = this.formats[name];
    return formats === undefined ? name : (spellingsOf(formats.gchat)[0] ?? name);
  }

  /** The Unicode form Discord uses: the same as {@link toGChat}. */
  toDiscord(emoji: EmojiValue | string): string {
    return this.toGChat(emoji);
  }

  /**
   * Whether `rawEmoji`, in any platform's spelling, is `normalized`. An emoji without a mapping
   * matches only its own name.
   */
  matches(rawEmoji: string, normalized: EmojiValue | string): boolean {
    const name = nameOf(normalized);
    const formats = this.formats[name];
    if (formats === undefined) return rawEmoji === name;
    const slack = stripColons(rawEmoji).toLowerCase();
    return (
      spellingsOf(formats.slack).some((spelling) => spelling.toLowerCase() === slack) ||
      spellingsOf(formats.gchat).includes(rawEmoji)
    );
  }

  /** Adds emoji or replaces the spellings of existing ones; lookups reflect the change at once. */
  extend(customMap: EmojiMapConfig): void {
    Object.assign(this.formats, customMap);
    this.index();
  }

  private index(): void {
    this.bySlack.clear();
    this.byUnicode.clear();
    for (const [name, formats] of Object.entries(this.formats)) {
      for (const spelling of spellingsOf(formats.slack)) {
        this.bySlack.set(spelling.toLowerCase(), name);
      }
      for (const spelling of spellingsOf(formats.gchat)) this.byUnicode.set(spelling, name);
    }
  }
}

/** The resolver adapters use unless given another; {@link createEmoji} registers custom emoji here. */
export const defaultEmojiResolver = new EmojiResolver();

function nameOf(emoji: EmojiValue | string): string {
  return typeof emoji === "string" ? emoji : emoji.name;
}

function stripColons(spelling: string): string {
  const start = spelling.startsWith(":") ? 1 : 0;
  const end = spelling.length > start && spelling.endsWith(":") ? -1 : undefined;
  return spelling.slice(start, end);
}
