import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness() {
  const created = await createSlackHarness();
  harnesses.push(created);
  created.fake.reset();
  return created;
}

const PROMPTS = [{ title: "Summarize", message: "Summarize this channel" }];

function jsonArg(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

describe("publishHomeView", () => {
  it("publishes a home tab view", async () => {
    const h = await harness();
    const view = {
      type: "home",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "Hi" } }],
    };
    await h.adapter.publishHomeView("U123", view);
    const [call] = h.fake.callsOf("views.publish");
    expect(call?.args.user_id).toBe("U123");
    expect(jsonArg(call?.args.view)).toEqual(view);
    expect(call?.token).toBe(h.fake.botToken);
  });
});

describe("setSuggestedPrompts", () => {
  it("sets suggested prompts for assistant thread", async () => {
    const h = await harness();
    await h.adapter.setSuggestedPrompts("D123", "1700000000.000100", PROMPTS);
    const [call] = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
    expect(call?.args).toMatchObject({ channel_id: "D123", thread_ts: "1700000000.000100" });
    expect(jsonArg(call?.args.prompts)).toEqual(PROMPTS);
    expect(call?.args.title).toBeUndefined();
  });

  it("passes optional title", async () => {
    const h = await harness();
    await h.adapter.setSuggestedPrompts("D123", "1700000000.000100", PROMPTS, "Try these");
    const [call] = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
    expect(call?.args.title).toBe("Try these");
  });
});

describe("setSuggestedPrompts thread_ts optional", () => {
  it("omits thread_ts when not provided", async () => {
    const h = await harness();
    await h.adapter.setSuggestedPrompts("D123", undefined, PROMPTS);
    const [call] = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
    expect(call?.args.channel_id).toBe("D123");
    expect(call?.args).not.toHaveProperty("thread_ts");
  });

  it("includes thread_ts when provided", async () => {
    const h = await harness();
    await h.adapter.setSuggestedPrompts("D123", "1700000000.000200", PROMPTS);
    const [call] = h.fake.callsOf("assistant.threads.setSuggestedPrompts");
    expect(call?.args.thread_ts).toBe("1700000000.000200");
  });
});

describe("setAssistantStatus", () => {
  it("sets assistant thread status", async () => {
    const h = await harness();
    await h.adapter.setAssistantStatus("D123", "1700000000.000100", "is thinking...");
    const [call] = h.fake.callsOf("assistant.threads.setStatus");
    expect(call?.args).toMatchObject({
      channel_id: "D123",
      thread_ts: "1700000000.000100",
      status: "is thinking...",
    });
    expect(call?.args).not.toHaveProperty("loading_messages");
    expect(h.fake.store.statuses.at(-1)).toEqual({
      channel: "D123",
      threadTs: "1700000000.000100",
      status: "is thinking...",
    });
  });

  it("passes loading messages when provided", async () => {
    const h = await harness();
    await h.adapter.setAssistantStatus("D123", "1700000000.000100", "working", [
      "Reading…",
      "Writing…",
    ]);
    const [call] = h.fake.callsOf("assistant.threads.setStatus");
    expect(jsonArg(call?.args.loading_messages)).toEqual(["Reading…", "Writing…"]);
  });
});

describe("setAssistantTitle", () => {
  it("sets title for assistant thread", async () => {
    const h = await harness();
    await h.adapter.setAssistantTitle("D123", "1700000000.000100", "Quarterly numbers");
    const [call] = h.fake.callsOf("assistant.threads.setTitle");
    expect(call?.args).toMatchObject({
      channel_id: "D123",
      thread_ts: "1700000000.000100",
      title: "Quarterly numbers",
    });
  });

  it("rejects a title Slack refuses, naming the method (Baton)", async () => {
    const h = await harness();
    await expect(h.adapter.setAssistantTitle("D123", "1700000000.000100", "")).rejects.toThrow(
      /assistant\.threads\.setTitle/,
    );
  });
});
