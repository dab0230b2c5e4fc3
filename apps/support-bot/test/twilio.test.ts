import { createTwilioAdapter } from "@baton/adapter-twilio";
import {
  createTwilioWebhookRequest,
  type FakeTwilio,
  startFakeTwilio,
} from "@baton/adapter-twilio/testing";
import { TWILIO_PATH } from "@baton/bot-env";
import { createMemoryState } from "@baton/state-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantAnswer, replies } from "../src/replies.js";
import { type SupportServer, startSupportServer } from "../src/server.js";

const BOT_NUMBER = "+15550000001";
const CUSTOMER = "+15550000002";
/** The public URL configured on the number: what Twilio signs, whatever host serves it. */
const PUBLIC_URL = `https://support.example.com${TWILIO_PATH}`;
const CUSTOMER_THREAD = "twilio:%2B15550000001:%2B15550000002";

/** Waits (real time: the bot answers after the webhook, over a real socket) for `predicate`. */
async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > 15_000) throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the support bot on SMS (Twilio adapter, offline fake)", () => {
  let fake: FakeTwilio;
  let server: SupportServer;
  let sequence = 0;

  beforeAll(async () => {
    fake = await startFakeTwilio();
    const twilio = createTwilioAdapter({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      apiUrl: fake.url,
      phoneNumber: BOT_NUMBER,
      webhookUrl: PUBLIC_URL,
    });
    server = await startSupportServer({
      state: createMemoryState(),
      agentIds: ["sam"],
      port: 0,
      logger: "silent",
      platforms: [{ adapter: twilio, path: TWILIO_PATH, description: "Twilio (fake)" }],
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  /** A customer's SMS, signed for the public URL and sent to this server's Twilio route. */
  const text = async (body: string) => {
    sequence += 1;
    const signed = createTwilioWebhookRequest({
      url: PUBLIC_URL,
      authToken: fake.authToken,
      params: {
        MessageSid: `SM${String(sequence).padStart(32, "0")}`,
        From: CUSTOMER,
        To: BOT_NUMBER,
        Body: body,
        NumMedia: "0",
      },
    });
    return fetch(`${server.url}${TWILIO_PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
  };
  const agentSays = (line: string) =>
    fetch(`${server.url}/api/chat/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-support-user": "sam" },
      body: JSON.stringify({ text: line }),
    });

  it("answers a customer's SMS, and a web agent takes the SMS conversation over and hands it back", async () => {
    const response = await text("where is my parcel?");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("<Response></Response>");
    const first = [replies.welcome, assistantAnswer("where is my parcel?", 1)];
    await eventually(
      () => fake.bodiesTo(CUSTOMER),
      (bodies) => bodies.length >= 2,
    );
    expect(fake.bodiesTo(CUSTOMER)).toEqual(first);

    // Sam works from the web desk and names the SMS conversation.
    expect((await agentSays(`/agent take ${CUSTOMER_THREAD}`)).status).toBe(202);
    await eventually(
      () => fake.bodiesTo(CUSTOMER),
      (bodies) => bodies.includes(replies.agentJoined("sam")),
    );
    await agentSays(`/agent say ${CUSTOMER_THREAD} Hi, Sam here. It left the depot today.`);
    await eventually(
      () => fake.bodiesTo(CUSTOMER),
      (bodies) => bodies.some((body) => body?.includes("Sam here")),
    );
    await agentSays(`/agent release ${CUSTOMER_THREAD}`);
    const bodies = await eventually(
      () => fake.bodiesTo(CUSTOMER),
      (seen) => seen.includes(replies.assistantBack),
    );

    expect(bodies.slice(first.length)).toEqual([
      replies.agentJoined("sam"),
      expect.stringContaining("Hi, Sam here. It left the depot today."),
      replies.assistantBack,
    ]);
  });

  it("refuses an SMS webhook Twilio did not sign", async () => {
    const response = await fetch(`${server.url}${TWILIO_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ From: CUSTOMER, To: BOT_NUMBER, Body: "hi", MessageSid: "SMx" }),
    });

    expect(response.status).toBe(403);
  });
});
