import { createTwilioAdapter } from "@baton/adapter-twilio";
import {
  createTwilioWebhookRequest,
  type FakeTwilio,
  startFakeTwilio,
} from "@baton/adapter-twilio/testing";
import { createMemoryState } from "@baton/state-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices } from "../src/bot.js";
import { type AgentServer, startAgentServer } from "../src/server.js";
import { driveLocalModel, eventually } from "./platform-harness.js";

const BOT_NUMBER = "+15550000001";
const PATH = "/api/twilio";
/** The public URL configured on the number: what Twilio signs, whatever host serves it. */
const PUBLIC_URL = `https://agent.example.com${PATH}`;

describe("the agent bot on SMS (Twilio adapter, offline fake)", () => {
  // The model's pace follows a fake clock, so the test decides how far an answer has got.
  const model = driveLocalModel();
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
      model: model.model,
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

  it("answers an SMS in one message (SMS cannot stream), after reading the history core keeps", async () => {
    const customer = "+15550000002";
    await text(customer, "what is Baton?");
    // The stop card arrives first, as a numbered menu.
    await eventually(
      () => fake.bodiesTo(customer),
      (bodies) => bodies.length === 1,
    );
    expect(fake.bodiesTo(customer)[0]).toMatch(/Answering…[\s\S]*1[.)]?\s*Stop/);
    await model.finish();
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
    await model.write(8);
    await text(customer, "1");
    // The stop ends the answer with no further word: wait for it in real time, then let the
    // model's clock run on to show that nothing more is said.
    await eventually(
      () => fake.bodiesTo(customer),
      (seen) => seen.includes(notices.stopped),
    );
    await model.tick(100);
    const bodies = fake.bodiesTo(customer);
    const answer = bodies.find((body) => body?.startsWith("I read the last"));
    expect(answer).toBeDefined();
    expect(answer).not.toMatch(/deterministic/);
    expect(bodies.at(-1)).toBe(notices.stopped);
  });
});
