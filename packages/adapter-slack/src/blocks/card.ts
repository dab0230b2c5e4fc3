import type { CardElement } from "@baton/core";
import { cardToBlockKit, cardToSlackFallbackText as fallbackText } from "../cards.js";
import { convertSlackEmojiPlaceholders } from "./emoji.js";
import type { SlackBlock, SlackBlocksOptions } from "./render-options.js";

/**
 * A card as Block Kit, rendered by the adapter's own renderer (`cardToBlockKit`: the blocks a
 * post of this card sends), except that emoji placeholders default to their name as given
 * (`{{emoji:thumbs_up}}` → `:thumbs_up:`), as upstream's `@chat-adapter/slack/blocks` writes them;
 * pass `convertEmoji` to choose. Throws a SlackBlockError for a `maxBlocks` outside 1–50.
 */
export function cardToSlackBlocks(
  card: CardElement,
  options: SlackBlocksOptions = {},
): SlackBlock[] {
  return cardToBlockKit(card, {
    ...options,
    convertEmoji: options.convertEmoji ?? convertSlackEmojiPlaceholders,
  });
}

/**
 * A card's text fallback as mrkdwn, its controls listed (ADR 0018), emoji placeholders written
 * by name unless `convertEmoji` is given (as `cardToSlackBlocks`).
 */
export function cardToSlackFallbackText(
  card: CardElement,
  options: Pick<SlackBlocksOptions, "convertEmoji"> = {},
): string {
  return fallbackText(card, {
    convertEmoji: options.convertEmoji ?? convertSlackEmojiPlaceholders,
  });
}
