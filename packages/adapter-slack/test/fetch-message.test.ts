import type { Message } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { encodeSlackEphemeralMessageId, SlackApiError } from "../src/index.js";
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

const LINK = "https://myteam.slack.com/archives/C789/p1234567890123456";

describe("fetchMessage", () => {
  it("fetches a single message by ID", async () => {
    const h = await harness();
    h.fake.store.add({
      channel: "C123",
      ts: "1234567890.123456",
      text: "Found it",
      user: "U1",
      team: h.fake.teamId,
    });
    const msg = await h.adapter.fetchMessage("slack:C123:1234567890.000000", "1234567890.123456");
    expect(msg).not.toBeNull();
    expect(msg?.text).toBe("Found it");
    expect(h.fake.callsOf("conversations.replies")[0]?.args).toMatchObject({
      channel: "C123",
      ts: "1234567890.123456",
    });
  });

  it("returns null when message not found", async () => {
    const h = await harness();
    h.fake.answerNext("conversations.replies", {
      ok: true,
      messages: [
        {
          type: "message",
          user: "U1",
          text: "Different msg",
          ts: "9999999999.000000",
          channel: "C123",
        },
      ],
    });
    const msg = await h.adapter.fetchMessage("slack:C123:1234567890.000000", "1234567890.123456");
    expect(msg).toBeNull();
  });

  it("returns null when Slack has no such message (thread_not_found)", async () => {
    const h = await harness();
    expect(await h.adapter.fetchMessage("slack:C123:", "1234567890.123456")).toBeNull();
    expect(h.fake.callsOf("conversations.replies")).toHaveLength(1);
  });

  it("fetches a reply by its {team}:{channel}:{ts} id, in its own thread", async () => {
    const h = await harness();
    const parent = h.fake.store.add({
      channel: "C123",
      text: "parent",
      user: "U1",
      team: h.fake.teamId,
    });
    const reply = h.fake.store.add({
      channel: "C123",
      text: "the reply",
      user: "U2",
      team: h.fake.teamId,
      thread_ts: parent.ts,
    });
    const id = `${h.fake.teamId}:C123:${reply.ts}`;
    const msg = await h.adapter.fetchMessage(`slack:C123:${parent.ts}`, id);
    expect(msg).toMatchObject({ id, text: "the reply", threadId: `slack:C123:${parent.ts}` });
    expect(msg?.author.userId).toBe("U2");
  });

  it("returns null for an ephemeral message id without calling Slack", async () => {
    const h = await harness();
    const id = encodeSlackEphemeralMessageId(
      "1234567890.123456",
      "https://hooks.slack.com/actions/T1/2/x",
      "U1",
    );
    expect(await h.adapter.fetchMessage("slack:C123:", id)).toBeNull();
    expect(h.fake.callsOf("conversations.replies")).toEqual([]);
  });

  it("rejects with Slack's error for other failures", async () => {
    const h = await harness();
    h.fake.failNext("conversations.replies", { error: "not_in_channel" });
    const failure = h.adapter.fetchMessage("slack:C123:", "1234567890.123456");
    await expect(failure).rejects.toBeInstanceOf(SlackApiError);
    await expect(failure).rejects.toMatchObject({ slackError: "not_in_channel" });
  });
});

describe("link extraction", () => {
  it("provides fetchMessage for Slack message links", async () => {
    const h = await harness();
    const message = h.adapter.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: `<${LINK}>`,
      ts: "1234567890.123456",
    });
    expect(message.links).toHaveLength(1);
    expect(message.links[0]?.url).toBe(LINK);
    expect(message.links[0]?.fetchMessage).toBeInstanceOf(Function);
  });

  it("loads the linked message, and rejects with message_not_found once it is gone", async () => {
    const h = await harness();
    const linked = h.fake.store.add({
      channel: "C789",
      ts: "1234567890.123456",
      text: "the linked one",
      user: "U9",
      team: h.fake.teamId,
    });
    const message = h.adapter.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: `see <${LINK}?thread_ts=1234567890.000001&cid=C789|this>`,
      ts: "1234567891.000001",
    });
    const fetchLinked = message.links[0]?.fetchMessage;
    expect(fetchLinked).toBeInstanceOf(Function);
    const loaded = await fetchLinked?.();
    expect(loaded).toMatchObject({
      id: `${h.fake.teamId}:C789:1234567890.123456`,
      text: "the linked one",
    });
    linked.deleted = true;
    const gone = fetchLinked?.();
    await expect(gone).rejects.toBeInstanceOf(SlackApiError);
    await expect(gone).rejects.toMatchObject({ slackError: "message_not_found" });
  });

  it("gives no fetchMessage to links that are not Slack messages", async () => {
    const h = await harness();
    const message = h.adapter.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      text: [
        "<https://example.com/archives/C789/p1234567890123456>",
        "<https://myteam.slack.com.evil.example/archives/C789/p1234567890123456>",
        "<https://myteam.slack.com/archives/C789>",
        "<https://myteam.slack-gov.com/archives/C789/p1234567890123456>",
      ].join(" "),
      ts: "1234567890.123456",
    });
    expect(message.links.map((link) => link.fetchMessage !== undefined)).toEqual([
      false,
      false,
      false,
      true,
    ]);
  });

  it("gives a delivered message's Slack links a working fetchMessage", async () => {
    const h = await harness();
    h.fake.store.add({
      channel: "C789",
      ts: "1234567890.123456",
      text: "quoted",
      user: "U9",
      team: h.fake.teamId,
    });
    const loaded: Message[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      const link = message.links.find((candidate) => candidate.url === LINK);
      if (link?.fetchMessage) loaded.push(await link.fetchMessage());
    });
    await h.deliver(
      h.envelope({
        type: "app_mention",
        user: "U123",
        channel: "C456",
        text: `<@${h.fake.botUserId}> what about <${LINK}>`,
        ts: "1234567891.000001",
      }),
    );
    expect(loaded.map((message) => message.text)).toEqual(["quoted"]);
  });
});
