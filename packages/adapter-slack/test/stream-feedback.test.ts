import { ConfigError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { buildFeedbackButtonsBlock, createSlackAdapter } from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness(...args: Parameters<typeof createSlackHarness>) {
  const h = await createSlackHarness(...args);
  harnesses.push(h);
  h.fake.reset();
  return h;
}

const THREAD = "slack:D123:1234567890.000000";
const RECIPIENT = { recipientUserId: "U1", recipientTeamId: "T1" };

async function* hello() {
  yield "hello";
}

/** The blocks the stream's `chat.stopStream` carried. */
function stopBlocks(h: SlackHarness): unknown {
  const stops = h.fake.callsOf("chat.stopStream");
  expect(stops).toHaveLength(1);
  return stops[0]?.args.blocks;
}

describe("feedbackButtons", () => {
  it("appends a feedback context_actions block on stream stop", async () => {
    const h = await harness({ feedbackButtons: true });
    await h.adapter.stream(THREAD, hello(), RECIPIENT);
    expect(stopBlocks(h)).toEqual([
      {
        type: "context_actions",
        elements: [
          {
            type: "feedback_buttons",
            action_id: "message_feedback",
            positive_button: {
              text: { type: "plain_text", text: "Good response" },
              value: "positive",
            },
            negative_button: {
              text: { type: "plain_text", text: "Bad response" },
              value: "negative",
            },
          },
        ],
      },
    ]);
    // The fake keeps what Slack would show under the finished reply.
    expect(h.fake.store.messages.at(-1)?.blocks).toEqual([buildFeedbackButtonsBlock()]);
  });

  it("honors custom labels, values, and action id", async () => {
    const h = await harness({
      feedbackButtons: {
        actionId: "ai_feedback",
        negativeLabel: "Nope",
        negativeValue: "down",
        positiveLabel: "Nice",
        positiveValue: "up",
      },
    });
    await h.adapter.stream(THREAD, hello(), RECIPIENT);
    const [block] = stopBlocks(h) as Array<{ elements: Array<Record<string, unknown>> }>;
    const element = block?.elements[0];
    expect(element?.action_id).toBe("ai_feedback");
    expect(element?.positive_button).toEqual({
      text: { type: "plain_text", text: "Nice" },
      value: "up",
    });
    expect(element?.negative_button).toEqual({
      text: { type: "plain_text", text: "Nope" },
      value: "down",
    });
  });

  it("places feedback buttons after caller stopBlocks", async () => {
    const h = await harness({ feedbackButtons: true });
    const endWith = { type: "actions", elements: [] };
    await h.adapter.stream(THREAD, hello(), { ...RECIPIENT, stopBlocks: [endWith] });
    const blocks = stopBlocks(h) as Array<{ type: string }>;
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toEqual(endWith);
    expect(blocks[1]?.type).toBe("context_actions");
  });

  it("attaches no blocks when unconfigured", async () => {
    for (const feedbackButtons of [undefined, false]) {
      const h = await harness({ feedbackButtons });
      await h.adapter.stream(THREAD, hello(), RECIPIENT);
      expect(stopBlocks(h)).toBeUndefined();
      expect(h.fake.callsOf("chat.stopStream")[0]?.args).not.toHaveProperty("blocks");
    }
  });

  it("routes feedback button clicks through onAction", async () => {
    const h = await harness({ feedbackButtons: true });
    const seen: Array<Record<string, unknown>> = [];
    h.chat.onAction("message_feedback", (event) => {
      seen.push({ actionId: event.actionId, value: event.value, thread: event.thread?.id });
    });
    const response = await h.deliverForm({
      payload: JSON.stringify({
        type: "block_actions",
        user: { id: "U1", username: "user" },
        trigger_id: "trigger-1",
        channel: { id: "D123", name: "dm" },
        container: { type: "message", message_ts: "1234567890.111111", channel_id: "D123" },
        message: { ts: "1234567890.111111", thread_ts: "1234567890.000000" },
        actions: [
          {
            type: "feedback_buttons",
            action_id: "message_feedback",
            value: "positive",
            action_ts: "1234567891.000000",
          },
        ],
      }),
    });
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      { actionId: "message_feedback", value: "positive", thread: "slack:D123:1234567890.000000" },
    ]);
  });

  it("exposes buildFeedbackButtonsBlock defaults", () => {
    expect(buildFeedbackButtonsBlock()).toEqual({
      type: "context_actions",
      elements: [
        {
          type: "feedback_buttons",
          action_id: "message_feedback",
          positive_button: {
            text: { type: "plain_text", text: "Good response" },
            value: "positive",
          },
          negative_button: {
            text: { type: "plain_text", text: "Bad response" },
            value: "negative",
          },
        },
      ],
    });
  });

  it("adds no feedback buttons to a reply that falls back to post and edit", async () => {
    const h = await harness({ feedbackButtons: true });
    h.fake.failNext("chat.startStream", { error: "internal_error" });
    await h.chat.thread(THREAD).post(hello());
    expect(h.fake.callsOf("chat.stopStream")).toEqual([]);
    const writes = [...h.fake.callsOf("chat.postMessage"), ...h.fake.callsOf("chat.update")];
    expect(writes.length).toBeGreaterThanOrEqual(1);
    for (const write of writes) expect(JSON.stringify(write.args)).not.toContain("feedback");
    expect(h.fake.store.messages.at(-1)?.text).toBe("hello");
  });

  it("is checked by the fake as Slack checks it: a malformed block fails the stop", async () => {
    const h = await harness();
    const clock = h.clock;
    async function* answer() {
      await clock.advance(1_000);
      yield "rendered ";
      yield "text";
    }
    const broken = { type: "context_actions", elements: [{ type: "feedback_buttons" }] };
    await expect(
      h.adapter.stream(THREAD, answer(), { ...RECIPIENT, stopBlocks: [broken] }),
    ).rejects.toMatchObject({ slackError: "invalid_blocks" });
  });
});

describe("nativeStreaming and feedbackButtons options", () => {
  const base = { botToken: "xoxb-test", signingSecret: "secret" };

  it("refuses feedback button texts Slack would refuse, naming the field", () => {
    const create = () =>
      createSlackAdapter({
        ...base,
        feedbackButtons: { positiveLabel: "x".repeat(76), actionId: "" },
      });
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(/feedbackButtons\.positiveLabel/);
    expect(create).toThrow(/feedbackButtons\.actionId/);
  });

  it("refuses option values of the wrong type instead of ignoring them", () => {
    const wrong = {
      ...base,
      nativeStreaming: "no",
      feedbackButtons: "yes",
    } as unknown as Parameters<typeof createSlackAdapter>[0];
    expect(() => createSlackAdapter(wrong)).toThrow(/nativeStreaming must be true or false/);
    expect(() => createSlackAdapter(wrong)).toThrow(/feedbackButtons must be true, false/);
  });
});
