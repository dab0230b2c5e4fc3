/**
 * One emoji by its normalized name (`thumbs_up`), independent of any platform. Frozen and unique
 * per name (see {@link getEmoji}), so `event.emoji === emoji.thumbs_up` works. In a string it
 * becomes the placeholder `{{emoji:name}}`, which {@link convertEmojiPlaceholders} turns into the
 * platform's spelling when a message is posted.
 */
export interface EmojiValue {
  /** The normalized name: a well-known name (`thumbs_up`) or the platform's own for the rest. */
  readonly name: string;
  /** The placeholder `{{emoji:name}}`. */
  toString(): string;
  /** The placeholder too, so an emoji in JSON reads the same as in text. */
  toJSON(): string;
}

const registry = new Map<string, EmojiValue>();

/**
 * The {@link EmojiValue} named `name`: always the same frozen object for the same name, created
 * on first use. Names are case-sensitive and taken as given (normalize with an
 * {@link EmojiResolver} first when the name comes from a platform).
 */
export function getEmoji(name: string): EmojiValue {
  const known = registry.get(name);
  if (known !== undefined) return known;
  const placeholder = `{{emoji:${name}}}`;
  const value: EmojiValue = Object.freeze({
    name,
    toString: () => placeholder,
    toJSON: () => placeholder,
  });
  registry.set(name, value);
  return value;
}
