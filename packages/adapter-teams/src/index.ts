import type { TeamsAdapterConfig } from "./options.js";
import { TeamsAdapter } from "./teams-adapter.js";

/**
 * Creates the Teams adapter (upstream's factory name). Fields fall back to `TEAMS_APP_ID`,
 * `TEAMS_APP_PASSWORD`, `TEAMS_APP_TENANT_ID` and `TEAMS_API_URL`; a bad value throws a
 * `ConfigError` naming it.
 */
export function createTeamsAdapter(config: TeamsAdapterConfig = {}): TeamsAdapter {
  return new TeamsAdapter(config);
}

export { TeamsApi, type TeamsApiOptions, type TeamsOutboundActivity } from "./api.js";
export {
  createAnonymousAttachmentFetchData,
  createTeamsAttachment,
  isInternalHost,
  mimeTypeOfName,
  rehydrateTeamsAttachment,
  type TeamsAttachmentFetchers,
} from "./attachments.js";
export {
  ADAPTIVE_CARD_CONTENT_TYPE,
  ADAPTIVE_CARD_SCHEMA,
  ADAPTIVE_CARD_VERSION,
  type AdaptiveJson,
  AUTO_SUBMIT_ACTION_ID,
  cardToAdaptiveCard,
  cardToFallbackText,
  cardToTeamsFallbackText,
  type TeamsAdaptiveCard,
} from "./cards.js";
export {
  retryAfterMsOf,
  TeamsApiError,
  type TeamsFailure,
  teamsApiError,
  teamsFailureOf,
} from "./errors.js";
export type {
  TeamsConversationUpdateEvent,
  TeamsEventHandler,
  TeamsInstallationUpdateEvent,
} from "./events.js";
export {
  FILE_CONSENT_CONTENT_TYPE,
  FILE_CONSENT_INVOKE,
  FILE_INFO_CONTENT_TYPE,
  fileConsentKey,
} from "./file-consent.js";
export {
  decodeHtmlEntities,
  TeamsFormatConverter,
  teamsHtmlToMarkdown,
  toTeamsMentions,
} from "./format.js";
export {
  convertTeamsEmojiPlaceholders,
  escapeTeamsText,
  formatTeamsMention,
  markdownToTeamsHtml,
  stripTeamsTags,
  teamsMentionToPlainText,
  unescapeTeamsText,
} from "./format-html.js";
export {
  DEFAULT_GRAPH_URL,
  TeamsGraph,
  type TeamsGraphChannel,
  type TeamsGraphMessage,
  type TeamsGraphOptions,
  type TeamsGraphUser,
  toTeamsGraphMessage,
} from "./graph/client.js";
export {
  chatIdFromContext,
  extractCardTitle,
  extractTextFromGraphMessage,
  type GraphAttachment,
  type GraphChatMessage,
  type TeamsGraphContext,
} from "./graph/text.js";
export { cachedToken, type ExpiringToken, GRAPH_TOKEN_REFRESH_MARGIN_MS } from "./graph/token.js";
export { stripBotMention } from "./message.js";
export {
  DIALOG_CALLBACK_KEY,
  DIALOG_CONTEXT_KEY,
  modalResponseToTaskModuleResponse,
  modalToAdaptiveCard,
  parseDialogSubmitValues,
  parseTeamsDialogSubmitValues,
  type TeamsDialogCard,
  type TeamsTaskModuleResponse,
  taskContinue,
  toTeamsTaskModuleResponse,
} from "./modals.js";
export {
  type ResolvedTeamsOptions,
  resolveTeamsOptions,
  type TeamsAdapterConfig,
  type TeamsAuthCertificate,
  type TeamsAuthFederated,
  type TeamsTokenFactory,
} from "./options.js";
export {
  composeTeamsActivity,
  type TeamsOutboundContext,
  type TeamsOutboundKind,
} from "./outbound.js";
export {
  collectTeamsFiles,
  isTeamsInlineImage,
  TEAMS_INLINE_IMAGE_MAX_BYTES,
  TEAMS_INLINE_IMAGE_TYPES,
  type TeamsInlineImage,
  type TeamsOutboundFile,
  type TeamsPostFiles,
} from "./outbound-files.js";
export {
  classifyTeamsActivity,
  parseTeamsActivity,
  TEAMS_FOREIGN_SUBMIT_ACTION_ID,
  type TeamsAccount,
  type TeamsActivity,
  type TeamsActivityKind,
  TeamsActivityParseError,
} from "./parse.js";
export { fromTeamsReaction, toTeamsReaction } from "./reactions.js";
export {
  SENDER_EMAIL_TIMEOUT_MS,
  SENDER_EMAIL_TTL_MS,
  type SenderEmailDeps,
  senderEmail,
  senderEmailKey,
} from "./sender-email.js";
export type { TeamsStreamOptions } from "./stream.js";
export { TeamsAdapter, toAppOptions } from "./teams-adapter.js";
export {
  baseConversationId,
  decodeTeamsThreadId,
  encodeTeamsThreadId,
  isTeamsDM,
  replyChainRoot,
  TEAMS_ADAPTER_NAME,
  type TeamsThreadData,
  teamsChannelIdFromThreadId,
} from "./thread-id.js";
export { TeamsHost, type VerifiedActivity } from "./verify.js";
