import { createSlackAdapter } from "@baton/adapter-slack";
import {
  createSlackWebhookRequest,
  type FakeSlack,
  startFakeSlack,
} from "@baton/adapter-slack/testing";
import { SLACK_PATH } from "@baton/bot-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices, STOP_ACTION } from "../src/bot.js";
import type { AgentServer } from "../src/server.js";
import { type DrivenModel, eventually, startAgentOn } from "./platform-harness.js";

const DM = "D0USER";

describe("the agent bot on Slack (offline fake Slack)", () => {
  let fake: FakeSlack;
  let server: AgentServer;
  let model: DrivenModel;

  beforeAll(async () => {
    fake = await startFakeSlack();
    const slack = createSlackAdapter({
      botToken: fake.botToken,
      signingSecret: fake.signingSecret,
      apiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
    });
    ({ server, ...model } = await startAgentOn(slack, SLACK_PATH));
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
    await model.finish();
    const seen = await eventually(texts, (all) => all.some((t) => /deterministic/.test(t)));
    expect(seen.find((t) => /deterministic/.test(t))).toMatch(
      /^I read the last [1-9]\d* messages.*You asked: "what is Baton\?"/s,
    );
    await eventually(texts, (all) => all.includes(notices.answered));
  });

  it("stops an answer mid-stream when the Stop button on its card is clicked", async () => {
    // The DM's messages in post order (the fake's history is newest first, as Slack's is).
    const inOrder = () => fake.store.history(DM).reverse();
    const before = inOrder().length;
    const signed = createSlackWebhookRequest({
      signingSecret: fake.signingSecret,
      json: {
        type: "event_callback",
        team_id: fake.teamId,
        event_id: "Ev2",
        event: {
          type: "message",
          channel_type: "im",
          channel: DM,
          user: "U0USER",
          text: "tell me everything",
          ts: "1767225700.000100",
        },
      },
    });
    const posted = await fetch(`${server.url}${SLACK_PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
    expect(posted.status).toBe(200);
    const since = () => inOrder().slice(before);
    const card = await eventually(
      () => since().find((message) => message.text.startsWith("Answering")),
      (found) => found !== undefined,
    );
    const button = findButton(card?.blocks, STOP_ACTION);
    expect(button?.value).toMatch(/^slack:D0USER/);
    // Some words, so the answer is under way (posted, then edited as it grows).
    await model.write(6);
    await eventually(
      () => since().map((message) => message.text),
      (all) => all.some((text) => text.startsWith("I read the last")),
    );

    const click = createSlackWebhookRequest({
      signingSecret: fake.signingSecret,
      form: {
        payload: JSON.stringify({
          type: "block_actions",
          team: { id: fake.teamId },
          user: { id: "U0USER", username: "user", name: "User" },
          container: { type: "message", message_ts: card?.ts, channel_id: DM },
          channel: { id: DM, name: "directmessage" },
          message: { ts: card?.ts, text: card?.text },
          trigger_id: "trigger-stop",
          actions: [{ type: "button", action_id: STOP_ACTION, value: button?.value }],
        }),
      },
    });
    const clicked = await fetch(`${server.url}${SLACK_PATH}`, {
      method: "POST",
      headers: click.headers,
      body: await click.text(),
    });
    expect(clicked.status).toBe(200);
    // The card turns into the notice once the stream has ended; only then let the model run on,
    // to show that no further word reaches Slack.
    await eventually(
      () => since().map((message) => message.text),
      (all) => all.includes(notices.stopped),
    );
    await model.tick(100);
    const texts = since().map((message) => message.text);
    expect(texts).not.toContain(notices.answered);
    const answer = texts.find((text) => text.startsWith("I read the last"));
    expect(answer).toBeDefined();
    expect(answer).not.toMatch(/deterministic/);
  }, 60_000);
});

/** The button with `actionId` in Slack blocks (an actions block's elements). */
function findButton(
  blocks: unknown[] | undefined,
  actionId: string,
): { action_id: string; value?: string } | undefined {
  for (const block of blocks ?? []) {
    const elements = (block as { elements?: Array<{ action_id?: string; value?: string }> })
      .elements;
    const found = elements?.find((element) => element.action_id === actionId);
    if (found) return found as { action_id: string; value?: string };
  }
  return undefined;
}
