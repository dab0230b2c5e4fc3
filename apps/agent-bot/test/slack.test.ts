import { createSlackAdapter } from "@baton/adapter-slack";
import {
  createSlackWebhookRequest,
  type FakeSlack,
  startFakeSlack,
} from "@baton/adapter-slack/testing";
import { SLACK_PATH } from "@baton/bot-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices } from "../src/bot.js";
import type { AgentServer } from "../src/server.js";
import { eventually, startAgentOn } from "./platform-harness.js";

const DM = "D0USER";

describe("the agent bot on Slack (offline fake Slack)", () => {
  let fake: FakeSlack;
  let server: AgentServer;
  let write: (words: number) => Promise<void>;

  beforeAll(async () => {
    fake = await startFakeSlack();
    const slack = createSlackAdapter({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
    });
    ({ server, write } = await startAgentOn(slack, SLACK_PATH));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it("answers a direct message with an answer that read the conversation", async () => {
    const signed = createSlackWebhookRequest({
      signingSecret: fake.signingSecret,
      json: {
        type: "event_callback",
        team_id: fake.teamId,
        event_id: "Ev1",
        event: {
          type: "message",
          channel_type: "im",
          channel: DM,
          user: "U0USER",
          text: "what is Baton?",
          ts: "1767225600.000100",
        },
      },
    });
    const response = await fetch(`${server.url}${SLACK_PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
    expect(response.status).toBe(200);
    const texts = () => fake.store.history(DM).map((message) => message.text);
    await eventually(texts, (seen) => seen.some((text) => text.startsWith("Answering")));
    await write(200);
    const seen = await eventually(texts, (all) => all.some((t) => /deterministic/.test(t)));
    expect(seen.find((t) => /deterministic/.test(t))).toMatch(
      /^I read the last [1-9]\d* messages.*You asked: "what is Baton\?"/s,
    );
    await eventually(texts, (all) => all.includes(notices.answered));
  });
});
