import { StreamMessage, sleep } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  TelegramApiError,
  TelegramAuthError,
  TelegramNetworkError,
  TelegramNotFoundError,
  TelegramParseEntitiesError,
  TelegramRateLimitError,
} from "../src/index.js";
import { FORUM_CHAT, GROUP_CHAT } from "../src/testing/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

async function harness(...args: Parameters<typeof createTelegramHarness>) {
  const h = await createTelegramHarness(...args);
  harnesses.push(h);
  return h;
}

const DM = "telegram:7527593";
const GROUP = `telegram:${GROUP_CHAT.id}`;

async function* chunks(...parts: string[]) {
  for (const part of parts) {
    yield part;
    // Each chunk arrives on its own, as a model's tokens do.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Runs `work` while advancing the fake clock, for calls that wait out a `retry_after`. */
async function withClock<T>(h: TelegramHarness, work: Promise<T>): Promise<T> {
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  result.catch(() => undefined);
  for (let step = 0; step < 200 && !done; step += 1) {
    await h.clock.advance(250);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return result;
}

/**
 * Upstream's floor test input on Baton's fake clock: a stream writing "one " at once, "two "
 * 1 200 ms later and "three" 100 ms after that, asking for 1 ms between edits (upstream asks for
 * 0, which Baton's `StreamMessage` refuses). No `streamingEditIntervalMs` is configured.
 * `step(atMs, pending)` moves the clock to `atMs` after the start, then waits in real time — the
 * fake Bot API answers over HTTP — until `pending` of the stream's timers are pending again.
 */
function floorStream(h: TelegramHarness, threadId: string) {
  const base = h.clock.pendingTimers;
  const start = h.clock.now();
  async function* chunks() {
    yield "one ";
    await sleep(h.clock, 1_200);
    yield "two ";
    await sleep(h.clock, 100);
    yield "three";
  }
  const run = {
    posting: h.chat.thread(threadId).post(new StreamMessage(chunks(), { updateIntervalMs: 1 })),
    done: false,
    edits: () => h.fake.calls("editMessageText").length,
    async step(atMs: number, pending: number) {
      if (atMs > 0) await h.clock.advanceTo(start + atMs);
      for (let waitedMs = 0; ; waitedMs += 2) {
        // A macrotask first: whatever needs no HTTP round trip has run by then.
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (h.clock.pendingTimers === base + pending) return;
        if (waitedMs > 10_000) throw new Error(`${pending} timers not pending at ${atMs} ms`);
      }
    },
  };
  void run.posting.then(() => {
    run.done = true;
  });
  return run;
}

describe("TelegramAdapter", () => {
  it("posts, edits, deletes, and sends typing events", async () => {
    const h = await harness();
    const thread = h.chat.thread(DM);
    const sent = await thread.post({ markdown: "**first**" });
    await sent.edit({ markdown: "second." });
    await thread.startTyping();
    await sent.delete();
    const [message] = h.fake.sentTo(7527593);
    expect(message).toMatchObject({ text: "second.", deleted: true, parse_mode: "MarkdownV2" });
    expect(h.fake.calls("editMessageText")[0]?.params).toMatchObject({
      text: "second\\.",
      parse_mode: "MarkdownV2",
    });
    expect(h.fake.calls("sendChatAction")[0]?.params).toEqual({
      chat_id: "7527593",
      action: "typing",
    });
    expect(sent.id).toBe(`7527593:${message?.message_id}`);
  });

  it("streams non-DM chats with post-and-edit even when nativeStreaming is on", async () => {
    const h = await harness({ streamingEditIntervalMs: 0 });
    const sent = await h.chat.thread(GROUP).post(chunks("Hello", " group", "!"));
    expect(sent.text).toBe("Hello group!");
    expect(h.fake.calls("sendMessage")).toHaveLength(1);
    expect(h.fake.sentTo(GROUP_CHAT.id).map((m) => m.text)).toEqual(["Hello group!"]);
  });

  it("streams private chats with post-and-edit by default", async () => {
    const h = await harness();
    expect(h.adapter.capabilities.streaming).toBe("edit");
    const sent = await withClock(h, h.chat.thread(DM).post(chunks("Hi", " there")));
    expect(sent.text).toBe("Hi there");
    expect(h.fake.sentTo(7527593).map((m) => m.text)).toEqual(["Hi there"]);
    expect(h.fake.calls("sendMessage")).toHaveLength(1);
  });

  // Baton's core edits on a timer rather than when a chunk arrives, so the private chat's one
  // intermediate edit goes out at 1 100 ms (upstream's at 1 200, with the second chunk); the final
  // edit then waits out the same floor after it, as upstream's does.
  it("uses the private chat streaming edit floor", async () => {
    const h = await harness();
    const run = floorStream(h, DM);
    await run.step(0, 2); // the placeholder is posted; the first edit is due at 1 100 ms
    await run.step(1_099, 2);
    expect(run.edits()).toBe(0);
    await run.step(1_100, 2); // that edit settled; the next tick is due at 2 200 ms
    expect(run.edits()).toBe(1);
    await run.step(1_200, 2);
    await run.step(1_300, 1); // the stream ended; the final edit waits for 2 200 ms
    await run.step(2_199, 1);
    expect(run.edits()).toBe(1);
    expect(run.done).toBe(false);
    await h.clock.advanceTo(h.clock.now() + 1);
    await run.posting;
    expect(run.edits()).toBe(2);
    expect(h.fake.sentTo(7527593).map((m) => m.text)).toEqual(["one two three"]);
  });

  it("uses the group streaming edit floor", async () => {
    const h = await harness();
    const run = floorStream(h, GROUP);
    await run.step(0, 2); // the placeholder is posted; the first edit would be due at 3 100 ms
    await run.step(1_200, 2);
    await run.step(1_300, 1); // the stream ended; the final edit waits for 3 100 ms
    await run.step(3_099, 1);
    expect(run.edits()).toBe(0);
    expect(run.done).toBe(false);
    await h.clock.advanceTo(h.clock.now() + 1);
    await run.posting;
    expect(run.edits()).toBe(1);
    expect(h.fake.sentTo(GROUP_CHAT.id).map((m) => m.text)).toEqual(["one two three"]);
  });

  it("edits per chunk when streamingEditIntervalMs opts out of throttling", async () => {
    const h = await harness({ streamingEditIntervalMs: 0 });
    expect(h.adapter.streamingUpdateIntervalMs).toBe(0);
    await withClock(h, h.chat.thread(DM).post(chunks("a", "b", "c", "d")));
    expect(h.fake.sentTo(7527593).map((m) => m.text)).toEqual(["abcd"]);
    expect(h.fake.calls("editMessageText").length).toBeGreaterThanOrEqual(2);
  });

  it("retries the final streamed edit once when Telegram rate limits it", async () => {
    const h = await harness({ streamingEditIntervalMs: 0 });
    const sent = await h.chat.thread(DM).post("start");
    h.fake.failNext("editMessageText", {
      error_code: 429,
      description: "Too Many Requests: retry after 2",
      retry_after: 2,
    });
    const at = h.clock.now();
    await withClock(h, sent.edit("final"));
    expect(h.clock.now() - at).toBeGreaterThanOrEqual(2_000);
    expect(h.fake.calls("editMessageText")).toHaveLength(2);
    expect(h.fake.sentTo(7527593)[0]?.text).toBe("final");
  });

  it("rejects when the final streamed edit retry fails", async () => {
    const h = await harness({ maxRetries: 1 });
    const sent = await h.chat.thread(DM).post("start");
    h.fake.failNext(
      "editMessageText",
      { error_code: 429, description: "Too Many Requests", retry_after: 1 },
      2,
    );
    await expect(withClock(h, sent.edit("final"))).rejects.toThrow(TelegramRateLimitError);
    expect(h.fake.sentTo(7527593)[0]?.text).toBe("start");
  });

  it("rejects when the final retry_after exceeds the cap", async () => {
    const h = await harness({ maxRetryAfterMs: 5_000 });
    const sent = await h.chat.thread(DM).post("start");
    h.fake.failNext("editMessageText", {
      error_code: 429,
      description: "Too Many Requests",
      retry_after: 60,
    });
    const error = await sent.edit("final").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelegramRateLimitError);
    expect((error as TelegramRateLimitError).retryAfterMs).toBe(60_000);
    expect(h.fake.calls("editMessageText")).toHaveLength(1);
  });

  it("respects retry_after after an intermediate streamed edit", async () => {
    const h = await harness({ streamingEditIntervalMs: 0 });
    h.fake.failNext("editMessageText", {
      error_code: 429,
      description: "Too Many Requests",
      retry_after: 3,
    });
    const at = h.clock.now();
    const sent = await withClock(h, h.chat.thread(DM).post(chunks("one ", "two ", "three")));
    expect(sent.text).toBe("one two three");
    expect(h.clock.now() - at).toBeGreaterThanOrEqual(3_000);
    expect(h.fake.sentTo(7527593).map((m) => m.text)).toEqual(["one two three"]);
  });

  it("postChannelMessage does not double-prefix channel ID", async () => {
    const h = await harness();
    const raw = await h.adapter.postChannelMessage(GROUP, "hello channel");
    expect(raw.threadId).toBe(GROUP);
    expect(h.fake.calls("sendMessage")[0]?.params).toMatchObject({
      chat_id: String(GROUP_CHAT.id),
    });
  });

  it("postChannelMessage works with raw channel ID", async () => {
    const h = await harness();
    const raw = await h.adapter.postChannelMessage(String(GROUP_CHAT.id), "hello raw");
    expect(raw.threadId).toBe(GROUP);
    expect(h.fake.sentTo(GROUP_CHAT.id).map((m) => m.text)).toEqual(["hello raw"]);
  });

  it("postChannelMessage with forum topic messageThreadId sends correct thread params", async () => {
    const h = await harness();
    await h.adapter.postChannelMessage(`telegram:${FORUM_CHAT.id}:42`, "in topic");
    expect(h.fake.calls("sendMessage")[0]?.params).toMatchObject({
      chat_id: String(FORUM_CHAT.id),
      message_thread_id: 42,
    });
  });

  // Upstream generates this test per attachment type from a template; the manifest keeps the
  // template as the title, so this one test covers every type.
  it("posts $type attachments with Telegram $method uploads", async () => {
    const h = await harness();
    const cases = [
      { type: "image", method: "sendPhoto", field: "photo" },
      { type: "video", method: "sendVideo", field: "video" },
      { type: "audio", method: "sendAudio", field: "audio" },
      { type: "file", method: "sendDocument", field: "document" },
    ] as const;
    for (const { type, method, field } of cases) {
      await h.adapter.postMessage(DM, {
        raw: `a ${type}`,
        attachments: [{ type, name: `${type}.bin`, data: new Uint8Array([1, 2]) }],
      });
      expect(h.fake.calls(method)[0]?.params[field], method).toMatchObject({
        filename: `${type}.bin`,
        size: 2,
      });
      expect(h.fake.calls(method)[0]?.params.caption).toBe(`a ${type}`);
    }
  });

  it("posts attachment data loaded through fetchData", async () => {
    const h = await harness();
    await h.adapter.postMessage(DM, {
      markdown: "a chart",
      attachments: [
        { type: "image", name: "chart.png", fetchData: async () => new Uint8Array([1, 2, 3]) },
      ],
    });
    const photo = h.fake.calls("sendPhoto")[0]?.params;
    expect(photo?.photo).toMatchObject({ filename: "chart.png", size: 3 });
    expect(photo?.caption).toBe("a chart");
  });

  it("posts URL-only attachments through Telegram URL fields", async () => {
    const h = await harness();
    await h.adapter.postMessage(DM, {
      raw: "see file",
      attachments: [{ type: "file", url: "https://example.com/report.pdf" }],
    });
    expect(h.fake.calls("sendDocument")[0]?.params).toMatchObject({
      document: "https://example.com/report.pdf",
      caption: "see file",
    });
  });

  it("rejects attachments without upload data", async () => {
    const h = await harness();
    await expect(
      h.adapter.postMessage(DM, { raw: "x", attachments: [{ type: "file", name: "nothing.bin" }] }),
    ).rejects.toThrow(/needs data, fetchData or a public URL/);
    expect(h.fake.requests).toEqual([]);
  });

  it("omits parse_mode for plain string messages", async () => {
    const h = await harness();
    await h.adapter.postMessage(DM, "plain *text*.");
    expect(h.fake.calls("sendMessage")[0]?.params).toEqual({
      chat_id: "7527593",
      text: "plain *text*.",
    });
  });

  it("omits parse_mode for raw messages", async () => {
    const h = await harness();
    await h.adapter.postMessage(DM, { raw: "raw _text_" });
    expect(h.fake.calls("sendMessage")[0]?.params).toEqual({
      chat_id: "7527593",
      text: "raw _text_",
    });
  });

  it("falls back from rich messages to plain text when Telegram can't parse markdown", async () => {
    const h = await harness();
    h.fake.failNext("sendMessage", {
      error_code: 400,
      description: "Bad Request: can't parse entities: Character '.' is reserved",
    });
    await h.adapter.postMessage(DM, { markdown: "**bold** end." });
    const [rich, plain] = h.fake.calls("sendMessage");
    expect(rich?.params.parse_mode).toBe("MarkdownV2");
    expect(plain?.params).toEqual({ chat_id: "7527593", text: "bold end." });
  });

  it("does not swallow non-parse validation errors during markdown send", async () => {
    const h = await harness();
    h.fake.failNext("sendMessage", { error_code: 400, description: "Bad Request: chat not found" });
    await expect(h.adapter.postMessage(DM, { markdown: "**x**" })).rejects.toThrow(
      TelegramNotFoundError,
    );
    expect(h.fake.calls("sendMessage")).toHaveLength(1);
  });

  it("falls back from rich edits to plain text when Telegram can't parse markdown", async () => {
    const h = await harness();
    const raw = await h.adapter.postMessage(DM, "before");
    h.fake.failNext("editMessageText", {
      error_code: 400,
      description: "Bad Request: can't parse entities: oops",
    });
    await h.adapter.editMessage(DM, raw.id, { markdown: "_after_" });
    expect(h.fake.calls("editMessageText").map((c) => c.params.parse_mode)).toEqual([
      "MarkdownV2",
      undefined,
    ]);
    expect(h.fake.sentTo(7527593)[0]?.text).toBe("after");
  });

  it("posts cards with inline keyboard buttons", async () => {
    const h = await harness();
    await h.chat.thread(DM).post({
      type: "card",
      title: "Deploy?",
      children: [
        {
          type: "actions",
          children: [{ type: "button", id: "deploy", label: "Deploy", value: "prod" }],
        },
      ],
    });
    expect(h.fake.calls("sendMessage")[0]?.params.reply_markup).toEqual({
      inline_keyboard: [[{ text: "Deploy", callback_data: 'chat:{"a":"deploy","v":"prod"}' }]],
    });
  });

  it("renders card title as MarkdownV2 bold", async () => {
    const h = await harness();
    await h.chat.thread(DM).post({ type: "card", title: "Status: ok!", children: [] });
    expect(h.fake.calls("sendMessage")[0]?.params).toMatchObject({
      text: "*Status: ok\\!*",
      parse_mode: "MarkdownV2",
    });
  });

  it("adds and removes reactions", async () => {
    const h = await harness();
    const sent = await h.chat.thread(DM).post("react");
    await sent.addReaction("thumbs_up");
    expect(h.fake.sentTo(7527593)[0]?.reactions).toEqual([{ type: "emoji", emoji: "👍" }]);
    await sent.removeReaction("thumbs_up");
    expect(h.fake.sentTo(7527593)[0]?.reactions).toEqual([]);
  });

  it("maps Telegram API errors to adapter-specific error types", async () => {
    const h = await harness();
    const cases: [number, string, unknown][] = [
      [400, "Bad Request: can't parse entities: x", TelegramParseEntitiesError],
      [403, "Forbidden: bot was blocked by the user", TelegramAuthError],
      [400, "Bad Request: chat not found", TelegramNotFoundError],
      [409, "Conflict: something", TelegramApiError],
    ];
    for (const [code, description, type] of cases) {
      h.fake.failNext("sendMessage", { error_code: code, description });
      const error = await h.adapter.postMessage(DM, "x").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(type as never);
      expect(error).toMatchObject({
        errorCode: code,
        description,
        method: "sendMessage",
        adapter: "telegram",
      });
    }
  });

  it("throws NetworkError when Telegram returns non-JSON response", async () => {
    const h = await harness();
    h.fake.answerNextRaw("sendMessage", 200, "<html>bad gateway</html>");
    await expect(h.adapter.postMessage(DM, "x")).rejects.toThrow(TelegramNetworkError);
  });

  it("throws NetworkError when Telegram API response has no result", async () => {
    const h = await harness();
    h.fake.answerNextRaw("sendMessage", 200, JSON.stringify({ ok: true }));
    await expect(h.adapter.postMessage(DM, "x")).rejects.toThrow(TelegramNetworkError);
  });

  it("does not crash when chat.getUserName() is undefined", async () => {
    const h = await harness();
    const host = new Proxy(h.chat as object, {
      get: (target, property, receiver) =>
        property === "getUserName" ? () => undefined : Reflect.get(target, property, receiver),
    });
    const adapter = h.adapter;
    await adapter.initialize(host as never);
    await expect(adapter.postMessage(DM, "still fine")).resolves.toMatchObject({ threadId: DM });
  });
});

describe("message length limits", () => {
  it("plain string exactly 4096 chars is not truncated and has no ellipsis", async () => {
    const h = await harness();
    const text = "a".repeat(4096);
    await h.adapter.postMessage(DM, text);
    expect(h.fake.calls("sendMessage")[0]?.params.text).toBe(text);
  });

  it("splits a longer plain string into several messages at safe boundaries", async () => {
    const h = await harness();
    const paragraph = `${"word ".repeat(300).trim()}.`;
    const text = [paragraph, paragraph, paragraph, paragraph].join("\n\n");
    await h.adapter.postMessage(DM, text);
    const parts = h.fake.calls("sendMessage").map((c) => String(c.params.text));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((part) => part.length <= 4096)).toBe(true);
    expect(parts.join("\n\n")).toBe(text);
  });

  it("splits long markdown between blocks, every part parsing as MarkdownV2", async () => {
    const h = await harness();
    const block = `**bold** ${"text. ".repeat(200)}`;
    await h.adapter.postMessage(DM, {
      markdown: [block, block, block, "```\ncode\n```"].join("\n\n"),
    });
    const calls = h.fake.calls("sendMessage");
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.every((c) => c.params.parse_mode === "MarkdownV2")).toBe(true);
    expect(h.fake.sentTo(7527593).length).toBe(calls.length);
  });

  it("MarkdownV2 truncation does not leave an orphan trailing backslash before the ellipsis", async () => {
    const h = await harness();
    const raw = await h.adapter.postMessage(DM, "short");
    await h.adapter.editMessage(DM, raw.id, { markdown: ".".repeat(5000) });
    const text = String(h.fake.calls("editMessageText")[0]?.params.text);
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text.endsWith("\\.\\.\\.")).toBe(true);
    expect(h.fake.sentTo(7527593)[0]?.text?.endsWith("...")).toBe(true);
  });

  it("MarkdownV2 truncation leaves all entity delimiters balanced (no unclosed **bold**)", async () => {
    const h = await harness();
    const raw = await h.adapter.postMessage(DM, "short");
    await h.adapter.editMessage(DM, raw.id, {
      markdown: `${"a".repeat(4080)} **${"b".repeat(100)}**`,
    });
    // The fake accepted the edit: Telegram would have refused an unclosed entity.
    expect(h.fake.calls("editMessageText")).toHaveLength(1);
    expect(h.fake.sentTo(7527593)[0]?.text?.startsWith("aaa")).toBe(true);
  });

  it("MarkdownV2 truncation closes or drops an unmatched inline code span", async () => {
    const h = await harness();
    const raw = await h.adapter.postMessage(DM, "short");
    await h.adapter.editMessage(DM, raw.id, {
      markdown: `${"a".repeat(4080)} \`${"c".repeat(100)}\``,
    });
    expect(h.fake.calls("editMessageText")).toHaveLength(1);
    expect(h.fake.sentTo(7527593)[0]?.text).not.toContain("ccc");
  });

  it("sends a MarkdownV2 text over the 1 024-character caption limit as its own message before the file", async () => {
    const h = await harness();
    const file = { filename: "a.txt", data: new TextEncoder().encode("x") };
    await h.adapter.postMessage(DM, { markdown: "short caption", files: [file] });
    expect(h.fake.calls("sendDocument")[0]?.params).toMatchObject({
      caption: "short caption",
      parse_mode: "MarkdownV2",
    });
    const long = "long ".repeat(300).trim();
    await h.adapter.postMessage(DM, { markdown: long, files: [file] });
    // Upstream cuts such a caption at 1 024 characters; Baton keeps all of it (issue 14).
    expect(h.fake.requests.slice(-2).map((r) => r.method)).toEqual(["sendMessage", "sendDocument"]);
    expect(h.fake.calls("sendMessage")[0]?.params).toMatchObject({
      text: long,
      parse_mode: "MarkdownV2",
    });
    expect(h.fake.calls("sendDocument")[1]?.params.caption).toBeUndefined();
  });
});

