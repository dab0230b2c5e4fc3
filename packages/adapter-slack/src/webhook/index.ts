/**
 * `@baton/adapter-slack/webhook`: verifying and reading Slack's requests without the adapter
 * (bolt's signature check, the body parser), for a handler that routes Slack events itself.
 */
export {
  parseSlackWebhookBody,
  type SlackEvent,
  type SlackEventCallback,
  type SlackInteraction,
  type SlackOther,
  type SlackSlashCommand,
  type SlackSslCheck,
  type SlackUrlVerification,
  SlackWebhookParseError,
  type SlackWebhookPayload,
} from "../parse.js";
export {
  SLACK_MAX_SKEW_SECONDS,
  SLACK_SIGNATURE_HEADER,
  SLACK_TIMESTAMP_HEADER,
  type SlackSignatureCheck,
  verifySlackSignature,
} from "../verify.js";
export {
  readSlackWebhook,
  SLACK_WEBHOOK_MAX_BODY_BYTES,
  type SlackContinuation,
  type SlackHeaderSource,
  type SlackWebhookRefusal,
  SlackWebhookVerificationError,
  type SlackWebhookVerifier,
  slackContinuationOf,
  slackHeader,
  slackRetryOf,
  slackSignatureHeaders,
  type VerifySlackRequestOptions,
  verifySlackRequest,
} from "./request.js";
