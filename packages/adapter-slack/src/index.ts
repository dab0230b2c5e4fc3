import { resolveSlackOptions, type SlackAdapterConfig } from "./options.js";
import { SlackAdapter } from "./slack-adapter.js";

/**
 * Creates the Slack adapter (upstream's factory name). Fields fall back to `SLACK_BOT_TOKEN`,
 * `SLACK_SIGNING_SECRET`, `SLACK_APP_TOKEN` and `SLACK_API_URL`; a bad value throws a
 * `ConfigError` naming it.
 */
export function createSlackAdapter(config: SlackAdapterConfig = {}): SlackAdapter {
  return new SlackAdapter(resolveSlackOptions(config));
}

export {
  getAppContext,
  normalizeAppContextEntities,
  type SlackAppContext,
  type SlackAppContextEntity,
  type SlackAppContextWireEntity,
} from "./agent-context.js";
export { SlackApi, type SlackResponse, slackApiUrlOf } from "./api.js";
export {
  type SlackAssistantConfig,
  type SlackFeedbackButtonsOptions,
  type SlackSuggestedPrompts,
  type SlackSuggestedPromptsContext,
  type SlackSuggestedPromptsResolver,
} from "./assistant-options.js";
export { SlackBlockError } from "./blocks/errors.js";
export type { SlackBotToken } from "./bot-token.js";
export {
  cardToBlockKit,
  cardToSlackFallbackText,
  cardToSlackFallbackText as cardToFallbackText,
  cardToSlackText,
  SLACK_LIMITS,
  type SlackBlock,
  type SlackBlocksOptions,
  truncateSlackText,
} from "./cards.js";
export {
  decodeKey,
  decryptToken,
  type EncryptedTokenData,
  encryptToken,
  isEncryptedTokenData,
} from "./crypto.js";
export {
  decodeSlackEphemeralMessageId,
  encodeSlackEphemeralMessageId,
  type SlackEphemeralMessageRef,
} from "./ephemeral-id.js";
export { SlackApiError } from "./errors.js";
export {
  buildFeedbackButtonsBlock,
  DEFAULT_FEEDBACK_ACTION_ID,
  type SlackFeedbackButton,
  type SlackFeedbackButtonsBlock,
} from "./feedback-buttons.js";
export { isSlackFileUrl } from "./file-download.js";
export {
  escapeSlackText,
  mrkdwnToMarkdown,
  SlackFormatConverter,
  unescapeSlackText,
} from "./format.js";
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
} from "./format-primitives.js";
export { installationOf, type SlackInstallationRef } from "./installation-routing.js";
export {
  DEFAULT_INSTALLATION_KEY_PREFIX,
  INSTALLATION_CACHE_TTL_MS,
  type SlackInstallation,
  type SlackInstallationProvider,
  SlackInstallations,
} from "./installations.js";
export {
  decodeModalMetadata,
  encodeModalMetadata,
  modalToSlackView,
  type SlackModalMetadata,
  type SlackView,
  slackViewFor,
  viewSubmissionValues,
} from "./modals.js";
export { type SlackOAuthCallbackOptions, type SlackOAuthResult } from "./oauth.js";
export {
  type ResolvedSlackOptions,
  resolveSlackOptions,
  type SlackAdapterConfig,
  type SlackMode,
  type SlackRetryConfig,
} from "./options.js";
export {
  parseSlackWebhookBody,
  type SlackEvent,
  SlackWebhookParseError,
  type SlackWebhookPayload,
} from "./parse.js";
export { renderSlackMessage, splitSlackText } from "./post.js";
export { SlackAdapter } from "./slack-adapter.js";
export type { SlackSuggestedPrompt } from "./slack-assistant.js";
export {
  decodeSlackThreadId,
  encodeSlackMessageId,
  encodeSlackThreadId,
  SLACK_ADAPTER_NAME,
  type SlackThreadData,
  slackTsOfMessageId,
} from "./thread-id.js";
export {
  SLACK_MAX_SKEW_SECONDS,
  SLACK_SIGNATURE_HEADER,
  SLACK_TIMESTAMP_HEADER,
  verifySlackSignature,
} from "./verify.js";
