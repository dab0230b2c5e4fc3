/**
 * `@baton/adapter-slack/blocks`: Block Kit rendering of Baton cards as pure functions (no
 * WebClient, no bolt), the same renderer the adapter posts with.
 */
export {
  cardToBlockKit,
  cardToBlockKit as cardToSlackBlocks,
  cardToSlackFallbackText,
  cardToSlackFallbackText as cardToFallbackText,
  cardToSlackText,
  SLACK_LIMITS,
  type SlackBlock,
  slackOption,
  slackRadioOption,
  truncateSlackText,
} from "../cards.js";
