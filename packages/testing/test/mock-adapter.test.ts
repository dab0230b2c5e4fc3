import { AdapterError, ConfigError, Message, RateLimitError, ValidationError } from "@baton/core";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  decodeMockThreadId,
  encodeMockThreadId,
  MOCK_METHODS,
} from "../src/index.js";

const THREAD = "mock:C123:T1";
const OTHER_THREAD = "mock:C123:T2";

async function* chunksOf(...chunks: string[]): AsyncIterable<string> {
  for (const chunk of chunks) yield chunk;
}

describe("createMockAdapter: identity and thread ids", () => {
  it("uses the documented defaults for name, userName, botUserId and lock scope", () => {
    const adapter = createMockAdapter();
    expect(adapter.name).toBe("mock");
    expect(adapter.userName).toBe("bot");
    expect(adapter.botUserId).toBe("U_BOT");
    expect(adapter.lockScope).toBeUndefined();
  });

  it("takes name, userName, botUserId and lockScope from its arguments", () => {
    const adapter = createMockAdapter("slacky", {
      userName: "helper",
      botUserId: "U_HELP",
      lockScope: "channel",
    });
    expect([adapter.name, adapter.userName, adapter.botUserId, adapter.lockScope]).toEqual([
      "slacky",
      "helper",
      "U_HELP",
      "channel",
    ]);
  });

  it("rejects bad options with one ConfigError listing every problem", () => {
    const attempt = () =>
      createMockAdapter("a:b", {
        userName: "",
        lockScope: "room" as never,
        defaultPageSize: 0,
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(4);
    }
  });

  it("encodes {name}:{channel}:{thread} and decodes it back to the same data", () => {
    const adapter = createMockAdapter("chat");
    const id = adapter.encodeThreadId({ channel: "C9", thread: "1700.01" });
    expect(id).toBe("chat:C9:1700.01");
    expect(adapter.decodeThreadId(id)).toEqual({ channel: "C9", thread: "1700.01" });
    expect(
      decodeMockThreadId("chat", encodeMockThreadId("chat", { channel: "X", thread: "Y" })),
    ).toEqual({ channel: "X", thread: "Y" });
  });

  it.each([
    ["another adapter's prefix", "slack:C1:T1"],
    ["a missing thread part", "mock:C1"],
    ["an empty channel part", "mock::T1"],
    ["an empty thread part", "mock:C1:"],
    ["extra parts", "mock:C1:T1:X"],
    ["an empty string", ""],
  ])("refuses to decode a thread id with %s", (_, id) => {
    const adapter = createMockAdapter();
    expect(() => adapter.decodeThreadId(id)).toThrow(ValidationError);
    expect(() => adapter.decodeThreadId(id)).toThrow(/is not a thread id of adapter "mock"/);
  });

  it("refuses to encode a part that is empty or contains a colon", () => {
    const adapter = createMockAdapter();
    expect(() => adapter.encodeThreadId({ channel: "", thread: "T" })).toThrow(ValidationError);
    expect(() => adapter.encodeThreadId({ channel: "C", thread: "a:b" })).toThrow(ValidationError);
  });

  it("derives the channel id {name}:{channel} from a thread id", () => {
    const adapter = createMockAdapter();
    expect(adapter.channelIdFromThreadId("mock:C77:T5")).toBe("mock:C77");
    expect(() => adapter.channelIdFromThreadId("other:C77:T5")).toThrow(ValidationError);
  });

  it("treats a thread as a DM exactly when its channel starts with D", () => {
    const adapter = createMockAdapter();
    expect(adapter.isDM("mock:D123:T1")).toBe(true);
    expect(adapter.isDM("mock:C123:T1")).toBe(false);
    expect(adapter.isDM("mock:d123:T1")).toBe(false);
  });
});

describe("MockAdapter: lifecycle and parsing", () => {
  it("keeps the host given to initialize and reports disconnect", async () => {
    const adapter = createMockAdapter();
    const host = { marker: true } as never;
    expect(adapter.chat).toBeUndefined();
    await adapter.initialize(host);
    expect(adapter.chat).toBe(host);
    expect(adapter.disconnected).toBe(false);
    await adapter.disconnect();
    await adapter.disconnect();
    expect(adapter.disconnected).toBe(true);
  });

  it("parses a raw message with a default human author and unknown mention", () => {
    const clock = createFakeClock(Date.UTC(2026, 4, 1));
    const adapter = createMockAdapter("mock", { clock });
    const message = adapter.parseMessage({ id: "m1", threadId: THREAD, text: "hi there" });
    expect(message).toBeInstanceOf(Message);
    expect(message.id).toBe("m1");
    expect(message.threadId).toBe(THREAD);
    expect(message.text).toBe("hi there");
    expect(message.author).toEqual({
      userId: "U_USER",
      userName: "U_USER",
      fullName: "U_USER",
      isBot: false,
      isMe: false,
    });
    expect(message.isMention).toBeUndefined();
    expect(message.metadata.dateSent.getTime()).toBe(Date.UTC(2026, 4, 1));
    expect(message.attachments).toEqual([]);
  });

  it("marks a message from its own bot user id as isMe and isBot", () => {
    const adapter = createMockAdapter();
    const message = adapter.parseMessage({
      id: "m1",
      threadId: THREAD,
      text: "I said",
      userId: "U_BOT",
      isMention: true,
      dateSent: "2026-02-03T04:05:06.000Z",
    });
    expect(message.author.isMe).toBe(true);
    expect(message.author.isBot).toBe(true);
    expect(message.isMention).toBe(true);
    expect(message.metadata.dateSent.toISOString()).toBe("2026-02-03T04:05:06.000Z");
  });

  it("parses a message's JSON form back into an equal message", () => {
    const adapter = createMockAdapter();
    const original = createTestMessage({ text: "round trip", isMention: false });
    const parsed = adapter.parseMessage(JSON.parse(JSON.stringify(original)));
    expect(parsed.toJSON()).toEqual(original.toJSON());
  });

  it.each([
    ["a non-object", "hello", /expected an object/],
    ["a missing id", { threadId: THREAD, text: "x" }, /id must be a string/],
    ["a numeric text", { id: "1", threadId: THREAD, text: 5 }, /text must be a string/],
    ["a bad date", { id: "1", threadId: THREAD, text: "x", dateSent: "soon" }, /dateSent/],
    ["a foreign thread id", { id: "1", threadId: "slack:C1:T1", text: "x" }, /not a thread id/],
  ])("rejects %s with a ValidationError naming the problem", (_, raw, problem) => {
    const adapter = createMockAdapter();
    expect(() => adapter.parseMessage(raw)).toThrow(ValidationError);
    expect(() => adapter.parseMessage(raw)).toThrow(problem);
  });

  it("restores fetchData of an attachment from its fetchMetadata content", async () => {
    const adapter = createMockAdapter();
    const restored = adapter.rehydrateAttachment({
      type: "file",
      name: "a.txt",
      fetchMetadata: { content: "file body" },
    });
    expect(new TextDecoder().decode(await restored.fetchData?.())).toBe("file body");
    expect(adapter.rehydrateAttachment({ type: "image" }).fetchData).toBeUndefined();
  });
});

describe("MockAdapter: recording outbound calls", () => {
  let adapter: ReturnType<typeof createMockAdapter>;
  const clock = createFakeClock();

  beforeEach(() => {
    adapter = createMockAdapter("mock", { clock });
  });

  it("records every outbound method with its args, thread and time, in call order", async () => {
    const sent = await adapter.postMessage(THREAD, "first");
    await adapter.editMessage(THREAD, sent.id, { markdown: "*edited*" });
    await adapter.deleteMessage(THREAD, sent.id);
    await adapter.addReaction(THREAD, "m1", "thumbs_up");
    await adapter.removeReaction(THREAD, "m1", "thumbs_up");
    await adapter.startTyping(THREAD, "thinking");
    await adapter.fetchMessages(THREAD, { limit: 5 });
    await clock.advance(250);
    await adapter.stream(OTHER_THREAD, chunksOf("str", "eam"));
    const dm = await adapter.openDM("U_USER");
    await adapter.postEphemeral(THREAD, "U_USER", { raw: "psst" });
    const postAt = new Date(Date.UTC(2027, 0, 1));
    await adapter.scheduleMessage(THREAD, "later", { postAt });
    adapter.seedUsers([{ userId: "U_USER", userName: "user" }]);
    await adapter.getUser("U_USER");
    await adapter.markAsRead(THREAD, "m1");
    await adapter.reply(THREAD, "m1", "re");
    await adapter.fetchThread(THREAD);
    await adapter.fetchChannelInfo("mock:C123");
    await adapter.listThreads("mock:C123", { limit: 2 });

    const start = Date.UTC(2026, 0, 1);
    expect(adapter.calls).toEqual([
      { method: "postMessage", threadId: THREAD, args: [THREAD, "first"], at: start },
      {
        method: "editMessage",
        threadId: THREAD,
        args: [THREAD, "mock-msg-1", { markdown: "*edited*" }],
        at: start,
      },
      { method: "deleteMessage", threadId: THREAD, args: [THREAD, "mock-msg-1"], at: start },
      { method: "addReaction", threadId: THREAD, args: [THREAD, "m1", "thumbs_up"], at: start },
      { method: "removeReaction", threadId: THREAD, args: [THREAD, "m1", "thumbs_up"], at: start },
      { method: "startTyping", threadId: THREAD, args: [THREAD, "thinking"], at: start },
      { method: "fetchMessages", threadId: THREAD, args: [THREAD, { limit: 5 }], at: start },
      {
        method: "stream",
        threadId: OTHER_THREAD,
        args: [OTHER_THREAD, ["str", "eam"]],
        at: start + 250,
      },
      { method: "openDM", threadId: dm, args: ["U_USER"], at: start + 250 },
      {
        method: "postEphemeral",
        threadId: THREAD,
        args: [THREAD, "U_USER", { raw: "psst" }],
        at: start + 250,
      },
      {
        method: "scheduleMessage",
        threadId: THREAD,
        args: [THREAD, "later", { postAt }],
        at: start + 250,
      },
      { method: "getUser", threadId: "U_USER", args: ["U_USER"], at: start + 250 },
      { method: "markAsRead", threadId: THREAD, args: [THREAD, "m1"], at: start + 250 },
      { method: "reply", threadId: THREAD, args: [THREAD, "m1", "re"], at: start + 250 },
      { method: "fetchThread", threadId: THREAD, args: [THREAD], at: start + 250 },
      { method: "fetchChannelInfo", threadId: "mock:C123", args: ["mock:C123"], at: start + 250 },
      {
        method: "listThreads",
        threadId: "mock:C123",
        args: ["mock:C123", { limit: 2 }],
        at: start + 250,
      },
    ]);
    expect(adapter.calls.map((call) => call.method)).toEqual([
      "postMessage",
      "editMessage",
      "deleteMessage",
      "addReaction",
      "removeReaction",
      "startTyping",
      "fetchMessages",
      "stream",
      "openDM",
      "postEphemeral",
      "scheduleMessage",
      "getUser",
      "markAsRead",
      "reply",
      "fetchThread",
      "fetchChannelInfo",
      "listThreads",
    ]);
    // openModal needs a modal element; the modal tests record it.
    const coveredElsewhere: readonly string[] = ["openModal"];
    expect([...MOCK_METHODS].filter((method) => !coveredElsewhere.includes(method)).sort()).toEqual(
      adapter.calls.map((call) => call.method).sort(),
    );
  });

  it("records calls in the order they were made, not the order they settle", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slow(): AsyncIterable<string> {
      await gate;
      yield "late";
    }
    const streaming = adapter.stream(THREAD, slow());
    const posting = adapter.postMessage(THREAD, "early");
    await posting;
    expect(adapter.calls.map((call) => call.method)).toEqual(["stream", "postMessage"]);
    expect(adapter.calls[0]?.args).toEqual([THREAD, []]);
    expect(adapter.posted).toEqual(["early"]);
    release();
    await streaming;
    expect(adapter.calls[0]?.args).toEqual([THREAD, ["late"]]);
    // A streamed message appears where the stream began, as on a platform that edits in place.
    expect(adapter.posted).toEqual(["late", "early"]);
  });

  it("omits trailing arguments the caller left out", async () => {
    await adapter.startTyping(THREAD);
    await adapter.fetchMessages(THREAD);
    expect(adapter.calls.map((call) => call.args)).toEqual([[THREAD], [THREAD]]);
  });

  it("returns increasing mock-msg ids for posts, streams and ephemeral posts", async () => {
    const a = await adapter.postMessage(THREAD, "a");
    const b = await adapter.stream(THREAD, chunksOf("b"));
    const c = await adapter.postEphemeral(THREAD, "U_USER", "c");
    const edited = await adapter.editMessage(THREAD, a.id, "a2");
    expect([a, b, c]).toEqual([
      { id: "mock-msg-1", threadId: THREAD },
      { id: "mock-msg-2", threadId: THREAD },
      { id: "mock-msg-3", threadId: THREAD, usedFallback: false },
    ]);
    expect(edited).toEqual({ id: "mock-msg-1", threadId: THREAD });
  });

  it("opens a DM thread that isDM recognizes and that accepts posts", async () => {
    const dm = await adapter.openDM("U42");
    expect(dm).toBe("mock:DU42:dm");
    expect(adapter.isDM(dm)).toBe(true);
    await adapter.postMessage(dm, "hi in private");
    expect(adapter.postedTo(dm)).toEqual(["hi in private"]);
  });

  it("hands out copies: changing what calls returns changes nothing recorded", async () => {
    const message = { markdown: "original" };
    await adapter.postMessage(THREAD, message);
    message.markdown = "mutated by caller";
    const first = adapter.calls;
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => {
      (first as unknown[]).push("x");
    }).toThrow();
    expect(adapter.calls[0]?.args[1]).toEqual({ markdown: "original" });
    expect(adapter.calls[0]).not.toBe(first[0]);
  });

  it("lists posted texts of strings, markdown and raw messages, overall and per thread", async () => {
    await adapter.postMessage(THREAD, "plain");
    await adapter.postMessage(OTHER_THREAD, { markdown: "**md**" });
    await adapter.postMessage(THREAD, { raw: "<raw>" });
    await adapter.postEphemeral(THREAD, "U_USER", "only you");
    expect(adapter.posted).toEqual(["plain", "**md**", "<raw>"]);
    expect(adapter.postedTo(THREAD)).toEqual(["plain", "<raw>"]);
    expect(adapter.postedTo(OTHER_THREAD)).toEqual(["**md**"]);
    expect(adapter.posts.map((post) => post.via)).toEqual([
      "postMessage",
      "postMessage",
      "postMessage",
    ]);
    expect(adapter.callsOf("postEphemeral")).toHaveLength(1);
  });

  it("rejects a call to another adapter's thread and records it as failed", async () => {
    await expect(adapter.postMessage("slack:C1:T1", "x")).rejects.toThrow(ValidationError);
    expect(adapter.calls).toHaveLength(1);
    expect(adapter.calls[0]?.error).toBeInstanceOf(ValidationError);
    expect(adapter.posted).toEqual([]);
  });

  it("rejects a message that is none of the postable kinds", async () => {
    await expect(adapter.postMessage(THREAD, { text: "x" } as never)).rejects.toThrow(
      /message must be a non-empty string, \{ markdown \}, \{ ast \}, \{ raw \} or a card/,
    );
    await expect(adapter.postMessage(THREAD, "")).rejects.toThrow(ValidationError);
  });

  it("fails the next call of a method with the given error, once, and records the failure", async () => {
    const limited = new RateLimitError("slow down", 2000);
    adapter.failNext("postMessage", limited);
    await expect(adapter.postMessage(THREAD, "lost")).rejects.toBe(limited);
    await expect(adapter.postMessage(THREAD, "kept")).resolves.toEqual({
      id: "mock-msg-1",
      threadId: THREAD,
    });
    expect(adapter.calls.map((call) => call.error)).toEqual([limited, undefined]);
    expect("error" in (adapter.calls[1] ?? {})).toBe(false);
    expect(adapter.posted).toEqual(["kept"]);
  });

  it("queues several failures in order and leaves other methods alone", async () => {
    const first = new Error("first");
    adapter.failNext("addReaction", first);
    adapter.failNext("addReaction");
    await expect(adapter.deleteMessage(THREAD, "m")).resolves.toBeUndefined();
    await expect(adapter.addReaction(THREAD, "m", "x")).rejects.toBe(first);
    const second = adapter.addReaction(THREAD, "m", "x");
    await expect(second).rejects.toBeInstanceOf(AdapterError);
    await expect(second).rejects.toThrow(/addReaction failed \(injected by failNext\)/);
    await expect(adapter.addReaction(THREAD, "m", "x")).resolves.toBeUndefined();
  });

  it("fails a stream without reading it and without counting it as posted", async () => {
    adapter.failNext("stream");
    let read = false;
    async function* watched(): AsyncIterable<string> {
      read = true;
      yield "never";
    }
    await expect(adapter.stream(THREAD, watched())).rejects.toBeInstanceOf(AdapterError);
    expect(read).toBe(false);
    expect(adapter.posted).toEqual([]);
  });

  it("refuses to schedule a failure for an unknown method", () => {
    expect(() => adapter.failNext("sendFax" as never)).toThrow(/unknown method "sendFax"/);
  });

  it("reset forgets calls, seeded history and pending failures, and restarts ids", async () => {
    adapter.seedMessages(THREAD, [createTestMessage()]);
    await adapter.postMessage(THREAD, "before");
    adapter.failNext("postMessage");
    adapter.reset();
    expect(adapter.calls).toEqual([]);
    expect(adapter.posted).toEqual([]);
    await expect(adapter.postMessage(THREAD, "after")).resolves.toEqual({
      id: "mock-msg-1",
      threadId: THREAD,
    });
    await expect(adapter.fetchMessages(THREAD)).resolves.toEqual({ messages: [] });
  });
});

