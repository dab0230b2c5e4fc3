import { RateLimitError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { SlackApiError } from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness(...args: Parameters<typeof createSlackHarness>) {
  const created = await createSlackHarness(...args);
  harnesses.push(created);
  created.fake.reset();
  return created;
}

const THREAD = "slack:C123:1234567890.123456";

describe("postMessage", () => {
  it("posts a text message to a thread", async () => {
    const h = await harness();
    const result = await h.adapter.postMessage(THREAD, "Hello world");
    const [call] = h.fake.callsOf("chat.postMessage");
    expect(call?.args).toMatchObject({
      channel: "C123",
      thread_ts: "1234567890.123456",
      text: "Hello world",
    });
    expect(call?.token).toBe(h.fake.botToken);
    const stored = h.fake.store.messages.at(-1);
    expect(result).toMatchObject({ id: `${h.fake.teamId}:C123:${stored?.ts}`, threadId: THREAD });
  });

  it("posts to a channel with empty threadTs", async () => {
    const h = await harness();
    await h.adapter.postMessage("slack:C123:", "Top level");
    const [call] = h.fake.callsOf("chat.postMessage");
    expect(call?.args.channel).toBe("C123");
    expect(call?.args.thread_ts).toBeUndefined();
  });

  it("sets unfurl_links and unfurl_media to false", async () => {
    const h = await harness();
    await h.adapter.postMessage(THREAD, "see https://example.com");
    const [call] = h.fake.callsOf("chat.postMessage");
    expect(call?.args).toMatchObject({ unfurl_links: "false", unfurl_media: "false" });
  });

  it("renders markdown as mrkdwn and a card as Block Kit with its text fallback", async () => {
    const h = await harness();
    await h.adapter.postMessage(THREAD, { markdown: "**bold** and [a link](https://x.dev) & <b>" });
    await h.adapter.postMessage(THREAD, {
      type: "card",
      title: "Order",
      children: [{ type: "text", content: "Ready" }],
    } as never);
    const [text, card] = h.fake.callsOf("chat.postMessage");
    expect(text?.args.text).toBe("*bold* and <https://x.dev|a link> &amp; &lt;b&gt;");
    expect(card?.args.text).toContain("Order");
    expect(card?.args.blocks).toEqual([
      { type: "header", text: { type: "plain_text", text: "Order", emoji: true } },
      { type: "section", text: { type: "mrkdwn", text: "Ready" } },
    ]);
  });

  it("splits text over Slack's 40 000-character limit into several posts, never a refusal", async () => {
    const h = await harness();
    const paragraph = `${"word ".repeat(3_000).trim()}\n\n`;
    await h.adapter.postMessage(THREAD, { raw: paragraph.repeat(4) });
    const calls = h.fake.callsOf("chat.postMessage");
    expect(calls.length).toBe(2);
    for (const call of calls) expect(String(call.args.text).length).toBeLessThanOrEqual(40_000);
  });
});

describe("postEphemeral", () => {
  it("posts an ephemeral message to a user", async () => {
    const h = await harness();
    const result = await h.adapter.postEphemeral(THREAD, "U456", "Secret message");
    const [call] = h.fake.callsOf("chat.postEphemeral");
    expect(call?.args).toMatchObject({
      channel: "C123",
      user: "U456",
      text: "Secret message",
      thread_ts: "1234567890.123456",
    });
    expect(result).toMatchObject({ threadId: THREAD, usedFallback: false });
    expect(result.id).toMatch(/^\d+\.\d+$/);
  });

  it("handles empty message_ts in response", async () => {
    const h = await harness();
    h.fake.answerNext("chat.postEphemeral", { ok: true });
    const result = await h.adapter.postEphemeral(THREAD, "U456", "Secret");
    expect(result).toMatchObject({ id: "", threadId: THREAD, usedFallback: false });
  });

  it("normalizes empty threadTs to undefined", async () => {
    const h = await harness();
    await h.adapter.postEphemeral("slack:C123:", "U456", "Secret");
    expect(h.fake.callsOf("chat.postEphemeral")[0]?.args.thread_ts).toBeUndefined();
  });
});

describe("editMessage", () => {
  it("edits a regular text message", async () => {
    const h = await harness();
    const posted = await h.adapter.postMessage(THREAD, "first");
    await h.adapter.editMessage(THREAD, posted.id, "second");
    const [call] = h.fake.callsOf("chat.update");
    expect(call?.args).toMatchObject({ channel: "C123", text: "second" });
    expect(h.fake.store.messages.at(-1)?.text).toBe("second");
  });
});

describe("deleteMessage", () => {
  it("deletes a message by ID", async () => {
    const h = await harness();
    const posted = await h.adapter.postMessage(THREAD, "bye");
    await h.adapter.deleteMessage(THREAD, posted.id);
    const ts = h.fake.store.messages.at(-1)?.ts;
    expect(h.fake.callsOf("chat.delete")[0]?.args).toMatchObject({ channel: "C123", ts });
    expect(h.fake.store.messages.at(-1)?.deleted).toBe(true);
  });
});

describe("addReaction", () => {
  it("adds a reaction to a message", async () => {
    const h = await harness();
    const posted = await h.adapter.postMessage(THREAD, "react to me");
    await h.adapter.addReaction(THREAD, posted.id, "thumbs_up");
    const [call] = h.fake.callsOf("reactions.add");
    expect(call?.args).toMatchObject({ channel: "C123", name: "+1" });
  });

  it("strips colons from emoji names", async () => {
    const h = await harness();
    const posted = await h.adapter.postMessage(THREAD, "react to me");
    await h.adapter.addReaction(THREAD, posted.id, ":fire:");
    expect(h.fake.callsOf("reactions.add")[0]?.args.name).toBe("fire");
  });
});

describe("removeReaction", () => {
  it("removes a reaction from a message", async () => {
    const h = await harness();
    const posted = await h.adapter.postMessage(THREAD, "react to me");
    await h.adapter.addReaction(THREAD, posted.id, "fire");
    await h.adapter.removeReaction(THREAD, posted.id, "fire");
    expect(h.fake.callsOf("reactions.remove")[0]?.args).toMatchObject({
      channel: "C123",
      name: "fire",
    });
    expect(h.fake.store.messages.at(-1)?.reactions.size).toBe(0);
  });
});

describe("openModal", () => {
  const modal = {
    type: "modal" as const,
    callbackId: "feedback",
    title: "Feedback",
    children: [{ type: "text_input" as const, id: "comment", label: "Comment" }],
  };

  it("opens a modal with trigger ID", async () => {
    const h = await harness();
    const result = await h.adapter.openModal("trigger-1", modal);
    const [call] = h.fake.callsOf("views.open");
    expect(call?.args.trigger_id).toBe("trigger-1");
    expect(call?.args.view).toMatchObject({ type: "modal", callback_id: "feedback" });
    expect(result.viewId).toMatch(/^V/);
  });

  it("passes contextId as encoded private_metadata", async () => {
    const h = await harness();
    await h.adapter.openModal("trigger-1", modal, "context-uuid-123");
    const view = h.fake.callsOf("views.open")[0]?.args.view as Record<string, unknown>;
    expect(JSON.parse(String(view.private_metadata))).toEqual({ c: "context-uuid-123" });
  });

  it("encodes modal privateMetadata with contextId", async () => {
    const h = await harness();
    await h.adapter.openModal(
      "trigger-1",
      { ...modal, privateMetadata: '{"orderId":"42"}' },
      "ctx-1",
    );
    const view = h.fake.callsOf("views.open")[0]?.args.view as Record<string, unknown>;
    expect(JSON.parse(String(view.private_metadata))).toEqual({
      c: "ctx-1",
      m: '{"orderId":"42"}',
    });
  });
});

describe("updateModal", () => {
  it("updates an existing modal view", async () => {
    const h = await harness();
    const modal = { type: "modal" as const, callbackId: "m", title: "One", children: [] };
    const { viewId } = await h.adapter.openModal("trigger-1", modal);
    const result = await h.adapter.updateModal(viewId, { ...modal, title: "Two" });
    expect(result.viewId).toBe(viewId);
    expect(h.fake.callsOf("views.update")[0]?.args).toMatchObject({ view_id: viewId });
    expect(h.fake.store.views.get(viewId)?.title).toMatchObject({ text: "Two" });
  });
});

describe("startTyping", () => {
  it("calls assistant.threads.setStatus with default status", async () => {
    const h = await harness();
    await h.adapter.startTyping(THREAD);
    expect(h.fake.store.statuses).toEqual([
      { channel: "C123", threadTs: "1234567890.123456", status: "Typing..." },
    ]);
    expect(h.fake.callsOf("assistant.threads.setStatus")[0]?.args.loading_messages).toEqual([
      "Typing...",
    ]);
  });

  it("uses custom status when provided", async () => {
    const h = await harness();
    await h.adapter.startTyping(THREAD, "Searching docs...");
    expect(h.fake.store.statuses[0]?.status).toBe("Searching docs...");
  });

  it("skips when no threadTs present", async () => {
    const h = await harness();
    await h.adapter.startTyping("slack:D123:");
    expect(h.fake.callsOf("assistant.threads.setStatus")).toEqual([]);
  });

  it("does not throw on API error (logs warning instead)", async () => {
    const h = await harness();
    h.fake.failNext("assistant.threads.setStatus", { error: "not_allowed_token_type" });
    await expect(h.adapter.startTyping(THREAD)).resolves.toBeUndefined();
    expect(h.fake.callsOf("assistant.threads.setStatus")).toHaveLength(1);
  });
});

describe("openDM", () => {
  it("opens a DM conversation and returns thread ID", async () => {
    const h = await harness();
    const threadId = await h.adapter.openDM("U456");
    expect(h.fake.callsOf("conversations.open")[0]?.args.users).toBe("U456");
    expect(threadId).toBe("slack:D456:");
  });

  it("throws when no channel returned", async () => {
    const h = await harness();
    h.fake.answerNext("conversations.open", { ok: true });
    await expect(h.adapter.openDM("U456")).rejects.toBeInstanceOf(SlackApiError);
  });
});

describe("fetchMessages", () => {
  async function seeded() {
    const h = await harness();
    const team = h.fake.teamId;
    const parent = h.fake.store.add({ channel: "C123", text: "parent", user: "U1", team });
    for (const n of [1, 2, 3, 4]) {
      h.fake.store.add({
        channel: "C123",
        text: `reply ${n}`,
        user: "U1",
        team,
        thread_ts: parent.ts,
      });
    }
    return { h, threadId: `slack:C123:${parent.ts}` };
  }

  it("fetches messages in forward direction using cursor pagination", async () => {
    const { h, threadId } = await seeded();
    const first = await h.adapter.fetchMessages(threadId, { direction: "forward", limit: 3 });
    expect(first.messages.map((m) => m.text)).toEqual(["parent", "reply 1", "reply 2"]);
    const second = await h.adapter.fetchMessages(threadId, {
      direction: "forward",
      limit: 3,
      cursor: first.nextCursor,
    });
    expect(second.messages.map((m) => m.text)).toEqual(["reply 3", "reply 4"]);
    expect(second.nextCursor).toBeUndefined();
    expect(h.fake.callsOf("conversations.replies")[1]?.args.cursor).toBe(first.nextCursor);
  });

  it("fetches messages in backward direction (default)", async () => {
    const { h, threadId } = await seeded();
    const page = await h.adapter.fetchMessages(threadId, { limit: 2 });
    expect(page.messages.map((m) => m.text)).toEqual(["reply 4", "reply 3"]);
    expect(page.nextCursor).toBeDefined();
  });

  it("passes cursor for backward pagination", async () => {
    const { h, threadId } = await seeded();
    const first = await h.adapter.fetchMessages(threadId, { limit: 2 });
    const second = await h.adapter.fetchMessages(threadId, { limit: 2, cursor: first.nextCursor });
    const third = await h.adapter.fetchMessages(threadId, { limit: 2, cursor: second.nextCursor });
    expect(second.messages.map((m) => m.text)).toEqual(["reply 2", "reply 1"]);
    expect(third.messages.map((m) => m.text)).toEqual(["parent"]);
    expect(third.nextCursor).toBeUndefined();
  });

  it("walks a channel's top level newest first with Slack's own cursor", async () => {
    const h = await harness();
    for (const n of [1, 2, 3])
      h.fake.store.add({ channel: "C9", text: `m${n}`, user: "U1", team: h.fake.teamId });
    const first = await h.adapter.fetchChannelMessages("slack:C9", { limit: 2 });
    expect(first.messages.map((m) => m.text)).toEqual(["m3", "m2"]);
    const second = await h.adapter.fetchChannelMessages("slack:C9", {
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(second.messages.map((m) => m.text)).toEqual(["m1"]);
  });
});

describe("error handling", () => {
  it("throws AdapterRateLimitError on rate limit", async () => {
    const h = await harness();
    h.fake.failNext("chat.postMessage", { error: "ratelimited", retryAfterSeconds: 0, times: 5 });
    const error = await h.adapter.postMessage(THREAD, "hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(0);
  });

  it("re-throws non-rate-limit errors", async () => {
    const h = await harness();
    h.fake.store.channelErrors.set("C404", "channel_not_found");
    const error = await h.adapter.postMessage("slack:C404:", "hi").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackApiError);
    expect((error as SlackApiError).slackError).toBe("channel_not_found");
    expect((error as SlackApiError).method).toBe("chat.postMessage");
  });

  it("rate limit error in addReaction", async () => {
    const h = await harness();
    h.fake.failNext("reactions.add", { error: "ratelimited", times: 5 });
    await expect(h.adapter.addReaction(THREAD, "1234567890.123456", "fire")).rejects.toBeInstanceOf(
      RateLimitError,
    );
  });

  it("rate limit error in deleteMessage", async () => {
    const h = await harness();
    h.fake.failNext("chat.delete", { error: "ratelimited", times: 5 });
    await expect(h.adapter.deleteMessage(THREAD, "1234567890.123456")).rejects.toBeInstanceOf(
      RateLimitError,
    );
  });

  it("rate limit error in editMessage", async () => {
    const h = await harness();
    h.fake.failNext("chat.update", { error: "ratelimited", times: 5 });
    await expect(h.adapter.editMessage(THREAD, "1234567890.123456", "x")).rejects.toBeInstanceOf(
      RateLimitError,
    );
  });

  it("names not_in_channel and invalid_auth as Slack says them", async () => {
    const h = await harness();
    h.fake.store.channelErrors.set("C777", "not_in_channel");
    const notIn = await h.adapter.postMessage("slack:C777:", "hi").catch((e: unknown) => e);
    expect((notIn as SlackApiError).slackError).toBe("not_in_channel");
    h.fake.failNext("chat.postMessage", { error: "invalid_auth" });
    const auth = await h.adapter.postMessage(THREAD, "hi").catch((e: unknown) => e);
    expect((auth as SlackApiError).slackError).toBe("invalid_auth");
  });

  it("waits out one ratelimited answer and posts when WebClient may retry", async () => {
    const h = await harness({ retryConfig: { retries: 2, minTimeout: 1, maxTimeout: 2 } });
    h.fake.failNext("chat.postMessage", { error: "ratelimited", retryAfterSeconds: 0 });
    await h.adapter.postMessage(THREAD, "after the wait");
    expect(h.fake.callsOf("chat.postMessage")).toHaveLength(2);
    expect(h.fake.store.messages.at(-1)?.text).toBe("after the wait");
  });
});

describe("initialize", () => {
  it("fetches bot user ID on initialize with bot token", async () => {
    const h = await harness();
    expect(h.adapter.botUserId).toBe(h.fake.botUserId);
  });

  it("handles auth.test failure gracefully", async () => {
    const { startFakeSlack } = await import("../src/testing/index.js");
    const { createSlackAdapter } = await import("../src/index.js");
    const fake = await startFakeSlack();
    fake.failNext("auth.test", { error: "invalid_auth" });
    const adapter = createSlackAdapter({
      botToken: fake.botToken,
      signingSecret: "s",
      apiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
    });
    const { createMockChatHost } = await import("./host.js");
    await expect(adapter.initialize(createMockChatHost())).resolves.toBeUndefined();
    expect(adapter.botUserId).toBeUndefined();
    await fake.close();
  });
});

describe("scheduleMessage with empty threadTs", () => {
  it("normalizes empty threadTs to undefined", async () => {
    const h = await harness();
    const postAt = new Date(h.clock.now() + 3_600_000);
    const scheduled = await h.adapter.scheduleMessage("slack:C123:", "later", { postAt });
    const [call] = h.fake.callsOf("chat.scheduleMessage");
    expect(call?.args.thread_ts).toBeUndefined();
    expect(call?.args.post_at).toBe(String(Math.floor(postAt.getTime() / 1_000)));
    expect(scheduled).toMatchObject({ channelId: "slack:C123", postAt });
    await scheduled.cancel();
    expect(h.fake.store.scheduled[0]?.deleted).toBe(true);
  });
});

describe("getUser", () => {
  it("should return user info with email and avatar", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U123", name: "jdoe", realName: "Jane Doe", email: "jane@example.com" });
    expect(await h.adapter.getUser("U123")).toEqual({
      userId: "U123",
      userName: "jdoe",
      fullName: "Jane Doe",
      email: "jane@example.com",
      avatarUrl: "https://avatars.fake.slack.com/U123.png",
      isBot: false,
    });
  });

  it("should return null when API fails", async () => {
    const h = await harness();
    h.fake.failNext("users.info", { error: "internal_error" });
    expect(await h.adapter.getUser("U123")).toBeNull();
  });

  it("should return null when user not found", async () => {
    const h = await harness();
    expect(await h.adapter.getUser("U404")).toBeNull();
  });

  it("should return isBot true for bot users", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U0BOT", name: "helper", isBot: true });
    expect((await h.adapter.getUser("U0BOT"))?.isBot).toBe(true);
  });

  it("should fall through to real_name when display_name is empty", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U321", name: "jdoe", displayName: "", realName: "Jane Doe" });
    expect(await h.adapter.getUser("U321")).toMatchObject({
      userName: "Jane Doe",
      fullName: "Jane Doe",
    });
  });

  it("should call users.info with correct user ID", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U999", name: "x" });
    await h.adapter.getUser("U999");
    expect(h.fake.callsOf("users.info")[0]?.args.user).toBe("U999");
  });

  it("should return cached user without hitting API", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U123", name: "jdoe" });
    const first = await h.chat.getUser("U123");
    const second = await h.chat.getUser("U123");
    expect(first).toEqual(second);
    expect(first?.userName).toBe("jdoe");
    expect(h.fake.callsOf("users.info")).toHaveLength(1);
  });
});

describe("user cache invalidation", () => {
  it("drops the Chat's cached user when Slack sends user_change, so the next lookup asks again", async () => {
    const h = await harness();
    h.fake.addUser({ id: "U123", name: "jdoe" });
    expect((await h.chat.getUser("U123"))?.userName).toBe("jdoe");
    h.fake.addUser({ id: "U123", name: "jane" });
    expect((await h.chat.getUser("U123"))?.userName).toBe("jdoe");
    const response = await h.deliver(
      h.envelope({
        type: "user_change",
        user: { id: "U123", name: "jane", profile: { display_name: "jane" } },
      }),
    );
    await h.settle();
    expect(response.status).toBe(200);
    expect((await h.chat.getUser("U123"))?.userName).toBe("jane");
    expect(h.fake.callsOf("users.info")).toHaveLength(2);
  });
});
