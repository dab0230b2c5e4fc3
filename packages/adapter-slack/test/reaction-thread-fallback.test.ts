import type { Logger } from "@baton/core";
import { describe, expect, it } from "vitest";
import { harness } from "./webhook-helpers.js";

/** Every line the adapter logged, as `level message` plus the first argument. */
function recordingLogger() {
  const lines: Array<{ level: string; message: string; data: unknown }> = [];
  const at =
    (level: string) =>
    (message: string, data?: unknown): void => {
      lines.push({ level, message, data });
    };
  const logger: Logger = {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
  return { logger, lines };
}

/** A `reaction_added` event as Slack's Events API documents it. */
function reactionAdded(channel: string, ts: string) {
  return {
    type: "reaction_added",
    user: "U024BE7LH",
    reaction: "thumbsup",
    item_user: "U0G9QF9C6",
    item: { type: "message", channel, ts },
    event_ts: "1360782804.083113",
  };
}

async function reactionHarness() {
  const { logger, lines } = recordingLogger();
  const h = await harness({ logger });
  const seen: Array<{ threadId: string | undefined; messageId: string; emoji: string }> = [];
  h.chat.onReaction((event) => {
    seen.push({ threadId: event.thread?.id, messageId: event.messageId, emoji: event.rawEmoji });
  });
  return { h, seen, lines };
}

describe("reactions whose thread look-up Slack refuses", () => {
  it("delivers a reaction on a message conversations.replies cannot find (thread_not_found) in the message's own thread", async () => {
    const { h, seen, lines } = await reactionHarness();
    const response = await h.deliver(h.envelope(reactionAdded("C0G9QF9GZ", "1360782400.498405")));
    await h.settle();
    expect(response.status).toBe(200);
    expect(h.fake.callsOf("conversations.replies")).toHaveLength(1);
    expect(seen).toEqual([
      {
        threadId: "slack:C0G9QF9GZ:1360782400.498405",
        messageId: `${h.fake.teamId}:C0G9QF9GZ:1360782400.498405`,
        emoji: "thumbsup",
      },
    ]);
    expect(lines.filter((line) => line.level === "error")).toEqual([]);
    expect(lines.filter((line) => line.level === "warn")).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ slackError: "thread_not_found" }),
      }),
    ]);
  });

  it.each(["missing_scope", "not_in_channel"])(
    "delivers a reaction in the message's own thread when the look-up answers %s",
    async (slackError) => {
      const { h, seen, lines } = await reactionHarness();
      const message = h.fake.store.add({
        channel: "C456",
        text: "hi",
        user: "U1",
        team: h.fake.teamId,
      });
      h.fake.failNext("conversations.replies", { error: slackError });
      await h.deliver(h.envelope(reactionAdded("C456", message.ts)));
      await h.settle();
      expect(seen).toEqual([
        {
          threadId: `slack:C456:${message.ts}`,
          messageId: `${h.fake.teamId}:C456:${message.ts}`,
          emoji: "thumbsup",
        },
      ]);
      expect(lines.filter((line) => line.level === "error")).toEqual([]);
      expect(lines.filter((line) => line.level === "warn")).toEqual([
        expect.objectContaining({ data: expect.objectContaining({ slackError }) }),
      ]);
    },
  );

  it("delivers a reaction in a DM whose look-up fails in the DM's top-level thread", async () => {
    const { h, seen } = await reactionHarness();
    h.fake.failNext("conversations.replies", { error: "missing_scope" });
    await h.deliver(h.envelope(reactionAdded("D0G9QF9GZ", "1360782400.498405")));
    await h.settle();
    expect(seen.map((event) => event.threadId)).toEqual(["slack:D0G9QF9GZ:"]);
  });

  it("still fails the reaction, logged at error, when the look-up fails for another reason", async () => {
    const { h, seen, lines } = await reactionHarness();
    const message = h.fake.store.add({
      channel: "C456",
      text: "hi",
      user: "U1",
      team: h.fake.teamId,
    });
    h.fake.failNext("conversations.replies", { error: "internal_error" });
    await h.deliver(h.envelope(reactionAdded("C456", message.ts)));
    await h.settle();
    expect(seen).toEqual([]);
    expect(lines.filter((line) => line.level === "error")).toHaveLength(1);
  });
});
