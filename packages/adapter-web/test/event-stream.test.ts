import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createWebHarness, sseReader } from "./web-harness.js";

/**
 * Runs full garbage collections once the current call stacks have unwound, so a test can show
 * that nothing it needs was only weakly held.
 */
async function collectGarbage(): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  for (let round = 0; round < 2; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
  }
}

describe("GET …/events", () => {
  it("carries a mention round trip: the user's message, typing, then the bot's reply", async () => {
    const h = await createWebHarness();
    h.chat.onNewMention(async (thread, message) => {
      await thread.startTyping("thinking");
      await thread.post(`you said: ${message.text}`);
    });
    const stream = await h.events("alice|Alice");
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
    const reader = stream.reader!;
    const hello = await reader.next((e) => e.event === "hello");
    expect(hello.data).toMatchObject({
      userId: "alice",
      userName: "Alice",
      dmThreadId: "web:alice:dm",
    });

    const posted = await h.post("alice|Alice", { threadId: "web:alice:general", text: "@bot hi" });
    const { messageId } = (await posted.json()) as { messageId: string };
    const mine = await reader.next(
      (e) =>
        e.event === "message" &&
        e.data.threadId === "web:alice:general" &&
        (e.data.message as { author: { isMe: boolean } }).author.isMe === false,
    );
    expect(mine.data.message).toMatchObject({
      id: messageId,
      text: "@bot hi",
      author: { userId: "alice", userName: "Alice" },
    });
    const typing = await reader.next((e) => e.event === "typing");
    expect(typing.data).toMatchObject({ threadId: "web:alice:general", status: "thinking" });
    const reply = await reader.next(
      (e) => e.event === "message" && (e.data.message as { author: { isMe: boolean } }).author.isMe,
    );
    expect(reply.data).toMatchObject({
      threadId: "web:alice:general",
      message: {
        text: "you said: @bot hi",
        format: "plain",
        author: { userId: "bot", isBot: true },
      },
    });
    expect(Number(reply.data.seq)).toBeGreaterThan(Number(typing.data.seq));
    stream.controller.abort();
    await h.chat.shutdown();
  });

  it("keeps several threads of one user and the threads of different users apart", async () => {
    const h = await createWebHarness();
    h.chat.onDirectMessage(async (thread, message) => {
      await thread.post(`dm echo: ${message.text}`);
    });
    h.chat.onNewMention(async (thread, message) => {
      await thread.post(`echo in ${thread.id}: ${message.text}`);
    });
    const aliceAll = await h.events("alice");
    const aliceGeneral = await h.events("alice", "web:alice:general");
    const bob = await h.events("bob");

    await h.post("alice", { threadId: "web:alice:general", text: "@bot one" });
    await h.post("alice", { threadId: "web:alice:random", text: "@bot two" });
    await h.post("bob", { text: "bob here" });

    const isBotReply =
      (threadId: string) => (e: { event: string; data: Record<string, unknown> }) =>
        e.event === "message" &&
        e.data.threadId === threadId &&
        (e.data.message as { author: { isMe: boolean } }).author.isMe;
    await aliceAll.reader!.next(isBotReply("web:alice:general"));
    await aliceAll.reader!.next(isBotReply("web:alice:random"));
    await aliceGeneral.reader!.next(isBotReply("web:alice:general"));
    const bobReply = await bob.reader!.next(isBotReply("web:bob:dm"));
    expect(bobReply.data.message).toMatchObject({ text: "dm echo: bob here" });

    const threadsIn = (seen: readonly { data: Record<string, unknown> }[]) =>
      [...new Set(seen.map((e) => e.data.threadId).filter((id) => id !== undefined))].sort();
    expect(threadsIn(aliceAll.reader!.seen)).toEqual(["web:alice:general", "web:alice:random"]);
    expect(threadsIn(aliceGeneral.reader!.seen)).toEqual(["web:alice:general"]);
    expect(threadsIn(bob.reader!.seen)).toEqual(["web:bob:dm"]);
    expect((await h.web.fetchMessages("web:alice:random")).messages.map((m) => m.text)).toEqual([
      "echo in web:alice:random: @bot two",
      "@bot two",
    ]);

    const peek = await h.events("bob", "web:alice:general");
    expect(peek.response.status).toBe(403);
    for (const s of [aliceAll, aliceGeneral, bob]) s.controller.abort();
    await h.chat.shutdown();
  });

  it("starts a (re)connecting page from a snapshot of each thread's kept messages", async () => {
    const h = await createWebHarness({ chat: { dispatch: "sync" } });
    h.chat.onDirectMessage(async (thread) => {
      const sent = await thread.post("first answer");
      await sent.edit("edited answer");
      await sent.addReaction("thumbs_up");
    });
    await h.post("alice", { text: "question" });
    const stream = await h.events("alice");
    const snapshot = await stream.reader!.next((e) => e.event === "snapshot");
    expect(snapshot.data.threadId).toBe("web:alice:dm");
    expect(snapshot.data.messages).toMatchObject([
      { text: "question", author: { userId: "alice" } },
      { text: "edited answer", edited: true, reactions: ["thumbs_up"], author: { isMe: true } },
    ]);
    stream.controller.abort();
    await h.chat.shutdown();
  });

  it("refuses a stream without an identity with 401", async () => {
    const h = await createWebHarness();
    const response = await h.web.handleWebhook(new Request("http://localhost/api/web/events"));
    expect(response.status).toBe(401);
    await h.chat.shutdown();
  });

  it("sends heartbeats and a reconnect delay, and unsubscribes when the client hangs up", async () => {
    const h = await createWebHarness({ adapter: { heartbeatMs: 20, reconnectDelayMs: 500 } });
    const stream = await h.events("alice");
    const retry = await stream.reader!.next((e) => e.event === "retry");
    expect(retry.raw).toBe("retry: 500");
    await stream.reader!.next((e) => e.event === "comment");
    expect(h.web.openStreams).toBe(1);
    stream.controller.abort();
    await expect.poll(() => h.web.openStreams, { timeout: 4_000 }).toBe(0);
    const cancelled = await h.events("alice");
    expect(h.web.openStreams).toBe(1);
    await cancelled.reader!.cancel();
    expect(h.web.openStreams).toBe(0);
    await h.chat.shutdown();
  });

  it("still unsubscribes on hang-up after the request object has been garbage collected", async () => {
    const h = await createWebHarness();
    const controller = new AbortController();
    // Only the adapter may hold this Request once the response is back: a Request's signal
    // follows `controller` only while the Request is alive.
    const response = await h.web.handleWebhook(
      new Request("http://localhost/api/web/events", {
        headers: { "x-user": "alice" },
        signal: controller.signal,
      }),
    );
    await sseReader(response.body!).next((e) => e.event === "hello");
    await collectGarbage();
    controller.abort();
    await expect.poll(() => h.web.openStreams, { timeout: 4_000 }).toBe(0);
    await h.chat.shutdown();
  });

  it("ends open streams when the Chat shuts down, so the host's server can close", async () => {
    const h = await createWebHarness();
    const stream = await h.events("alice");
    await stream.reader!.next((e) => e.event === "hello");
    await h.chat.shutdown();
    expect(await stream.reader!.ends()).toBe(true);
    expect(h.web.openStreams).toBe(0);
  });
});
