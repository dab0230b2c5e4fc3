import { sleep } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

type Seen = { text: string; skipped: string[]; total: number };

function recorder() {
  const seen: Seen[] = [];
  const record = (
    message: { text: string },
    context: { skipped: { text: string }[]; totalSinceLastHandler: number },
  ) =>
    seen.push({
      text: message.text,
      skipped: context.skipped.map((skipped) => skipped.text),
      total: context.totalSinceLastHandler,
    });
  return { seen, record };
}

describe("Chat", () => {
  describe("concurrency: queue", () => {
    it("should process queued messages with skipped context after handler finishes", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const { seen, record } = recorder();
      h.chat.onNewMention(async (_thread, message, context) => {
        record(message, context);
        if (message.text === "@bot first") await sleep(h.clock, 1_000);
      });
      const first = h.send("@bot first");
      await h.clock.advance(10);
      const second = h.send("@bot second");
      const third = h.send("@bot third");
      await h.clock.advance(1_000);
      expect(await first.done).toEqual({ outcome: "handled" });
      expect(await second.done).toMatchObject({ outcome: "skipped" });
      expect(await third.done).toEqual({ outcome: "handled" });
      expect(seen).toEqual([
        { text: "@bot first", skipped: [], total: 1 },
        { text: "@bot third", skipped: ["@bot second"], total: 2 },
      ]);
    });

    it("should enqueue messages when lock is held and drain after", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const { seen, record } = recorder();
      h.chat.onNewMention(async (_thread, message, context) => {
        record(message, context);
      });
      const lockKey = "thread:mock:C1:T1";
      // Upstream's shape: the lock is held from outside (another instance), three messages queue
      // behind it, then a fifth arrives after the lock is freed and drains them.
      expect(await h.state.acquireLock(lockKey, 30_000)).not.toBeNull();
      const queued = [];
      for (const text of ["@bot second", "@bot third", "@bot fourth"]) {
        queued.push(await h.send(text).done);
      }
      expect(queued.map((result) => result.outcome)).toEqual(["queued", "queued", "queued"]);
      expect(seen).toEqual([]);
      expect(await h.state.queueDepth(lockKey)).toBe(3);

      await h.state.forceReleaseLock(lockKey);
      expect(await h.send("@bot fifth").done).toEqual({ outcome: "handled" });

      expect(seen).toEqual([
        { text: "@bot fifth", skipped: [], total: 1 },
        { text: "@bot fourth", skipped: ["@bot second", "@bot third"], total: 3 },
      ]);
      expect(await h.state.queueDepth(lockKey)).toBe(0);
    });

    it("should call onNewMention when a skipped queued message mentions the bot", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const mentions: string[] = [];
      h.chat.onSubscribedMessage(async () => {});
      h.chat.onNewMention(async (_thread, message) => {
        mentions.push(message.text);
        if (message.text === "@bot start") await sleep(h.clock, 500);
      });
      const first = h.send("@bot start");
      await h.clock.advance(10);
      const skipped = h.send("@bot are you there");
      const latest = h.send("just chatting");
      await h.clock.advance(500);
      await Promise.all([first.done, skipped.done, latest.done]);
      expect(mentions).toEqual(["@bot start", "just chatting"]);
    });

    it("should continue to message patterns when skipped queued mention has no handler", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const matched: string[] = [];
      h.chat.onNewMessage(/deploy/, async (_thread, message) => {
        matched.push(message.text);
        if (message.text === "deploy one") await sleep(h.clock, 500);
      });
      const first = h.send("deploy one");
      await h.clock.advance(10);
      const skipped = h.send("@bot hello");
      const latest = h.send("deploy two");
      await h.clock.advance(500);
      await Promise.all([first.done, skipped.done, latest.done]);
      expect(matched).toEqual(["deploy one", "deploy two"]);
    });
  });

  describe("concurrency: queue attachment rehydration", () => {
    it("should call rehydrateAttachment on deserialized attachments missing fetchData", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const fetched: string[] = [];
      h.chat.onNewMention(async (_thread, message) => {
        if (message.text === "@bot first") await sleep(h.clock, 500);
        for (const attachment of message.attachments) {
          const data = await attachment.fetchData?.();
          fetched.push(`${attachment.name}:${data ? new TextDecoder().decode(data) : "none"}`);
        }
      });
      const first = h.send("@bot first");
      await h.clock.advance(10);
      const withFile = h.send("@bot file", {
        attachments: [h.attachment({ fetchMetadata: { content: "pdf-bytes" } })],
      });
      await h.clock.advance(500);
      await Promise.all([first.done, withFile.done]);
      expect(fetched).toEqual(["report.pdf:pdf-bytes"]);
    });

    it("should leave attachments unchanged when adapter has no rehydrateAttachment", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      Object.defineProperty(h.adapter, "rehydrateAttachment", { value: undefined });
      const received: unknown[] = [];
      h.chat.onNewMention(async (_thread, message) => {
        if (message.text === "@bot first") await sleep(h.clock, 500);
        received.push(...message.attachments);
      });
      const first = h.send("@bot first");
      await h.clock.advance(10);
      const withFile = h.send("@bot file", { attachments: [h.attachment({ size: 42 })] });
      await h.clock.advance(500);
      await Promise.all([first.done, withFile.done]);
      expect(received).toEqual([
        { type: "file", name: "report.pdf", url: "https://files.example/report.pdf", size: 42 },
      ]);
    });
  });

  describe("concurrency: queue with onSubscribedMessage", () => {
    it("should pass skipped context to subscribed message handlers", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const { seen, record } = recorder();
      await h.state.subscribe("mock:C1:T1");
      h.chat.onSubscribedMessage(async (_thread, message, context) => {
        record(message, context);
        if (message.text === "one") await sleep(h.clock, 500);
      });
      const first = h.send("one");
      await h.clock.advance(10);
      const second = h.send("two");
      const third = h.send("three");
      await h.clock.advance(500);
      await Promise.all([first.done, second.done, third.done]);
      expect(seen.at(-1)).toEqual({ text: "three", skipped: ["two"], total: 2 });
    });
  });

  describe("concurrency: queue edge cases", () => {
    it("should drop newest when queue is full with drop-newest policy", async () => {
      const h = await createChatHarness({
        concurrency: { strategy: "queue", maxQueueSize: 1, onQueueFull: "drop-newest" },
      });
      const { seen, record } = recorder();
      h.chat.onNewMention(async (_thread, message, context) => {
        record(message, context);
        if (message.text === "@bot first") await sleep(h.clock, 500);
      });
      const first = h.send("@bot first");
      await h.clock.advance(10);
      const kept = h.send("@bot kept");
      const refused = h.send("@bot refused");
      expect(await refused.done).toMatchObject({ outcome: "preempted" });
      await h.clock.advance(500);
      await Promise.all([first.done, kept.done]);
      expect(seen.map((entry) => entry.text)).toEqual(["@bot first", "@bot kept"]);
    });

    it("should drop oldest when queue is full with drop-oldest policy", async () => {
      const h = await createChatHarness({
        concurrency: { strategy: "queue", maxQueueSize: 1, onQueueFull: "drop-oldest" },
      });
      const { seen, record } = recorder();
      h.chat.onNewMention(async (_thread, message, context) => {
        record(message, context);
        if (message.text === "@bot first") await sleep(h.clock, 500);
      });
      const first = h.send("@bot first");
      await h.clock.advance(10);
      const evicted = h.send("@bot evicted");
      const kept = h.send("@bot kept");
      expect(await evicted.done).toMatchObject({ outcome: "preempted" });
      await h.clock.advance(500);
      await Promise.all([first.done, kept.done]);
      expect(seen.map((entry) => entry.text)).toEqual(["@bot first", "@bot kept"]);
    });

    it("should skip expired entries during drain", async () => {
      const h = await createChatHarness({
        concurrency: { strategy: "queue", queueEntryTtlMs: 1_000 },
      });
      const { seen, record } = recorder();
      h.chat.onNewMention(async (_thread, message, context) => {
        record(message, context);
        if (message.text === "@bot slow") await sleep(h.clock, 5_000);
      });
      const slow = h.send("@bot slow");
      await h.clock.advance(10);
      const stale = h.send("@bot stale");
      await h.clock.advance(5_000);
      await slow.done;
      expect(await stale.done).toMatchObject({ outcome: "expired" });
      expect(seen.map((entry) => entry.text)).toEqual(["@bot slow"]);
    });

    it("should work with onNewMessage pattern handlers", async () => {
      const h = await createChatHarness({ concurrency: "queue" });
      const { seen, record } = recorder();
      h.chat.onNewMessage(/^order/, async (_thread, message, context) => {
        record(message, context);
        if (message.text === "order 1") await sleep(h.clock, 500);
      });
      const first = h.send("order 1");
      await h.clock.advance(10);
      const second = h.send("order 2");
      await h.clock.advance(500);
      await Promise.all([first.done, second.done]);
      expect(seen.map((entry) => entry.text)).toEqual(["order 1", "order 2"]);
    });
  });
});