describe("getUser", () => {
  it("should return user info from Telegram getChat", async () => {
    const h = await harness();
    h.fake.addChat({
      id: 42,
      type: "private",
      first_name: "Ada",
      last_name: "Lovelace",
      username: "ada",
    });
    expect(await h.adapter.getUser("42")).toEqual({
      userId: "42",
      userName: "ada",
      fullName: "Ada Lovelace",
      isBot: false,
    });
  });

  it("should return null on error", async () => {
    const h = await harness();
    expect(await h.adapter.getUser("404")).toBeNull();
  });

  it("should return null for group/channel chat IDs", async () => {
    const h = await harness();
    h.fake.addChat({ id: 55, type: "group", title: "Odd" });
    expect(await h.adapter.getUser(String(GROUP_CHAT.id))).toBeNull();
    expect(await h.adapter.getUser("55")).toBeNull();
  });

  it("should handle first-name only user (no last_name or username)", async () => {
    const h = await harness();
    h.fake.addChat({ id: 43, type: "private", first_name: "Solo" });
    expect(await h.adapter.getUser("43")).toEqual({
      userId: "43",
      userName: "Solo",
      fullName: "Solo",
      isBot: false,
    });
  });

  it("should call Telegram API with correct method and params", async () => {
    const h = await harness();
    h.fake.addChat({ id: 44, type: "private", first_name: "X" });
    await h.adapter.getUser("44");
    expect(h.fake.requests).toEqual([{ method: "getChat", params: { chat_id: "44" } }]);
  });
});

