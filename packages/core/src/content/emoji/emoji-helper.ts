import { type EmojiFormats, WELL_KNOWN_EMOJI, type WellKnownEmoji } from "./emoji-map.js";
import { defaultEmojiResolver } from "./emoji-resolver.js";
import { type EmojiValue, getEmoji } from "./emoji-value.js";

/**
 * Custom emoji names known to the type checker. Augment it to type `emoji.<name>` for your own
 * emoji: `declare module "@baton/core" { interface CustomEmojiMap { unicorn: EmojiFormats } }`.
 */
export interface CustomEmojiMap {}

/** `emoji.<well-known name>` and `emoji.custom(name)`. */
export type BaseEmojiHelper = { readonly [K in WellKnownEmoji]: EmojiValue } & {
  /** The {@link EmojiValue} of any name: the same object each time. */
  custom(name: string): EmojiValue;
};

/** {@link BaseEmojiHelper} plus the names declared in {@link CustomEmojiMap}. */
export type ExtendedEmojiHelper = BaseEmojiHelper & {
  readonly [K in keyof CustomEmojiMap]: EmojiValue;
};

/**
 * An emoji helper with the well-known emoji and `customEmoji`, whose spellings are registered
 * with {@link defaultEmojiResolver} so their placeholders convert on every platform. Values are
 * the {@link getEmoji} singletons: `createEmoji().fire === emoji.fire`.
 */
export function createEmoji<T extends Record<string, EmojiFormats>>(
  customEmoji?: T,
): BaseEmojiHelper & { readonly [K in keyof T]: EmojiValue } {
  if (customEmoji !== undefined) defaultEmojiResolver.extend(customEmoji);
  const names = [...WELL_KNOWN_EMOJI, ...Object.keys(customEmoji ?? {})];
  const helper = Object.fromEntries(names.map((name) => [name, getEmoji(name)]));
  return Object.freeze({ ...helper, custom: getEmoji }) as BaseEmojiHelper & {
    readonly [K in keyof T]: EmojiValue;
  };
}

/**
 * The emoji helper: `emoji.thumbs_up`, `emoji["100"]`, `emoji.custom("party_parrot")`. In a
 * template string an emoji is a placeholder (`${emoji.fire}` → `{{emoji:fire}}`) that each
 * adapter writes in its platform's spelling.
 */
export const emoji: ExtendedEmojiHelper = createEmoji() as ExtendedEmojiHelper;
