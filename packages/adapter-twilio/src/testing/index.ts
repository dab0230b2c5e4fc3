export type { FakeTwilioCall } from "./fake-calls.js";
export type { FakeTwilioContent } from "./fake-content.js";
export {
  FakeTwilio,
  type FakeTwilioFailure,
  type FakeTwilioMessage,
  type FakeTwilioOptions,
  type FakeTwilioRequest,
  type FakeTwilioRoute,
  startFakeTwilio,
  TWILIO_BODY_LIMIT,
} from "./fake-twilio.js";
export { createTwilioWebhookRequest, type TwilioWebhookRequestInit } from "./signed-request.js";