describe("sent messages", () => {
  it("keeps what Telegram answered as raw and the chat in the id", async () => {
    const h = await harness();
    const raw = await h.adapter.postMessage(GROUP, "hi");
    const [answer] = h.fake.sentTo(GROUP_CHAT.id);
    expect(raw.id).toBe(`${GROUP_CHAT.id}:${answer?.message_id}`);
    expect(raw.raw).toEqual([
      expect.objectContaining({
        message_id: answer?.message_id,
        chat: expect.objectContaining({ id: GROUP_CHAT.id }),
        text: "hi",
      }),
    ]);
  });
});

describe("button payloads longer than Telegram's 64 bytes", () => {
  it("keeps them in the State behind a short key and runs the action with the full payload", async () => {
    const h = await harness();
    const actions: string[] = [];
    h.chat.onAction((event) => {
      actions.push(`${event.actionId}=${event.value}`);
    });
    const value = `order-${"x".repeat(120)}`;
    await h.chat.thread(DM).post({
      type: "card",
      title: "Confirm",
      children: [
        {
          type: "actions",
          children: [{ type: "button", id: "confirm_order", label: "OK", value }],
        },
      ],
    });
    const markup = h.fake.calls("sendMessage")[0]?.params.reply_markup as {
      inline_keyboard: { callback_data: string }[][];
    };
    const data = markup.inline_keyboard[0]?.[0]?.callback_data ?? "";
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    expect(data.startsWith("chatk:")).toBe(true);
    const message = h.updates.messageObject("Confirm");
    await h.deliver(h.updates.callbackQuery(data, message));
    await h.settle();
    expect(actions).toEqual([`confirm_order=${value}`]);
  });
});

