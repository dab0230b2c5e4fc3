export {
  FakeTelegram,
  type FakeTelegramFailure,
  type FakeTelegramMessage,
  type FakeTelegramOptions,
  type FakeTelegramRequest,
  startFakeTelegram,
} from "./fake-telegram.js";
export { checkMarkdownV2, checkTelegramHtml, type MarkdownV2Check } from "./markdown-v2-check.js";
export {
  type BuiltChat,
  type BuiltMessageOptions,
  type BuiltUser,
  FORUM_CHAT,
  GROUP_CHAT,
  PRIVATE_CHAT,
  TEST_USER,
  TelegramUpdateBuilder,
} from "./update-builder.js";
export {
  createTelegramWebhookRequest,
  type TelegramWebhookRequestInit,
} from "./webhook-request.js";
