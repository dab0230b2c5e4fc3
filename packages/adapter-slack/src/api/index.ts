/**
 * `@baton/adapter-slack/api`: Web API helpers (post, update, delete, replies, views, uploads,
 * file downloads, response_url) that call Slack through `@slack/web-api`'s WebClient, importable
 * without the adapter.
 */
export { SlackApiError } from "../errors.js";
export {
  callSlackApi,
  encodeSlackApiBody,
  SLACK_API_CONTENT_TYPE,
  type SlackApiResult,
  type SlackApiTarget,
  type SlackTokenSource,
  slackClientFor,
} from "./call.js";
export {
  type FetchSlackFileOptions,
  fetchSlackFile,
  type SlackResponseUrlMessage,
  type SlackUploadFile,
  sendSlackResponseUrl,
  type UploadSlackFilesOptions,
  uploadSlackFiles,
} from "./files.js";
export {
  type DeleteSlackMessageOptions,
  deleteSlackMessage,
  type FetchSlackThreadRepliesOptions,
  fetchSlackThreadReplies,
  type OpenSlackViewOptions,
  openSlackView,
  type PostSlackEphemeralOptions,
  type PostSlackMessageOptions,
  postSlackEphemeral,
  postSlackMessage,
  type SlackApiBlock,
  type SlackMessageContent,
  type SlackMessageResult,
  type SlackThreadRepliesPage,
  type UpdateSlackMessageOptions,
  updateSlackMessage,
} from "./messages.js";
