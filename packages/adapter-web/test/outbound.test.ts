import { isBatonError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createWebAdapter, type WebAdapterOptions } from "../src/index.js";
import { createWebHarness, sseReader } from "./web-harness.js";

/** A lone adapter (no Chat needed for outbound calls) and a stream of alice's events. */
function adapterWithStream(options: Partial<WebAdapterOptions> = {}) {
  const web = createWebAdapter({
    identify: () => ({ userId: "alice", userName: "Alice" }),
    ...options,
  });
  const open = async () => {
    const response = await web.handleWebhook(new Request("http://localhost/events"));
    return sseReader(response.body as ReadableStream<Uint8Array>);
  };
  return { web, open };
}

const thread = "web:alice:general";

describe("outbound calls", () => {
  it("posts, edits, reacts and deletes, publishing each change to the thread's user", async () => {
    const { web, open } = adapterWithStream();
    const events = await open();
    const sent = await web.postMessage(thread, { markdown: "**hi**" });
    expect(sent).toEqual({ id: expect.stringMatching(/^b-/), threadId: thread });
    await web.editMessage(thread, sent.id, "hello");
    await web.addReaction(thread, sent.id, "wave");
    await web.addReaction(thread, sent.id, "wave");
    await web.removeReaction(thread, sent.id, "wave");
    await web.startTyping(thread);
    await web.deleteMessage(thread, sent.id);
    await events.next((e) => e.event === "delete");
    const kinds = events.seen
      .filter((e) => !["retry", "hello"].includes(e.event))
      .map((e) => `${e.event}${e.data.added === undefined ? "" : ` ${e.data.added}`}`);
    expect(kinds).toEqual([
      "message",
      "edit",
      "reaction true",
      "reaction false",
      "typing",
      "delete",
    ]);
    const posted = events.seen.find((e) => e.event === "message");
    expect(posted?.data.message).toMatchObject({ text: "**hi**", format: "markdown" });
    const edited = events.seen.find((e) => e.event === "edit");
    expect(edited?.data.message).toMatchObject({ text: "hello", format: "plain", edited: true });
    expect((await web.fetchMessages(thread)).messages).toEqual([]);
    await events.cancel();
  });

  it("shows an mdast tree as its markdown and a card that arrives anyway as its fallback text", async () => {
    const { web, open } = adapterWithStream();
    const events = await open();
    await web.postMessage(thread, {
      ast: {
        type: "root",
        children: [
          {
            type: "paragraph",
            children: [{ type: "strong", children: [{ type: "text", value: "tree" }] }],
          },
        ],
      },
    });
    await web.postMessage(thread, {
      card: { type: "card", title: "T", children: [] },
      fallbackText: "as text",
    });
    await events.next(
      (e) => e.event === "message" && (e.data.message as { text: string }).text === "as text",
    );
    const texts = events.seen
      .filter((e) => e.event === "message")
      .map((e) => e.data.message as { text: string; format: string })
      .map((message) => [message.text, message.format]);
    expect(texts).toEqual([
      ["**tree**", "markdown"],
      ["as text", "plain"],
    ]);
    expect(web.capabilities.cards).toBe(false);
    await events.cancel();
  });

  it("refuses to edit a user's message or to touch a message it does not keep", async () => {
    const h = await createWebHarness({ chat: { dispatch: "sync" } });
    const posted = await h.post("alice", { threadId: thread, text: "mine" });
    const { messageId } = (await posted.json()) as { messageId: string };
    const error = await h.web
      .editMessage(thread, messageId, "x")
      .catch((caught: unknown) => caught);
    expect(isBatonError(error, "ADAPTER_FAILED")).toBe(true);
    expect(String(error)).toContain("only its own messages");
    await expect(h.web.addReaction(thread, "missing", "x")).rejects.toThrow(/no message/);
    await expect(h.web.deleteMessage(thread, "missing")).rejects.toThrow(/no message/);
    await expect(h.web.postMessage("slack:C1:T1", "x")).rejects.toThrow(/not a thread id/);
    await h.web.deleteMessage(thread, messageId);
    expect((await h.web.fetchMessages(thread)).messages).toEqual([]);
    await h.chat.shutdown();
  });

  it("serves kept history newest first, in pages, and keeps only the last historyLimit", async () => {
    const { web } = adapterWithStream({ historyLimit: 5 });
    for (let i = 1; i <= 7; i += 1) await web.postMessage(thread, `m${i}`);
    const first = await web.fetchMessages(thread, { limit: 2 });
    expect(first.messages.map((m) => m.text)).toEqual(["m7", "m6"]);
    const second = await web.fetchMessages(thread, { limit: 2, cursor: first.nextCursor });
    expect(second.messages.map((m) => m.text)).toEqual(["m5", "m4"]);
    const third = await web.fetchMessages(thread, { limit: 2, cursor: second.nextCursor });
    expect(third.messages.map((m) => m.text)).toEqual(["m3"]);
    expect(third.nextCursor).toBeUndefined();
    await expect(web.fetchMessages(thread, { cursor: "nope" })).rejects.toThrow(/unknown cursor/);
    await expect(web.fetchMessages(thread, { limit: 0 })).rejects.toThrow(/limit/);
    expect((await web.fetchMessages("web:alice:other")).messages).toEqual([]);
  });

  it("forgets the least recently active thread past maxThreads", async () => {
    const { web } = adapterWithStream({ maxThreads: 2 });
    await web.postMessage("web:alice:a", "a");
    await web.postMessage("web:alice:b", "b");
    await web.postMessage("web:alice:a", "a again");
    await web.postMessage("web:alice:c", "c");
    expect((await web.fetchMessages("web:alice:b")).messages).toEqual([]);
    expect((await web.fetchMessages("web:alice:a")).messages).toHaveLength(2);
  });

  it("shows an ephemeral message once, without keeping it, and only to the thread's user", async () => {
    const { web, open } = adapterWithStream();
    const events = await open();
    await web.postEphemeral(thread, "alice", "only you see this");
    const shown = await events.next((e) => e.event === "message");
    expect(shown.data.message).toMatchObject({ text: "only you see this", ephemeral: true });
    expect((await web.fetchMessages(thread)).messages).toEqual([]);
    await expect(web.postEphemeral(thread, "bob", "x")).rejects.toThrow(/belongs to alice/);
    await events.cancel();
  });

  it("streams a reply: posted at the first chunk, edited to the full text at the end", async () => {
    const { web, open } = adapterWithStream({ streamEditIntervalMs: 60_000 });
    async function* chunks() {
      yield "";
      yield "Hel";
      yield "lo";
      yield ", world";
    }
    const sent = await web.stream(thread, chunks());
    const page = await web.fetchMessages(thread);
    expect(page.messages.map((m) => [m.id, m.text, m.metadata.edited])).toEqual([
      [sent.id, "Hello, world", true],
    ]);
    async function* nothing() {}
    await expect(web.stream(thread, nothing())).rejects.toThrow(/no text/);
  });
});
