import { RateLimitError } from "@baton/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  callSlackApi,
  deleteSlackMessage,
  encodeSlackApiBody,
  fetchSlackFile,
  fetchSlackThreadReplies,
  openSlackView,
  postSlackEphemeral,
  postSlackMessage,
  SlackApiError,
  sendSlackResponseUrl,
  updateSlackMessage,
  uploadSlackFiles,
} from "../src/api/index.js";
import { type FakeSlack, startFakeSlack } from "../src/testing/index.js";

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

/** Where the helpers call: the fake's Web API, with its bot token. */
const target = () => ({ apiUrl: fake.apiUrl, token: fake.botToken });

interface SentRequest {
  readonly url: string;
  readonly init: RequestInit | undefined;
}

/**
 * A transport for what the fake does not serve (response_url, file hosts, the upload flow):
 * records each request and answers with the next scripted response.
 */
function scriptedFetch(...answers: Response[]) {
  const sent: SentRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(input instanceof Request ? input.url : input), init });
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`unexpected request to ${String(input)}`);
    return answer;
  };
  return { sent, fetch };
}

const json = (value: unknown) =>
  new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });

describe("Slack api primitives", () => {
  it("form-encodes Slack API bodies with JSON object values", () => {
    const encoded = encodeSlackApiBody({
      blocks: [{ type: "section" }],
      channel: "C123",
      reply_broadcast: false,
      text: "hello",
      thread_ts: undefined,
      metadata: null,
    });
    expect(encoded.contentType).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(encoded.body);
    expect(form.get("blocks")).toBe('[{"type":"section"}]');
    expect(form.get("reply_broadcast")).toBe("false");
    expect(form.get("channel")).toBe("C123");
    expect(form.has("thread_ts")).toBe(false);
    expect(form.has("metadata")).toBe(false);
  });

  it("calls Slack Web API with bearer token auth", async () => {
    const answer = await callSlackApi(
      "chat.postMessage",
      { channel: "C123", text: "hello" },
      { apiUrl: fake.apiUrl, token: async () => fake.botToken },
    );
    expect(answer.ok).toBe(true);
    const [call] = fake.callsOf("chat.postMessage");
    expect(call?.token).toBe(fake.botToken);
    expect(call?.args).toMatchObject({ channel: "C123", text: "hello" });
  });

  it("supports custom API origins for tests and proxies", async () => {
    // No trailing slash: WebClient joins method names to the origin, so the helper adds it.
    await callSlackApi("auth.test", {}, { apiUrl: `${fake.url}/api`, token: fake.botToken });
    expect(fake.calls.map((call) => call.method)).toEqual(["auth.test"]);
  });

  it("throws for non-2xx Slack API HTTP responses", async () => {
    // Baton: a 429 is the core's RateLimitError with Slack's Retry-After (WebClient's wait and
    // retry is switched off here), not a SlackApiError carrying the HTTP status.
    fake.failNext("chat.postMessage", { error: "ratelimited", retryAfterSeconds: 7 });
    const call = callSlackApi(
      "chat.postMessage",
      { channel: "C123", text: "hi" },
      { ...target(), rejectRateLimitedCalls: true },
    );
    await expect(call).rejects.toBeInstanceOf(RateLimitError);
    await expect(call).rejects.toMatchObject({ retryAfterMs: 7_000 });
  });

  it("posts messages and returns the Slack timestamp", async () => {
    // The fake stores text and blocks only, so its answer to markdown_text is scripted.
    fake.answerNext("chat.postMessage", { channel: "C123", ok: true, ts: "1.23" });
    const result = await postSlackMessage({
      ...target(),
      channel: "C123",
      markdownText: "**hello**",
      unfurlLinks: false,
      unfurlMedia: false,
    });
    const [call] = fake.callsOf("chat.postMessage");
    expect(call?.args.markdown_text).toBe("**hello**");
    expect(call?.args).not.toHaveProperty("text");
    expect(call?.args).not.toHaveProperty("blocks");
    expect(call?.args.unfurl_links).toBe("false");
    expect(result).toMatchObject({
      channel: "C123",
      id: "1.23",
      raw: { channel: "C123", ok: true, ts: "1.23" },
    });

    const posted = await postSlackMessage({
      ...target(),
      channel: "C9",
      text: "real",
      threadTs: "5.5",
    });
    expect(fake.store.messages.at(-1)).toMatchObject({
      ts: posted.id,
      channel: "C9",
      text: "real",
      thread_ts: "5.5",
    });
  });

  it("rejects markdown_text conflicts locally", async () => {
    await expect(
      postSlackMessage({ ...target(), channel: "C123", markdownText: "**hello**", text: "hello" }),
    ).rejects.toThrow(TypeError);
    await expect(
      updateSlackMessage({ ...target(), channel: "C1", ts: "1.1", markdownText: "x", blocks: [] }),
    ).rejects.toThrow(TypeError);
    expect(fake.calls).toEqual([]);
  });

  it("posts ephemeral messages", async () => {
    const result = await postSlackEphemeral({
      ...target(),
      channel: "C123",
      text: "hello",
      user: "U123",
    });
    const [call] = fake.callsOf("chat.postEphemeral");
    expect(call?.args).toMatchObject({ channel: "C123", user: "U123", text: "hello" });
    expect(result.id).toMatch(/^\d+\.\d{6}$/);
    expect(result.id).toBe(result.raw.message_ts);
  });

  it("updates messages", async () => {
    const posted = await postSlackMessage({ ...target(), channel: "C123", text: "before" });
    const result = await updateSlackMessage({
      ...target(),
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "after" } }],
      channel: "C123",
      text: "fallback",
      ts: posted.id,
    });
    const [call] = fake.callsOf("chat.update");
    expect(call?.args.ts).toBe(posted.id);
    expect(call?.args.blocks).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "after" } },
    ]);
    expect(result.id).toBe(posted.id);
    expect(fake.store.find("C123", posted.id)?.text).toBe("fallback");
  });

  it("deletes messages", async () => {
    const posted = await postSlackMessage({ ...target(), channel: "C123", text: "bye" });
    const result = await deleteSlackMessage({ ...target(), channel: "C123", ts: posted.id });
    expect(fake.callsOf("chat.delete")[0]?.args).toEqual({ channel: "C123", ts: posted.id });
    expect(result.id).toBe(posted.id);
    expect(fake.store.messages.find((message) => message.ts === posted.id)?.deleted).toBe(true);
  });

  it("throws SlackApiError for ok false helper responses", async () => {
    fake.failNext("chat.postMessage", { error: "channel_not_found" });
    const post = postSlackMessage({ ...target(), channel: "C123", text: "hello" });
    await expect(post).rejects.toBeInstanceOf(SlackApiError);
    await expect(post).rejects.toMatchObject({
      method: "chat.postMessage",
      slackError: "channel_not_found",
    });
  });

  it("sends response_url JSON payloads", async () => {
    const transport = scriptedFetch(
      new Response(null, { status: 200 }),
      new Response("no", { status: 404 }),
    );
    const url = "https://hooks.slack.com/actions/T/1/abc";
    await sendSlackResponseUrl(url, { replaceOriginal: true, text: "updated" }, transport);
    expect(transport.sent[0]?.url).toBe(url);
    expect(transport.sent[0]?.init?.method).toBe("POST");
    expect(JSON.parse(String(transport.sent[0]?.init?.body))).toEqual({
      replace_original: true,
      text: "updated",
    });
    // Slack answers 404 once the URL is used up or expired.
    await expect(sendSlackResponseUrl(url, { text: "again" }, transport)).rejects.toBeInstanceOf(
      SlackApiError,
    );
  });

  it("uploads files with Slack external upload flow", async () => {
    const transport = scriptedFetch(
      json({ file_id: "F123", ok: true, upload_url: "https://files.slack.com/upload/v1/abc" }),
      new Response("OK", { status: 200 }),
      json({ files: [{ id: "F123" }], ok: true }),
    );
    const result = await uploadSlackFiles(
      [{ data: new Uint8Array([1, 2, 3]), filename: "report.txt" }],
      {
        channelId: "C123",
        fetch: transport.fetch,
        initialComment: "here",
        threadTs: "1.23",
        token: "xoxb",
      },
    );
    const [urlCall, upload, complete] = transport.sent;
    expect(urlCall?.url).toBe("https://slack.com/api/files.getUploadURLExternal");
    const asked = new URLSearchParams(String(urlCall?.init?.body));
    expect(asked.get("length")).toBe("3");
    expect(asked.get("filename")).toBe("report.txt");
    expect(upload?.url).toBe("https://files.slack.com/upload/v1/abc");
    expect(complete?.url).toBe("https://slack.com/api/files.completeUploadExternal");
    const completed = new URLSearchParams(String(complete?.init?.body));
    expect(JSON.parse(completed.get("files") ?? "null")).toEqual([
      { id: "F123", title: "report.txt" },
    ]);
    expect(completed.get("channel_id")).toBe("C123");
    expect(completed.get("thread_ts")).toBe("1.23");
    expect(completed.get("initial_comment")).toBe("here");
    expect(result.fileIds).toEqual(["F123"]);
  });

  it("fetches private Slack file URLs with bearer auth", async () => {
    const file = new Response("file", { status: 200 });
    const transport = scriptedFetch(file, new Response("other"), new Response("other"));
    const result = await fetchSlackFile({
      fetch: transport.fetch,
      token: "xoxb",
      url: "https://files.slack.com/files-pri/T/F/report.txt",
    });
    expect(result).toBe(file);
    expect(transport.sent[0]?.init?.headers).toEqual({ authorization: "Bearer xoxb" });
    // A look-alike host, or the same host over http, never sees the token.
    for (const url of [
      "https://files.slack.com.attacker.example/report.txt",
      "http://files.slack.com/files-pri/T/F/report.txt",
    ]) {
      await fetchSlackFile({ fetch: transport.fetch, token: "xoxb", url });
    }
    expect(transport.sent.slice(1).map((sent) => sent.init?.headers)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it("fetches thread replies with cursor metadata", async () => {
    const root = await postSlackMessage({ ...target(), channel: "C123", text: "root" });
    await postSlackMessage({ ...target(), channel: "C123", text: "one", threadTs: root.id });
    await postSlackMessage({ ...target(), channel: "C123", text: "two", threadTs: root.id });
    const first = await fetchSlackThreadReplies({
      ...target(),
      channel: "C123",
      limit: 2,
      ts: root.id,
    });
    expect(fake.callsOf("conversations.replies")[0]?.args).toMatchObject({
      ts: root.id,
      limit: "2",
    });
    expect(first.messages.map((message) => message.text)).toEqual(["root", "one"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const last = await fetchSlackThreadReplies({
      ...target(),
      channel: "C123",
      cursor: first.nextCursor as string,
      limit: 2,
      ts: root.id,
    });
    expect(last.messages.map((message) => message.text)).toEqual(["two"]);
    expect(last.nextCursor).toBeUndefined();
    expect(last.raw.ok).toBe(true);
  });

  it("opens Slack views with trigger ids", async () => {
    const view = { type: "modal", title: { type: "plain_text", text: "Hi" }, blocks: [] };
    const result = await openSlackView({ ...target(), triggerId: "trigger", view });
    const [call] = fake.callsOf("views.open");
    expect(call?.args.trigger_id).toBe("trigger");
    expect(call?.args.view).toEqual(view);
    expect(result.view).toMatchObject({ ...view, id: expect.any(String) });
    expect(fake.store.views.get(String(result.view.id))).toMatchObject(view);
  });
});