describe("TelegramAdapter", () => {
  it("fetches thread and channel metadata", async () => {
    const h = await harness();
    h.fake.addChat({
      id: FORUM_CHAT.id,
      type: "supergroup",
      title: "Test Forum",
      is_forum: true,
      member_count: 12,
    });
    const channel = await h.adapter.fetchChannelInfo(`telegram:${FORUM_CHAT.id}`);
    expect(channel).toMatchObject({
      id: `telegram:${FORUM_CHAT.id}`,
      name: "Test Forum",
      isDM: false,
      memberCount: 12,
    });
    const thread = await h.adapter.fetchThread(`telegram:${FORUM_CHAT.id}:42`);
    expect(thread).toMatchObject({
      id: `telegram:${FORUM_CHAT.id}:42`,
      channelId: `telegram:${FORUM_CHAT.id}`,
      channelName: "Test Forum",
      isDM: false,
      metadata: { messageThreadId: 42 },
    });
  });

  it("returns undefined memberCount when getChatMemberCount fails", async () => {
    const h = await harness();
    h.fake.addChat({ id: 7527593, type: "private", first_name: "Test" });
    h.fake.failNext("getChatMemberCount", {
      error_code: 400,
      description: "Bad Request: there are no administrators in the private chat",
    });
    const channel = await h.adapter.fetchChannelInfo("telegram:7527593");
    expect(channel.memberCount).toBeUndefined();
    expect(channel).toMatchObject({ name: "Test", isDM: true });
  });

  it("paginates cached messages", async () => {
    const h = await harness();
    h.chat.onDirectMessage(() => undefined);
    for (const text of ["one", "two", "three"]) await h.deliver(h.updates.message(text));
    const texts: string[] = [];
    for await (const message of h.chat.thread(DM).messages) texts.push(message.text);
    // Telegram has no history API: the Chat kept every accepted message (persistThreadHistory).
    expect(texts).toEqual(["three", "two", "one"]);
    await expect(h.adapter.fetchMessages()).rejects.toThrow(/not supported|history/i);
  });
});
