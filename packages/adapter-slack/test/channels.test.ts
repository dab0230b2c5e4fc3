import { ValidationError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackAdapter } from "../src/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness() {
  const h = await createSlackHarness();
  harnesses.push(h);
  h.fake.reset();
  return h;
}

describe("fetchChannelInfo", () => {
  it("fetches channel info", async () => {
    const h = await harness();
    h.fake.store.channelNames.set("C123", "general");
    h.fake.store.members.set("C123", 42);
    const info = await h.adapter.fetchChannelInfo("slack:C123");
    expect(info).toMatchObject({
      id: "slack:C123",
      name: "general",
      isDM: false,
      memberCount: 42,
      channelVisibility: "public",
    });
    expect(h.fake.callsOf("conversations.info")[0]?.args.channel).toBe("C123");
  });

  it("detects DM channels", async () => {
    const h = await harness();
    const info = await h.adapter.fetchChannelInfo("slack:D123");
    expect(info.isDM).toBe(true);
    expect(info.channelVisibility).toBe("private");
  });

  it("throws on invalid channel ID", async () => {
    const h = await harness();
    await expect(h.adapter.fetchChannelInfo("teams:C123")).rejects.toBeInstanceOf(ValidationError);
    await expect(h.adapter.fetchChannelInfo("slack:C123:1234567890.123456")).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(h.fake.callsOf("conversations.info")).toEqual([]);
  });
});

describe("fetchThread", () => {
  it("fetches thread info with channel details", async () => {
    const h = await harness();
    h.fake.store.channelNames.set("C123", "support");
    const info = await h.adapter.fetchThread("slack:C123:1234567890.123456");
    expect(info).toMatchObject({
      id: "slack:C123:1234567890.123456",
      channelId: "slack:C123",
      channelName: "support",
      isDM: false,
    });
  });
});

describe("postChannelMessage", () => {
  it("posts to channel without thread context", async () => {
    const h = await harness();
    const sent = await h.adapter.postChannelMessage("slack:C123", "Announcement");
    const [call] = h.fake.callsOf("chat.postMessage");
    expect(call?.args).toMatchObject({ channel: "C123", text: "Announcement" });
    expect(call?.args.thread_ts).toBeUndefined();
    expect(sent.id).toMatch(/:C123:/);
  });

  it("throws on invalid channel ID", async () => {
    const h = await harness();
    await expect(h.adapter.postChannelMessage("nope", "x")).rejects.toBeInstanceOf(ValidationError);
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
  });
});

describe("listThreads", () => {
  it("lists threads with replies in a channel", async () => {
    const h = await harness();
    const team = h.fake.teamId;
    const lonely = h.fake.store.add({ channel: "C5", text: "no replies", user: "U1", team });
    const busy = h.fake.store.add({ channel: "C5", text: "question", user: "U1", team });
    h.fake.store.add({ channel: "C5", text: "answer 1", user: "U2", team, thread_ts: busy.ts });
    const last = h.fake.store.add({
      channel: "C5",
      text: "answer 2",
      user: "U2",
      team,
      thread_ts: busy.ts,
    });
    const result = await h.adapter.listThreads("slack:C5");
    expect(result.threads).toHaveLength(1);
    const [thread] = result.threads;
    expect(thread?.id).toBe(`slack:C5:${busy.ts}`);
    expect(thread?.rootMessage.text).toBe("question");
    expect(thread?.replyCount).toBe(2);
    expect(thread?.lastReplyAt).toEqual(new Date(Math.round(Number(last.ts) * 1_000)));
    expect(result.threads.map((t) => t.id)).not.toContain(`slack:C5:${lonely.ts}`);
  });

  it("throws on invalid channel ID", async () => {
    const h = await harness();
    await expect(h.adapter.listThreads("slack:")).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("link extraction", () => {
  const slack = createSlackAdapter({ botToken: "xoxb-test-token", signingSecret: "test-secret" });
  const parse = (event: Record<string, unknown>) =>
    slack.parseMessage({
      type: "message",
      user: "U123",
      channel: "C456",
      ts: "1234567890.123456",
      ...event,
    });

  it("extracts links from rich_text blocks", () => {
    const message = parse({
      text: "see <https://example.com/a|this>",
      blocks: [
        {
          type: "rich_text",
          elements: [
            {
              type: "rich_text_section",
              elements: [
                { type: "text", text: "see " },
                { type: "link", url: "https://example.com/a", text: "this" },
                { type: "link", url: "https://vercel.com" },
              ],
            },
          ],
        },
      ],
    });
    expect(message.links.map((link) => link.url)).toEqual([
      "https://example.com/a",
      "https://vercel.com",
    ]);
  });

  it("extracts links from text when no blocks are present", () => {
    const message = parse({
      text: "Check <https://example.com> and <https://x.dev/docs|the docs>",
    });
    expect(message.links.map((link) => link.url)).toEqual([
      "https://example.com",
      "https://x.dev/docs",
    ]);
  });

  it("deduplicates URLs", () => {
    const message = parse({ text: "<https://example.com> again <https://example.com|here>" });
    expect(message.links).toEqual([{ url: "https://example.com" }]);
  });

  it("returns empty links for messages without URLs", () => {
    expect(parse({ text: "just words" }).links).toEqual([]);
  });

  it("does not treat user mentions as links", () => {
    expect(parse({ text: "hey <@U123> in <#C456|general> <!here>" }).links).toEqual([]);
  });
});
