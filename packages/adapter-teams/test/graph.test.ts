import { RateLimitError } from "@baton/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TeamsApiError, TeamsGraph } from "../src/index.js";
import { type FakeBotFramework, startFakeBotFramework } from "../src/testing/index.js";

let fake: FakeBotFramework;
let graph: TeamsGraph;

beforeEach(async () => {
  fake = await startFakeBotFramework();
  const mint = fake.tokenFactory();
  graph = new TeamsGraph({ baseUrl: fake.url, token: () => mint(fake.graph.scope) });
});
afterEach(() => fake.close());

const message = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  createdDateTime: "2026-01-01T10:00:00Z",
  body: { contentType: "text", content: text },
  from: { user: { id: "aad-1", displayName: "Ada" } },
  ...extra,
});

describe("Teams graph primitives", () => {
  it("lists chat messages with Graph token scope", async () => {
    fake.graph.addChatMessages("19:chat@thread.v2", [message("1", "hi"), message("2", "there")]);
    const messages = await graph.listChatMessages("19:chat@thread.v2");
    expect(messages.map((m) => [m.id, m.text, m.authorName])).toEqual([
      ["1", "hi", "Ada"],
      ["2", "there", "Ada"],
    ]);
    expect(fake.graph.calls).toEqual([
      { path: "/v1.0/chats/19:chat@thread.v2/messages", scope: `${fake.url}/.default` },
    ]);
  });

  it("lists channel messages and replies", async () => {
    fake.graph.addChannelMessages("team-1", "19:c@thread.tacv2", [message("100", "root")]);
    fake.graph.addReplies("team-1", "19:c@thread.tacv2", "100", [
      message("101", "reply", { replyToId: "100" }),
    ]);
    const roots = await graph.listChannelMessages("team-1", "19:c@thread.tacv2");
    const replies = await graph.listChannelReplies("team-1", "19:c@thread.tacv2", "100");
    expect(roots.map((m) => m.text)).toEqual(["root"]);
    expect(replies.map((m) => [m.id, m.replyToId, m.text])).toEqual([["101", "100", "reply"]]);
  });

  it("gets a channel message and channel info", async () => {
    fake.graph.addChannelMessages("team-1", "19:c@thread.tacv2", [message("100", "root")]);
    fake.graph.addChannel("team-1", "19:c@thread.tacv2", {
      id: "19:c@thread.tacv2",
      displayName: "General",
    });
    const got = await graph.getChannelMessage("team-1", "19:c@thread.tacv2", "100");
    expect([got.id, got.text, got.createdAt?.toISOString()]).toEqual([
      "100",
      "root",
      "2026-01-01T10:00:00.000Z",
    ]);
    expect(await graph.getChannel("team-1", "19:c@thread.tacv2")).toEqual({
      id: "19:c@thread.tacv2",
      displayName: "General",
    });
  });

  it("paginates next links", async () => {
    fake.graph.pageSize = 2;
    fake.graph.addChatMessages(
      "19:chat@thread.v2",
      ["a", "b", "c", "d", "e"].map((text, i) => message(String(i), text)),
    );
    const messages = await graph.listChatMessages("19:chat@thread.v2");
    expect(messages.map((m) => m.text)).toEqual(["a", "b", "c", "d", "e"]);
    expect(fake.graph.calls).toHaveLength(3);
  });

  it("throws TeamsApiError when Graph responds with an error", async () => {
    fake.graph.failNext({ status: 403, code: "Forbidden", message: "Missing role" });
    const error = await graph.listChatMessages("19:chat@thread.v2").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TeamsApiError);
    expect(error).toMatchObject({ status: 403, connectorCode: "Forbidden" });
    expect((error as Error).message).toContain("Missing role");
  });

  it("returns sparse messages with empty text and minimal fields", async () => {
    fake.graph.addChatMessages("19:chat@thread.v2", [{ id: "9" }]);
    const [sparse] = await graph.listChatMessages("19:chat@thread.v2");
    expect(sparse).toMatchObject({
      id: "9",
      text: "",
      authorId: undefined,
      authorName: undefined,
      replyToId: undefined,
      createdAt: undefined,
      editedAt: undefined,
      isBot: false,
    });
  });

  it("falls back to channelId and omits displayName when Graph returns neither", async () => {
    fake.graph.addChannel("team-1", "19:bare@thread.tacv2", {});
    const bare = await graph.getChannel("team-1", "19:bare@thread.tacv2");
    expect(bare).toEqual({ id: "19:bare@thread.tacv2" });
    expect("displayName" in bare).toBe(false);
  });
});

describe("TeamsGraph (Baton)", () => {
  it("maps Graph's 429 to core's RateLimitError with Retry-After in ms", async () => {
    fake.graph.failNext({ status: 429, code: "TooManyRequests", retryAfterSeconds: 7 });
    const error = await graph.getUser("aad-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
  });

  it("refuses a token minted for the Bot Framework scope, as Graph does", async () => {
    const mint = fake.tokenFactory();
    const wrong = new TeamsGraph({
      baseUrl: fake.url,
      token: () => mint("https://api.botframework.com/.default"),
    });
    fake.graph.addUser({ id: "aad-1", displayName: "Ada" });
    await expect(wrong.getUser("aad-1")).rejects.toMatchObject({ status: 401 });
  });
});
