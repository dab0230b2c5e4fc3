import type { FakeTwilio, FakeTwilioMessage } from "./fake-twilio.js";
import { createTwilioWebhookRequest } from "./signed-request.js";

/** The signed status callback Twilio POSTs for `message` reaching `status`. */
export function statusCallbackRequest(
  fake: Pick<FakeTwilio, "accountSid" | "authToken">,
  message: FakeTwilioMessage,
  status: string,
  extra: Readonly<Record<string, string>>,
): Request {
  return createTwilioWebhookRequest({
    url: message.statusCallback as string,
    authToken: fake.authToken,
    params: {
      MessageSid: message.sid,
      SmsSid: message.sid,
      AccountSid: fake.accountSid,
      MessageStatus: status,
      SmsStatus: status,
      From: message.from ?? "",
      To: message.to,
      ...(message.messagingServiceSid ? { MessagingServiceSid: message.messagingServiceSid } : {}),
      ApiVersion: "2010-04-01",
      ...extra,
    },
  });
}
