import { createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Chat, type DeliveryResult, type Message, StateError } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";

const THREAD = "mock:C1:T1";
const TEN_MINUTES_MS = 600_000;
const HELLO_REGEX = /hello/i;
const ANY_REGEX = /.*/;

type Harness = Awaited<ReturnType<typeof createChatHarness>>;

/** Records the ids of the messages each hook's handler received, in call order. */
function record(h: Harness) {
  const mentions: string[] = [];
  const patterns: string[] = [];
  h.chat.onNewMention((_thread, message) => {
    mentions.push(message.id);
  });
  h.chat.onNewMessage(ANY_REGEX, (_thread, message) => {
    patterns.push(message.id);
  });
  return { mentions, patterns };
}

/** A redelivery: a new `Message` object with the id and text of an earlier delivery. */
function redeliver(h: Harness, original: Message): Promise<DeliveryResult> {
  const copy = createTestMessage({
    id: original.id,
    threadId: original.threadId,
    text: original.text,
  });
  return h.chat.processMessage(h.adapter, copy.threadId, copy);
}

/** Makes the next call of one memory-state method reject as an unreachable State would. */
function failOnce<K extends "isSubscribed" | "acquireLock" | "setIfNotExists">(
  h: Harness,
  method: K,
) {
  const real = h.state[method].bind(h.state) as (...args: unknown[]) => Promise<unknown>;
  let failed = false;
  return vi.spyOn(h.state, method).mockImplementation((async (...args: unknown[]) => {
    if (!failed) {
      failed = true;
      throw new StateError("unavailable", `${method}: connection refused`);
    }
    return real(...args);
  }) as never);
}

