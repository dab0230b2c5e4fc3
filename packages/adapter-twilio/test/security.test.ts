import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createTwilioWebhookRequest } from "../src/testing/index.js";
import { createTwilioHarness, WEBHOOK_URL } from "./twilio-harness.js";

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A harness whose handler records every run, and a check that nothing ran or was written. */
async function guarded(config: Parameters<typeof createTwilioHarness>[0] = {}) {
  const h = await createTwilioHarness(config);
  harnesses.push(h);
  const runs: string[] = [];
  h.chat.onDirectMessage((_thread, message) => {
    runs.push(message.text);
  });
  h.chat.onAction((event) => {
    runs.push(`action ${event.actionId}`);
  });
  const untouched = async () => {
    expect(runs).toEqual([]);
    // No dedupe mark, no opt-out, nothing: the State holds no key at all.
    expect(await h.state.get("dedupe:twilio:SM00000000000000000000000000000001")).toBeNull();
    expect(h.fake.requests).toEqual([]);
  };
  return { h, runs, untouched };
}

describe("a webhook Twilio did not sign is refused before anything runs", () => {
  it("answers 403 to a request signed with another auth token", async () => {
    const { h, untouched } = await guarded();
    const request = createTwilioWebhookRequest({
      url: WEBHOOK_URL,
      authToken: "not-the-token",
      params: h.sms("hi"),
    });

    expect((await h.webhook(request)).status).toBe(403);
    await untouched();
  });

  it("answers 403 when a parameter was changed after signing", async () => {
    const { h, untouched } = await guarded();
    const signed = createTwilioWebhookRequest({
      url: WEBHOOK_URL,
      authToken: h.fake.authToken,
      params: h.sms("pay 10"),
    });
    const body = (await signed.text()).replace("pay+10", "pay+1000");
    const swapped = new Request(WEBHOOK_URL, { method: "POST", headers: signed.headers, body });

    expect((await h.webhook(swapped)).status).toBe(403);
    await untouched();
  });

  it("answers 403 to a request signed for another URL", async () => {
    const { h, untouched } = await guarded();
    const request = createTwilioWebhookRequest({
      url: "https://elsewhere.example.com/api/twilio",
      authToken: h.fake.authToken,
      params: h.sms("hi"),
    });
    const retargeted = new Request(WEBHOOK_URL, {
      method: "POST",
      headers: request.headers,
      body: await request.text(),
    });

    expect((await h.webhook(retargeted)).status).toBe(403);
    await untouched();
  });

  it("answers 403 when the signature header is missing", async () => {
    const { h, untouched } = await guarded();

    expect((await h.webhook(h.request(h.sms("hi"), null))).status).toBe(403);
    await untouched();
  });

  it("checks against the configured public URL, never the Host header a client sent", async () => {
    const { h, untouched } = await guarded();
    // Signed for the attacker's own URL, and sent with that URL as request.url.
    const forged = createTwilioWebhookRequest({
      url: "https://attacker.example/api/twilio",
      authToken: h.fake.authToken,
      params: h.sms("hi"),
    });

    expect((await h.webhook(forged)).status).toBe(403);
    await untouched();
  });

  it("refuses every webhook when no public URL is configured and request.url is not trusted", async () => {
    const { h, untouched } = await guarded({ webhookUrl: undefined });

    expect((await h.deliver(h.sms("hi"))).status).toBe(403);
    await untouched();
  });

  it("answers 413 to a body over the limit, unread", async () => {
    const { h, untouched } = await guarded({ maxBodyBytes: 64 });

    expect((await h.deliver(h.sms("x".repeat(200)))).status).toBe(413);
    await untouched();
  });

  it("answers 4xx to random bodies and content types, and never throws", async () => {
    const { h, untouched } = await guarded();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.constantFrom(
          "application/x-www-form-urlencoded",
          "application/json",
          "text/plain",
          "multipart/form-data; boundary=x",
          "",
        ),
        fc.option(fc.string({ maxLength: 40 }), { nil: null }),
        async (body, type, signature) => {
          const headers: Record<string, string> = {};
          if (type !== "") headers["content-type"] = type;
          if (signature !== null) headers["x-twilio-signature"] = signature;
          const response = await h.webhook(
            new Request(WEBHOOK_URL, { method: "POST", headers, body }),
          );
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 4_242 },
    );
    await untouched();
  });

  it("answers 400 to a signed webhook that lacks Twilio's required parameters", async () => {
    const { h, untouched } = await guarded();

    expect((await h.deliver({ Body: "no addresses", MessageSid: "SM1" })).status).toBe(400);
    await untouched();
  });
});
