import { createTwilioAdapter } from "@baton/adapter-twilio";
import {
  createTwilioWebhookRequest,
  type FakeTwilio,
  startFakeTwilio,
} from "@baton/adapter-twilio/testing";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices } from "../src/bot.js";
import { createLocalModel } from "../src/local-model.js";
import { type AgentServer, startAgentServer } from "../src/server.js";

const BOT_NUMBER = "+15550000001";
const PATH = "/api/twilio";
/** The public URL configured on the number: what Twilio signs, whatever host serves it. */
const PUBLIC_URL = `https://agent.example.com${PATH}`;

/** Waits (real time: the bot answers after the webhook, over real sockets) for `predicate`. */
async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > 15_000) throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the agent bot on SMS (Twilio adapter, offline fake)", () => {
  // The model's pace follows this clock, so the test decides how far an answer has got.
  const modelClock = createFakeClock();
  let fake: FakeTwilio;
  let server: AgentServer;
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
    server = await startAgentServer({
      state: createMemoryState(),
      model: createLocalModel({ clock: modelClock, chunkDelayMs: 1_000 }),
      port: 0,
      logger: "silent",
      platforms: [{ adapter: twilio, path: PATH }],
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  /** An SMS from `from`, signed for the public URL and sent to this server's Twilio route. */
  const text = async (from: string, body: string) => {
    sequence += 1;
    const signed = createTwilioWebhookRequest({
      url: PUBLIC_URL,
      authToken: fake.authToken,
      params: {
        MessageSid: `SM${String(sequence).padStart(32, "0")}`,
        From: from,
        To: BOT_NUMBER,
        Body: body,
        NumMedia: "0",
      },
    });
    const response = await fetch(`${server.url}${PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
    expect(response.status).toBe(200);
  };

  /** Lets the model write `words` more words, one fake second each. */
  const write = async (words: number) => {
    for (let word = 0; word < words; word++) {
      await modelClock.advance(1_000);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  it("answers an SMS in one message (SMS cannot stream), after reading the history core keeps", async () => {
    const customer = "+15550000002";
    await text(customer, "what is Baton?");
    // The stop card arrives first, as a numbered menu.
    await eventually(
      () => fake.bodiesTo(customer),
      (bodies) => bodies.length === 1,
    );
    expect(fake.bodiesTo(customer)[0]).toMatch(/Answering…[\s\S]*1[.)]?\s*Stop/);
    await write(200);
    const bodies = await eventually(
      () => fake.bodiesTo(customer),
      (seen) => seen.length === 2,
    );
    // Twilio has no history API; fetchMessages reads the history core keeps
    // (persistThreadHistory), which holds the question.
    expect(bodies[1]).toMatch(
      /^I read the last [1-9]\d* messages of this conversation\. You asked: "what is Baton\?"\..*deterministic/s,
    );
  });

  it("stops an answer mid-stream when the customer replies with the stop button's number", async () => {
    const customer = "+15550000003";
    await text(customer, "tell me everything");
    await eventually(
      () => fake.bodiesTo(customer),
      (bodies) => bodies.length === 1,
    );
    await write(8);
    await text(customer, "1");
    await write(100);
    const bodies = await eventually(
      () => fake.bodiesTo(customer),
      (seen) => seen.includes(notices.stopped),
    );
    const answer = bodies.find((body) => body?.startsWith("I read the last"));
    expect(answer).toBeDefined();
    expect(answer).not.toMatch(/deterministic/);
    expect(bodies.at(-1)).toBe(notices.stopped);
  });
});
