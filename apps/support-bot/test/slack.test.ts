import { createSlackAdapter } from "@baton/adapter-slack";
import {
  createSlackWebhookRequest,
  type FakeSlack,
  startFakeSlack,
} from "@baton/adapter-slack/testing";
import { SLACK_PATH } from "@baton/bot-env";
import { createMemoryState } from "@baton/state-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantAnswer, replies } from "../src/replies.js";
import { type SupportServer, startSupportServer } from "../src/server.js";

const CUSTOMER = "U0CUSTOMER";
const DM_CHANNEL = "D0CUSTOMER";

/** Waits (real time: the bot answers after the webhook, over a real socket) for `predicate`. */
async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > 15_000) throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the support bot on Slack (offline fake Slack)", () => {
  let fake: FakeSlack;
  let server: SupportServer;

  beforeAll(async () => {
    fake = await startFakeSlack();
    const slack = createSlackAdapter({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
    });
    server = await startSupportServer({
      state: createMemoryState(),
      agentIds: ["sam"],
      port: 0,
      logger: "silent",
      platforms: [{ adapter: slack, path: SLACK_PATH, description: "Slack (fake)" }],
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  /** A signed Events API request, as Slack sends it, to this server's Slack route. */
  const send = async (json: Record<string, unknown>, signingSecret = fake.signingSecret) => {
    const signed = createSlackWebhookRequest({ signingSecret, json });
    return fetch(`${server.url}${SLACK_PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
  };
  const postedToCustomer = () =>
    fake
      .callsOf("chat.postMessage")
      .filter((call) => call.args.channel === DM_CHANNEL)
      .map((call) => String(call.args.text ?? ""));

  it("answers a customer's direct message in Slack", async () => {
    const response = await send({
      type: "event_callback",
      team_id: fake.teamId,
      event_id: "Ev1",
      event: {
        type: "message",
        channel_type: "im",
        channel: DM_CHANNEL,
        user: CUSTOMER,
        text: "the export button is broken",
        ts: "1767225600.000100",
      },
    });

    expect(response.status).toBe(200);
    const texts = await eventually(postedToCustomer, (seen) => seen.length >= 2);
    expect(texts).toEqual([replies.welcome, assistantAnswer("the export button is broken", 1)]);
  });

  it("refuses a request Slack did not sign, running nothing", async () => {
    const before = fake.calls.length;

    const response = await send(
      {
        type: "event_callback",
        team_id: fake.teamId,
        event: { type: "message", channel: DM_CHANNEL, user: CUSTOMER, text: "forged", ts: "2.2" },
      },
      "not-the-secret",
    );

    expect(response.status).toBe(401);
    expect(fake.calls.length).toBe(before);
  });
});
