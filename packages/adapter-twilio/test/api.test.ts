import { systemClock } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { TwilioApi, TwilioApiError } from "../src/index.js";
import { startFakeTwilio } from "../src/testing/index.js";
import { BOT_NUMBER, CUSTOMER } from "./twilio-harness.js";

const fakes: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

async function apiOnFake() {
  const fake = await startFakeTwilio();
  fakes.push(fake);
  const api = new TwilioApi({
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    apiKeySid: undefined,
    apiKeySecret: undefined,
    apiUrl: fake.url,
    maxRetries: 0,
    retryBaseDelayMs: 1,
    clock: systemClock,
    logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
  });
  return { fake, api };
}

describe("Twilio api helpers", () => {
  it("supports object-shaped raw API calls", async () => {
    const { fake, api } = await apiOnFake();

    const created = (await api.request({
      method: "post",
      uri: `https://api.twilio.com/2010-04-01/Accounts/${fake.accountSid}/Messages.json`,
      data: { To: CUSTOMER, From: BOT_NUMBER, Body: "raw" },
    })) as { sid: string; body: string };

    expect(created.sid).toMatch(/^SM/);
    expect(created.body).toBe("raw");
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", username: fake.accountSid });
  });

  it("sends form encoded messages with phone number sender", async () => {
    const { fake, api } = await apiOnFake();

    await api.sendMessage({ to: CUSTOMER, from: BOT_NUMBER, body: "hello" });

    expect(fake.requests.at(-1)?.params).toEqual({ To: CUSTOMER, From: BOT_NUMBER, Body: "hello" });
  });

  it("sends messages with a messaging service sid", async () => {
    const { fake, api } = await apiOnFake();

    await api.sendMessage({ to: CUSTOMER, messagingServiceSid: "MG123", body: "hello" });

    expect(fake.requests.at(-1)?.params).toEqual({
      To: CUSTOMER,
      MessagingServiceSid: "MG123",
      Body: "hello",
    });
  });

  it("fetches messages by sid", async () => {
    const { api } = await apiOnFake();
    const sent = await api.sendMessage({ to: CUSTOMER, from: BOT_NUMBER, body: "hello" });

    const fetched = await api.fetchMessage(sent.sid);

    expect(fetched).toMatchObject({ sid: sent.sid, to: CUSTOMER, from: BOT_NUMBER, body: "hello" });
  });

  it("lists messages with from and to filters", async () => {
    const { api } = await apiOnFake();
    await api.sendMessage({ to: CUSTOMER, from: BOT_NUMBER, body: "one" });
    await api.sendMessage({ to: "+15550009999", from: BOT_NUMBER, body: "elsewhere" });
    await api.sendMessage({ to: CUSTOMER, from: BOT_NUMBER, body: "two" });

    const listed = await api.listMessages({ from: BOT_NUMBER, to: CUSTOMER });

    expect(listed.map((message) => message.body)).toEqual(["two", "one"]);
  });

  it("deletes messages by sid", async () => {
    const { fake, api } = await apiOnFake();
    const sent = await api.sendMessage({ to: CUSTOMER, from: BOT_NUMBER, body: "oops" });

    await api.deleteMessage(sent.sid);

    expect(fake.messages[0]?.deleted).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({ method: "DELETE" });
  });

  it("updates live calls with TwiML", async () => {
    const { fake, api } = await apiOnFake();
    const sid = fake.startCall(CUSTOMER, BOT_NUMBER);

    const call = await api.updateCall(sid, { twiml: "<Response><Say>hello</Say></Response>" });

    expect(call).toEqual({ sid, status: "in-progress" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: `/2010-04-01/Accounts/${fake.accountSid}/Calls/${sid}.json`,
    });
    expect(fake.calls[0]?.updates).toEqual([{ Twiml: "<Response><Say>hello</Say></Response>" }]);
  });

  it("updates live calls with a redirect URL", async () => {
    const { fake, api } = await apiOnFake();
    const sid = fake.startCall(CUSTOMER, BOT_NUMBER);

    await api.updateCall(sid, { url: "https://example.com/voice", method: "GET" });

    expect(fake.calls[0]?.updates).toEqual([{ Url: "https://example.com/voice", Method: "GET" }]);
  });

  it("fetches media with basic auth", async () => {
    const { fake, api } = await apiOnFake();
    const url = fake.addMedia(new Uint8Array([0xff, 0xd8, 0x00, 0x7f]), "image/jpeg");

    const bytes = await api.fetchMedia(url);

    expect([...bytes]).toEqual([0xff, 0xd8, 0x00, 0x7f]);
    expect(fake.requests.at(-1)?.username).toBe(fake.accountSid);
  });

  it("fetches media from the configured regional api origin", async () => {
    const { fake, api } = await apiOnFake();
    const url = fake
      .addMedia("regional")
      .replace("https://api.twilio.com", "https://api.dublin.ie1.twilio.com");

    const bytes = await api.fetchMedia(url);

    expect(new TextDecoder().decode(bytes)).toBe("regional");
  });

  it("rejects media outside the configured api origin", async () => {
    const { fake, api } = await apiOnFake();

    for (const url of [
      "https://attacker.example/media/1",
      "http://api.twilio.com/insecure",
      "nope",
    ]) {
      await expect(api.fetchMedia(url), url).rejects.toThrow(/untrusted/);
    }
    expect(fake.requests).toEqual([]);
  });

  it("throws TwilioApiError for non-ok responses", async () => {
    const { fake, api } = await apiOnFake();
    fake.failNext("messages.create", { status: 400, code: 21211 });

    const error = await api
      .sendMessage({ to: "nope", from: BOT_NUMBER, body: "x" })
      .catch((e) => e);

    expect(error).toBeInstanceOf(TwilioApiError);
    expect(error).toMatchObject({
      status: 400,
      twilioCode: 21211,
      moreInfo: "https://www.twilio.com/docs/errors/21211",
    });
    expect(error.message).toMatch(/^twilio: send a message: .*21211/);
  });

  it("rejects ambiguous call updates", async () => {
    const { fake, api } = await apiOnFake();
    const sid = fake.startCall(CUSTOMER, BOT_NUMBER);
    const both = { twiml: "<Response></Response>", url: "https://example.com/voice" };

    await expect(api.updateCall(sid, both as never)).rejects.toThrow("mutually exclusive");
    await expect(api.updateCall(sid, {} as never)).rejects.toThrow("mutually exclusive");
    expect(fake.requests).toEqual([]);
  });
});
