import { createTeamsAdapter } from "@baton/adapter-teams";
import {
  createTeamsActivityRequest,
  type FakeBotFramework,
  startFakeBotFramework,
} from "@baton/adapter-teams/testing";
import { TEAMS_PATH } from "@baton/bot-env";
import { createMemoryState } from "@baton/state-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantAnswer, replies } from "../src/replies.js";
import { type SupportServer, startSupportServer } from "../src/server.js";

const CUSTOMER = { id: "29:customer-1", name: "Ada Customer", aadObjectId: "aad-customer-1" };
const PERSONAL_CHAT = "a:personal-customer-1";

/** Waits (real time: the bot answers after the webhook, over a real socket) for `predicate`. */
async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > 15_000) throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the support bot on Microsoft Teams (offline fake Bot Framework)", () => {
  let fake: FakeBotFramework;
  let server: SupportServer;
  let sequence = 0;

  beforeAll(async () => {
    fake = await startFakeBotFramework();
    const teams = createTeamsAdapter({
      appId: fake.appId,
      token: fake.tokenFactory(),
      cloud: fake.cloud,
      apiUrl: fake.serviceUrl,
    });
    server = await startSupportServer({
      state: createMemoryState(),
      agentIds: ["sam"],
      port: 0,
      logger: "silent",
      platforms: [{ adapter: teams, path: TEAMS_PATH, description: "Teams (fake)" }],
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  /** The texts the bot sent into the customer's personal chat, in order. */
  const sentToCustomer = () =>
    fake.calls
      .filter((call) => call.route === "activities.create" && call.conversationId === PERSONAL_CHAT)
      .map((call) => String(call.body?.text ?? ""));

  /** The customer writes to the bot, as Teams delivers it: a signed activity to our endpoint. */
  const write = async (text: string) => {
    sequence += 1;
    const signed = createTeamsActivityRequest({
      fake,
      activity: {
        type: "message",
        id: `activity-${sequence}`,
        text,
        serviceUrl: fake.serviceUrl,
        from: CUSTOMER,
        recipient: { id: `28:${fake.appId}`, name: "support" },
        conversation: { id: PERSONAL_CHAT, conversationType: "personal" },
        channelId: "msteams",
      },
    });
    return fetch(`${server.url}${TEAMS_PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
  };

  it("answers a customer in a personal chat, once Teams' signed token checks out", async () => {
    const response = await write("my invoice is wrong");

    expect(response.status).toBeLessThan(300);
    const sent = await eventually(sentToCustomer, (texts) => texts.length >= 2);
    expect(sent.map((text) => text.replace(/\s+/g, " ").trim())).toEqual([
      replies.welcome,
      assistantAnswer("my invoice is wrong", 1),
    ]);
  });

  it("refuses an activity without the Bot Framework's token", async () => {
    const before = fake.calls.length;
    const response = await fetch(`${server.url}${TEAMS_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        type: "message",
        id: "forged-1",
        text: "forged",
        serviceUrl: fake.serviceUrl,
        from: CUSTOMER,
        recipient: { id: `28:${fake.appId}` },
        conversation: { id: PERSONAL_CHAT, conversationType: "personal" },
        channelId: "msteams",
      }),
    });

    expect(response.status).toBe(401);
    expect(fake.calls.length).toBe(before);
  });
});