describe("MockAdapter: fetchMessages", () => {
  function seeded(count: number) {
    const adapter = createMockAdapter();
    const messages = Array.from({ length: count }, (_, index) =>
      createTestMessage({ id: `h${index + 1}`, dateSent: Date.UTC(2026, 0, 1, 0, index) }),
    );
    adapter.seedMessages(THREAD, messages);
    return adapter;
  }

  it("returns seeded messages newest first, a page at a time, until nextCursor is absent", async () => {
    const adapter = seeded(5);
    const first = await adapter.fetchMessages(THREAD, { limit: 2 });
    expect(first.messages.map((m) => m.id)).toEqual(["h5", "h4"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await adapter.fetchMessages(THREAD, { limit: 2, cursor: first.nextCursor });
    expect(second.messages.map((m) => m.id)).toEqual(["h3", "h2"]);
    const last = await adapter.fetchMessages(THREAD, { limit: 2, cursor: second.nextCursor });
    expect(last.messages.map((m) => m.id)).toEqual(["h1"]);
    expect(last).not.toHaveProperty("nextCursor");
  });

  it("uses the default page size when no limit is given", async () => {
    const adapter = seeded(60);
    const page = await adapter.fetchMessages(THREAD);
    expect(page.messages).toHaveLength(50);
    expect(page.messages[0]?.id).toBe("h60");
    const small = createMockAdapter("mock", { defaultPageSize: 3 });
    small.seedMessages(THREAD, [createTestMessage(), createTestMessage()]);
    expect((await small.fetchMessages(THREAD)).nextCursor).toBeUndefined();
  });

  it("returns an empty last page for a thread with no history", async () => {
    const adapter = seeded(2);
    await expect(adapter.fetchMessages(OTHER_THREAD)).resolves.toEqual({ messages: [] });
  });

  it("appends later seeds after earlier ones", async () => {
    const adapter = seeded(1);
    adapter.seedMessages(THREAD, [createTestMessage({ id: "newer" })]);
    const page = await adapter.fetchMessages(THREAD);
    expect(page.messages.map((m) => m.id)).toEqual(["newer", "h1"]);
  });

  it("rejects a foreign cursor and a limit that is not a positive integer", async () => {
    const adapter = seeded(3);
    await expect(adapter.fetchMessages(THREAD, { cursor: "abc" })).rejects.toThrow(
      /unknown cursor "abc"/,
    );
    await expect(adapter.fetchMessages(THREAD, { limit: 0 })).rejects.toThrow(ValidationError);
    await expect(adapter.fetchMessages(THREAD, { limit: 1.5 })).rejects.toThrow(ValidationError);
  });

  it("refuses to seed a message that belongs to another thread", () => {
    const adapter = createMockAdapter();
    expect(() =>
      adapter.seedMessages(THREAD, [createTestMessage({ threadId: OTHER_THREAD })]),
    ).toThrow(/belongs to mock:C123:T2, not mock:C123:T1/);
    expect(() => adapter.seedMessages("slack:C1:T1", [])).toThrow(ValidationError);
  });
});
