import { defaultEmojiResolver, type EmojiResolver } from "./emoji-resolver.js";

/**
 * The platforms {@link convertEmojiPlaceholders} writes for. Slack writes `:short_name:`; every
 * other platform writes the Unicode character.
 */
export type EmojiPlatform =
  | "slack"
  | "gchat"
  | "teams"
  | "discord"
  | "messenger"
  | "github"
  | "gitlab"
  | "linear"
  | "notion"
  | "telegram"
  | "whatsapp"
  | "sms"
  | "web"
  | "x";

const PLACEHOLDER = /\{\{emoji:([A-Za-z0-9_+-]+)\}\}/g;

/**
 * Replaces every `{{emoji:name}}` placeholder in `text` (what an {@link EmojiValue} becomes in a
 * template string) with `platform`'s spelling from `resolver`. An emoji without a mapping is
 * written by its name (`:name:` on Slack). Text without placeholders comes back unchanged.
 */
export function convertEmojiPlaceholders(
  text: string,
  platform: EmojiPlatform,
  resolver: EmojiResolver = defaultEmojiResolver,
): string {
  return text.replace(PLACEHOLDER, (_placeholder, name: string) =>
    platform === "slack" ? `:${resolver.toSlack(name)}:` : resolver.toGChat(name),
  );
}
