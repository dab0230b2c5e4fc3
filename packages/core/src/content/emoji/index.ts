export {
  type BaseEmojiHelper,
  type CustomEmojiMap,
  createEmoji,
  type ExtendedEmojiHelper,
  emoji,
} from "./emoji-helper.js";
export {
  DEFAULT_EMOJI_MAP,
  type EmojiFormats,
  type EmojiMapConfig,
  WELL_KNOWN_EMOJI,
  type WellKnownEmoji,
} from "./emoji-map.js";
export { convertEmojiPlaceholders, type EmojiPlatform } from "./emoji-placeholders.js";
export { defaultEmojiResolver, EmojiResolver } from "./emoji-resolver.js";
export { type EmojiValue, getEmoji } from "./emoji-value.js";
