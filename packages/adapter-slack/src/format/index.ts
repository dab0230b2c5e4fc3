/**
 * `@baton/adapter-slack/format`: Slack's mrkdwn and text-object primitives, importable without
 * the adapter (no WebClient, no bolt, no webhook handling).
 */
export {
  escapeSlackText,
  mrkdwnToMarkdown,
  SlackFormatConverter,
  unescapeSlackText,
} from "../format.js";
export {
  createSlackMrkdwn,
  createSlackPlainText,
  formatSlackChannel,
  formatSlackDate,
  formatSlackLink,
  formatSlackSpecialMention,
  formatSlackUser,
  formatSlackUserGroup,
  linkBareSlackMentions,
  markdownBoldToSlackMrkdwn,
  type SlackMrkdwnTextObject,
  type SlackPlainTextObject,
  slackMrkdwnToMarkdown,
} from "../format-primitives.js";
