import { createHmac } from "node:crypto";
import twilio from "twilio";
import { afterEach, describe, expect, it } from "vitest";
import { formParams, parseTwilioWebhookBody, verifyTwilioSignature } from "../src/index.js";
import { createTwilioWebhookRequest } from "../src/testing/index.js";
import { BOT_NUMBER, CUSTOMER, createTwilioHarness, WEBHOOK_URL } from "./twilio-harness.js";

/** HMAC-SHA1 of Twilio's signature base, computed here independently of the library. */
function hmacOf(authToken: string, base: string): string {
  return createHmac("sha1", authToken).update(base).digest("base64");
}

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness() {
  const created = await createTwilioHarness();
  harnesses.push(created);
  return created;
}

describe("Twilio webhook verification", () => {
  it("matches Twilio's documented form signature example", () => {
    // Twilio's security documentation: this URL, token and form give this signature.
    const params = {
      CallSid: "CA1234567890ABCDE",
      Caller: "+12349013030",
      Digits: "1234",
      From: "+12349013030",
      To: "+18005551212",
    };
    const signature = "3KI2uRuYyAdhZIJXcpU0izDUzWI=";
    const url = "https://mycompany.com/myapp";

    expect(verifyTwilioSignature({ authToken: "12345", url, signature, params })).toBe(true);
    expect(
      verifyTwilioSignature({ authToken: "12346", url, signature, params }),
      "another token",
    ).toBe(false);
    expect(
      verifyTwilioSignature({
        authToken: "12345",
        url,
        signature,
        params: { ...params, Digits: "1235" },
      }),
      "a changed parameter",
    ).toBe(false);
  });

  it("builds a form POST signature base with sorted parameters", () => {
    const body = new URLSearchParams();
    body.set("To", CUSTOMER);
    body.set("From", BOT_NUMBER);
    body.set("Body", "hello");
    const url = "https://example.com/twilio";
    // The base is the URL followed by each name and value, names sorted.
    const base = `${url}BodyhelloFrom${BOT_NUMBER}To${CUSTOMER}`;

    const signature = hmacOf("token", base);

    expect(
      verifyTwilioSignature({ authToken: "token", url, signature, params: formParams(body) }),
    ).toBe(true);
  });

  it("sorts duplicate form parameters like twilio-node", () => {
    const body = new URLSearchParams();
    body.append("MediaUrl", "https://example.com/b.jpg");
    body.append("MediaUrl", "https://example.com/a.jpg");
    const url = "https://example.com/twilio";
    const base = `${url}MediaUrlhttps://example.com/a.jpgMediaUrlhttps://example.com/b.jpg`;

    expect(formParams(body)).toEqual({
      MediaUrl: ["https://example.com/b.jpg", "https://example.com/a.jpg"],
    });
    expect(
      verifyTwilioSignature({
        authToken: "token",
        url,
        signature: hmacOf("token", base),
        params: formParams(body),
      }),
    ).toBe(true);
  });

  it("reads verified POST form webhooks", async () => {
    const h = await harness();
    const seen: string[] = [];
    h.chat.onDirectMessage((thread, message) => {
      seen.push(`${thread.id} ${message.author.userId}: ${message.text}`);
    });

    const response = await h.deliver(h.sms("hello"));

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/xml");
    expect(await response.text()).toBe("<Response></Response>");
    expect(seen).toEqual([`twilio:%2B15550000001:%2B15550000002 ${CUSTOMER}: hello`]);
  });

  it("reads verified GET webhooks", async () => {
    const h = await harness();
    const seen: string[] = [];
    h.chat.onDirectMessage((_thread, message) => {
      seen.push(message.text);
    });
    const request = createTwilioWebhookRequest({
      url: WEBHOOK_URL,
      authToken: h.fake.authToken,
      method: "GET",
      params: h.sms("hello by GET"),
    });

    const response = await h.webhook(request);

    expect(response.status).toBe(200);
    expect(seen).toEqual(["hello by GET"]);
  });

  it("rejects invalid signatures", async () => {
    const h = await harness();
    const seen: string[] = [];
    h.chat.onDirectMessage((_thread, message) => {
      seen.push(message.text);
    });

    const response = await h.webhook(h.request(h.sms("forged"), "invalid"));

    expect(response.status).toBe(403);
    expect(seen).toEqual([]);
  });
});

describe("Twilio webhook parsing", () => {
  it("parses MMS media parameters", () => {
    const payload = parseTwilioWebhookBody(
      new URLSearchParams({
        Body: "photo",
        From: BOT_NUMBER,
        MediaContentType0: "image/jpeg",
        MediaUrl0: "https://api.twilio.com/media/one",
        MessageSid: "SM123",
        NumMedia: "1",
        To: CUSTOMER,
      }),
    );

    expect(payload).toMatchObject({
      kind: "text",
      media: [{ contentType: "image/jpeg", url: "https://api.twilio.com/media/one" }],
    });
  });

  it("parses status callbacks separately", () => {
    const payload = parseTwilioWebhookBody(
      new URLSearchParams({
        From: CUSTOMER,
        MessageSid: "SM123",
        MessageStatus: "delivered",
        To: BOT_NUMBER,
      }),
    );

    expect(payload).toMatchObject({ kind: "status", messageStatus: "delivered" });
  });
});

describe("the signed-request builder of the testing kit", () => {
  it("signs with the twilio library's own signer, which its validator accepts", () => {
    const request = createTwilioWebhookRequest({
      url: WEBHOOK_URL,
      authToken: "token",
      params: { Body: "hi", From: CUSTOMER, To: BOT_NUMBER, MessageSid: "SM1" },
    });
    const signature = request.headers.get("x-twilio-signature") ?? "";

    expect(
      twilio.validateRequest("token", signature, WEBHOOK_URL, {
        Body: "hi",
        From: CUSTOMER,
        To: BOT_NUMBER,
        MessageSid: "SM1",
      }),
    ).toBe(true);
  });
});
