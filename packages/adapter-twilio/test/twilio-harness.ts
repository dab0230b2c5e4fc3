import { Chat, type ChatConfig, type WebhookOptions } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { createTwilioAdapter, type TwilioAdapterConfig } from "../src/index.js";
import { createTwilioWebhookRequest, startFakeTwilio } from "../src/testing/index.js";

/** The bot's number and a customer's, as in upstream's tests. */
export const BOT_NUMBER = "+15550000001";
export const CUSTOMER = "+15550000002";
/** The public URL Twilio is configured to call (and signs). */
export const WEBHOOK_URL = "https://bot.example.com/api/twilio";
/** The thread of {@link CUSTOMER} with {@link BOT_NUMBER}. */
export const SMS_THREAD = "twilio:%2B15550000001:%2B15550000002";

/**
 * A Chat with the Twilio adapter against the offline fake of Twilio's REST API, on the real
 * memory State and a fake clock. `deliver(params)` sends a webhook exactly as Twilio would:
 * form-encoded and signed for {@link WEBHOOK_URL}.
 */
export async function createTwilioHarness(
  config: Partial<TwilioAdapterConfig> = {},
  chatOptions: Partial<Omit<ChatConfig, "adapters" | "state">> = {},
) {
  const fake = await startFakeTwilio();
  const clock = createFakeClock();
  const adapter = createTwilioAdapter({
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    apiUrl: fake.url,
    phoneNumber: BOT_NUMBER,
    webhookUrl: WEBHOOK_URL,
    retryBaseDelayMs: 10,
    clock,
    ...config,
  });
  const state = createMemoryState({ clock });
  const chat = new Chat({
    userName: "bot",
    adapters: { twilio: adapter },
    state,
    logger: "silent",
    clock,
    dispatch: "sync",
    ...chatOptions,
  });
  await chat.initialize();
  const twilioWebhook = chat.webhooks.twilio;
  if (twilioWebhook === undefined) throw new Error("the Chat has no twilio webhook");
  /** The Chat's webhook entry point for the adapter, as a server route would call it. */
  const webhook = (request: Request, options?: WebhookOptions) => twilioWebhook(request, options);

  function request(params: Record<string, string | string[]>, signature?: string | null) {
    return createTwilioWebhookRequest({
      url: WEBHOOK_URL,
      authToken: fake.authToken,
      params,
      ...(signature === undefined ? {} : { signature }),
    });
  }

  /** An inbound SMS from `from` (default the customer) with a fresh MessageSid. */
  let inbound = 0;
  function sms(body: string, extra: Record<string, string> = {}) {
    inbound += 1;
    return {
      MessageSid: `SM${String(inbound).padStart(32, "0")}`,
      AccountSid: fake.accountSid,
      From: CUSTOMER,
      To: BOT_NUMBER,
      Body: body,
      NumMedia: "0",
      ...extra,
    };
  }

  return {
    fake,
    adapter,
    chat,
    state,
    clock,
    webhook,
    request,
    sms,
    deliver: (params: Record<string, string | string[]>) => webhook(request(params)),
    close: async () => {
      await chat.shutdown();
      await fake.close();
    },
  };
}