describe("Chat", () => {
  describe("message deduplication", () => {
    it("should skip duplicate messages with the same id", async () => {
      const h = await createChatHarness();
      const { mentions } = record(h);

      const first = h.send("Hey @bot help", { id: "msg-1" });
      expect(await first.done).toEqual({ outcome: "handled" });
      expect(await redeliver(h, first.message)).toEqual({
        outcome: "duplicate",
        reason: "already accepted",
      });

      expect(mentions).toEqual(["msg-1"]);
    });

    it("should use default dedupe TTL of 10 minutes", async () => {
      const h = await createChatHarness();
      const { mentions } = record(h);
      const first = h.send("Hey @bot help");
      expect(await first.done).toEqual({ outcome: "handled" });

      await h.clock.advance(TEN_MINUTES_MS - 1);
      expect(await redeliver(h, first.message)).toMatchObject({ outcome: "duplicate" });

      await h.clock.advance(2);
      expect(await redeliver(h, first.message)).toEqual({ outcome: "handled" });

      expect(mentions).toEqual([first.message.id, first.message.id]);
    });

    it("should use custom dedupeTtlMs when configured", async () => {
      const h = await createChatHarness({ dedupeTtlMs: 60_000 });
      const { mentions } = record(h);
      const setIfNotExists = vi.spyOn(h.state, "setIfNotExists");
      const first = h.send("Hey @bot help", { id: "msg-2" });
      expect(await first.done).toEqual({ outcome: "handled" });
      expect(setIfNotExists).toHaveBeenCalledWith("dedupe:mock:msg-2", expect.anything(), 60_000);

      await h.clock.advance(59_999);
      expect(await redeliver(h, first.message)).toMatchObject({ outcome: "duplicate" });

      await h.clock.advance(2);
      expect(await redeliver(h, first.message)).toEqual({ outcome: "handled" });

      expect(mentions).toEqual(["msg-2", "msg-2"]);
    });

    it("should use atomic setIfNotExists for deduplication", async () => {
      const h = await createChatHarness();
      record(h);
      const setIfNotExists = vi.spyOn(h.state, "setIfNotExists");
      const get = vi.spyOn(h.state, "get");

      await h.send("Hey @bot help", { id: "msg-1" }).done;

      const dedupeWrites = setIfNotExists.mock.calls.filter(([key]) => key.startsWith("dedupe:"));
      expect(dedupeWrites).toHaveLength(1);
      expect(dedupeWrites[0]?.[0]).toBe("dedupe:mock:msg-1");
      expect(get).not.toHaveBeenCalledWith(expect.stringContaining("dedupe:"));
    });

    it("should handle concurrent duplicates atomically", async () => {
      const h = await createChatHarness();
      const { mentions } = record(h);
      const one = createTestMessage({ id: "ts-1", threadId: THREAD, text: "Hey @bot help" });
      const two = createTestMessage({ id: "ts-1", threadId: THREAD, text: "Hey @bot help" });

      const results = await Promise.all([
        h.chat.processMessage(h.adapter, THREAD, one),
        h.chat.processMessage(h.adapter, THREAD, two),
      ]);

      expect(results.map((result) => result.outcome).sort()).toEqual(["duplicate", "handled"]);
      expect(mentions).toEqual(["ts-1"]);
    });

    it("should trigger onNewMention for message events containing a bot mention", async () => {
      const h = await createChatHarness();
      const { mentions, patterns } = record(h);

      // A plain message event (not an app mention), so the adapter left isMention unknown.
      await h.send("Hey <@U_BOT> help", { id: "msg-1" }).done;

      expect(mentions).toEqual(["msg-1"]);
      expect(patterns).toEqual([]);
    });

    it("should not trigger onNewMention when message event has no bot mention", async () => {
      const h = await createChatHarness();
      const mentions: string[] = [];
      const hellos: string[] = [];
      h.chat.onNewMention((_thread, message) => {
        mentions.push(message.id);
      });
      h.chat.onNewMessage(HELLO_REGEX, (_thread, message) => {
        hellos.push(message.id);
      });

      await h.send("hello everyone", { id: "msg-1" }).done;

      expect(mentions).toEqual([]);
      expect(hellos).toEqual(["msg-1"]);
    });

    it("should not trigger onNewMention when a bot with a hyphen-suffixed name is mentioned", async () => {
      const h = await createChatHarness();
      const { mentions, patterns } = record(h);

      await h.send("Hey @bot-dev help", { id: "msg-1" }).done;

      expect(mentions).toEqual([]);
      expect(patterns).toEqual(["msg-1"]);
    });

    it("should not trigger onNewMention when a hyphen-suffixed user ID is mentioned", async () => {
      const h = await createChatHarness();
      const { mentions, patterns } = record(h);

      await h.send("Hey @U_BOT-old help", { id: "msg-1" }).done;

      expect(mentions).toEqual([]);
      expect(patterns).toEqual(["msg-1"]);
    });

    it("processes a duplicate racing on another instance sharing the State once", async () => {
      const h = await createChatHarness();
      const other = new Chat({
        userName: "bot",
        adapters: { mock: h.adapter },
        state: h.state,
        logger: "silent",
        clock: h.clock,
      });
      await other.initialize();
      const handledBy: string[] = [];
      h.chat.onNewMention(() => {
        handledBy.push("first instance");
      });
      other.onNewMention(() => {
        handledBy.push("second instance");
      });
      const one = createTestMessage({ id: "ts-2", threadId: THREAD, text: "@bot help" });
      const two = createTestMessage({ id: "ts-2", threadId: THREAD, text: "@bot help" });

      const results = await Promise.all([
        h.chat.processMessage(h.adapter, THREAD, one),
        other.processMessage(h.adapter, THREAD, two),
      ]);

      expect(results.map((result) => result.outcome).sort()).toEqual(["duplicate", "handled"]);
      expect(handledBy).toHaveLength(1);
    });

    it("keeps dedupe per adapter: the same message id on another adapter is processed", async () => {
      const h = await createChatHarness();
      const other = createMockAdapter("other");
      const chat = new Chat({
        userName: "bot",
        adapters: { mock: h.adapter, other },
        state: h.state,
        logger: "silent",
        clock: h.clock,
      });
      const handled: string[] = [];
      chat.onNewMention((thread, message) => {
        handled.push(`${thread.adapter.name}:${message.id}`);
      });
      const onMock = createTestMessage({ id: "msg-shared", threadId: THREAD, text: "@bot help" });
      const onOther = createTestMessage({
        id: "msg-shared",
        threadId: "other:C1:T1",
        text: "@bot help",
      });

      expect(await chat.processMessage(h.adapter, THREAD, onMock)).toEqual({ outcome: "handled" });
      expect(await chat.processMessage(other, "other:C1:T1", onOther)).toEqual({
        outcome: "handled",
      });
      expect(handled).toEqual(["mock:msg-shared", "other:msg-shared"]);
    });
  });

  describe("State failures before the handler", () => {
    it("leaves no dedupe mark when the State fails at accept, so a redelivery is handled", async () => {
      const h = await createChatHarness();
      const { mentions } = record(h);
      failOnce(h, "setIfNotExists");

      const first = h.send("@bot help", { id: "msg-accept" });
      await expect(first.done).rejects.toBeInstanceOf(StateError);
      expect(mentions).toEqual([]);

      expect(await redeliver(h, first.message)).toEqual({ outcome: "handled" });
      expect(mentions).toEqual(["msg-accept"]);
    });

    it("removes the dedupe mark when taking the lock fails, so a redelivery is handled", async () => {
      const h = await createChatHarness();
      const { mentions } = record(h);
      failOnce(h, "acquireLock");

      const first = h.send("@bot help", { id: "msg-lock" });
      expect(await first.done).toMatchObject({ outcome: "error" });
      expect(mentions).toEqual([]);

      expect(await redeliver(h, first.message)).toEqual({ outcome: "handled" });
      expect(mentions).toEqual(["msg-lock"]);
    });

    it("removes the dedupe mark when the subscription check fails before the handler, so a redelivery is handled", async () => {
      const h = await createChatHarness();
      const { mentions } = record(h);
      failOnce(h, "isSubscribed");

      const first = h.send("@bot help", { id: "msg-route" });
      expect(await first.done).toMatchObject({ outcome: "error" });
      expect(mentions).toEqual([]);

      // DESIGN §5 invariant 3: no handler ran, so the platform's retry must be processed.
      expect(await redeliver(h, first.message)).toEqual({ outcome: "handled" });
      expect(mentions).toEqual(["msg-route"]);
    });

    it("keeps the dedupe mark when a handler ran and failed, so a redelivery is a duplicate", async () => {
      const h = await createChatHarness();
      let runs = 0;
      h.chat.onNewMention(() => {
        runs += 1;
        throw new Error("handler bug");
      });

      const first = h.send("@bot help", { id: "msg-handler" });
      expect(await first.done).toEqual({ outcome: "error" });
      expect(await redeliver(h, first.message)).toMatchObject({ outcome: "duplicate" });
      expect(runs).toBe(1);
    });
  });
});
