import { afterEach, describe, expect, it } from "vitest";
import { type TwilioMessageStatusEvent, TwilioSessionWindowError } from "../src/index.js";
import { createTwilioWebhookRequest } from "../src/testing/index.js";
import { BOT_NUMBER, CUSTOMER, createTwilioHarness, SMS_THREAD } from "./twilio-harness.js";

const STATUS_URL = "https://bot.example.com/api/twilio/status";

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function statusHarness() {
  const h = await createTwilioHarness({ statusCallbackUrl: STATUS_URL });
  harnesses.push(h);
  const events: TwilioMessageStatusEvent[] = [];
  h.adapter.onMessageStatus((event) => {
    events.push(event);
  });
  const callback = (params: Record<string, string>) =>
    h.webhook(createTwilioWebhookRequest({ url: STATUS_URL, authToken: h.fake.authToken, params }));
  return { h, events, callback };
}

describe("delivery status callbacks become events tied to the sent message", () => {
  it("asks Twilio for callbacks and reports each status with the SentMessage's id", async () => {
    const { h, events, callback } = await statusHarness();
    const sent = await h.chat.thread(SMS_THREAD).post("your order shipped");
    expect(h.fake.messages[0]?.statusCallback).toBe(STATUS_URL);

    for (const status of ["sent", "delivered"]) {
      const response = await callback({
        MessageSid: sent.id,
        MessageStatus: status,
        From: BOT_NUMBER,
        To: CUSTOMER,
      });
      expect(response.status).toBe(200);
    }

    expect(events.map((event) => [event.messageId, event.threadId, event.status])).toEqual([
      [sent.id, SMS_THREAD, "sent"],
      [sent.id, SMS_THREAD, "delivered"],
    ]);
    expect(events.every((event) => event.error === undefined)).toBe(true);
  });

  it("surfaces WhatsApp's 24-hour window (error 63016) as a TwilioSessionWindowError", async () => {
    const { events, callback } = await statusHarness();

    await callback({
      MessageSid: "SM63016",
      MessageStatus: "failed",
      ErrorCode: "63016",
      From: "whatsapp:+15550000001",
      To: "whatsapp:+15550000002",
    });

    expect(events).toHaveLength(1);
    expect(events[0]?.errorCode).toBe(63016);
    expect(events[0]?.error).toBeInstanceOf(TwilioSessionWindowError);
    expect(events[0]?.error?.message).toMatch(/24 hours/);
  });

  it("refuses a status callback signed for a URL that is not configured", async () => {
    const { h, events } = await statusHarness();

    const response = await h.webhook(
      createTwilioWebhookRequest({
        url: "https://attacker.example/status",
        authToken: h.fake.authToken,
        params: { MessageSid: "SM1", MessageStatus: "delivered", From: BOT_NUMBER, To: CUSTOMER },
      }),
    );

    expect(response.status).toBe(403);
    expect(events).toEqual([]);
  });

  it("keeps answering Twilio when a status handler throws", async () => {
    const { h, events, callback } = await statusHarness();
    h.adapter.onMessageStatus(() => {
      throw new Error("analytics down");
    });

    const response = await callback({
      MessageSid: "SM1",
      MessageStatus: "undelivered",
      ErrorCode: "30003",
      From: BOT_NUMBER,
      To: CUSTOMER,
    });

    expect(response.status).toBe(200);
    expect(events.map((event) => [event.status, event.errorCode])).toEqual([
      ["undelivered", 30003],
    ]);
  });
});
