import { resolveTwilioOptions, type TwilioAdapterConfig } from "./options.js";
import { TwilioAdapter } from "./twilio-adapter.js";

/**
 * Creates the Twilio adapter (upstream's factory name). Every field of `config` falls back to its
 * `TWILIO_*` environment variable; a bad value throws a `ConfigError` naming it.
 */
export function createTwilioAdapter(config: TwilioAdapterConfig = {}): TwilioAdapter {
  return new TwilioAdapter(resolveTwilioOptions(config));
}

export {
  rebaseTwilioUrl,
  TwilioApi,
  type TwilioCallResource,
  type TwilioCallUpdate,
  type TwilioContentResource,
  type TwilioMessageResource,
  type TwilioSendParams,
} from "./api.js";
export {
  cardToTwilioText,
  choiceForReply,
  type TwilioCardText,
  type TwilioMenuChoice,
} from "./cards.js";
export { QuickReplyTemplates } from "./content-templates.js";
export {
  TWILIO_INVALID_CONTENT_SID,
  TWILIO_OUTSIDE_SESSION_WINDOW,
  TWILIO_UNSUBSCRIBED_RECIPIENT,
  TwilioApiError,
  TwilioOptOutError,
  TwilioSessionWindowError,
} from "./errors.js";
export type { TwilioEventHandler, TwilioMessageStatusEvent, TwilioOptOutEvent } from "./events.js";
export { TwilioFormatConverter, type TwilioTextDialect } from "./format.js";
export { optOutKindOf, type TwilioOptOutKind } from "./opt-out.js";
export {
  type ResolvedTwilioOptions,
  resolveTwilioOptions,
  type TwilioAdapterConfig,
} from "./options.js";
export {
  parseTwilioWebhookBody,
  type TwilioActionWebhook,
  type TwilioMedia,
  type TwilioStatusWebhook,
  type TwilioTextWebhook,
  TwilioWebhookParseError,
  type TwilioWebhookPayload,
} from "./parse.js";
export {
  cardToQuickReply,
  quickReplyFriendlyName,
  quickReplyShapeKey,
  quickReplyTemplateRequest,
  TWILIO_QUICK_REPLY_BODY_MAX,
  type TwilioQuickReply,
  type TwilioQuickReplyButton,
  WHATSAPP_BUTTON_ID_MAX,
  WHATSAPP_BUTTON_TITLE_MAX,
  WHATSAPP_QUICK_REPLY_MAX_BUTTONS,
} from "./quick-reply.js";
export {
  splitTwilioBody,
  TWILIO_MESSAGE_LIMIT,
  truncateTwilioBody,
} from "./split.js";
export {
  decodeTwilioThreadId,
  encodeTwilioThreadId,
  TWILIO_ADAPTER_NAME,
  type TwilioThreadData,
} from "./thread-id.js";
export { TwilioAdapter } from "./twilio-adapter.js";
export { formParams, TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from "./verify.js";
export {
  emptyTwilioResponse,
  escapeXml,
  gatherSpeechTwilioResponse,
  parseTwilioVoiceCall,
  parseTwilioVoiceTranscription,
  sayTwilioResponse,
  type TwilioGatherSpeechOptions,
  type TwilioTranscriptionSource,
  type TwilioVoiceCall,
  type TwilioVoiceTranscription,
  twimlResponse,
} from "./voice.js";
