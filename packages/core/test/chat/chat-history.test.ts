import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import type { Adapter } from "../../src/contracts/adapter.js";
import { Chat, type ChatConfig } from "../../src/index.js";

const THREAD_ID = "mock:C1:T1";
const HISTORY_KEY = `msg-history:${THREAD_ID}`;

type Flags = Pick<Adapter, "persistThreadHistory" | "persistMessageHistory">;

/** A Chat whose mock adapter stands in for a platform without a history API. */
function historyChat(flags: Flags, config: Partial<ChatConfig> = {}) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const adapter = Object.assign(createMockAdapter("mock", { clock }), flags);
  const chat = new Chat({
    userName: "bot",
    adapters: { mock: adapter },
    state,
    logger: "silent",
    clock,
    dispatch: "sync",
    ...config,
  });
  chat.onNewMention(async () => {});
  const send = async (count: number) => {
    for (let i = 1; i <= count; i += 1) {
      const message = createTestMessage({ id: `m${i}`, threadId: THREAD_ID, text: `@bot ${i}` });
      await chat.processMessage(adapter, THREAD_ID, message);
    }
  };
  const storedIds = async () =>
    (await state.getList<{ id: string }>(HISTORY_KEY)).map((entry) => entry.id);
  return { chat, adapter, state, send, storedIds };
}

describe("Chat", () => {
  describe("persistThreadHistory", () => {
    it("caches incoming messages when adapter sets persistThreadHistory", async () => {
      const { chat, adapter, send, storedIds } = historyChat({ persistThreadHistory: true });
      await send(2);
      expect(await storedIds()).toEqual(["m1", "m2"]);
      // thread.messages reads that history, newest first, without asking the platform.
      const read: string[] = [];
      for await (const message of chat.thread(THREAD_ID).messages) read.push(message.id);
      expect(read).toEqual(["m2", "m1"]);
      const oldestFirst: string[] = [];
      for await (const message of chat.thread(THREAD_ID).allMessages) oldestFirst.push(message.id);
      expect(oldestFirst).toEqual(["m1", "m2"]);
      const thread = chat.thread(THREAD_ID);
      await thread.refresh();
      expect(thread.recentMessages.map((message) => message.id)).toEqual(["m1", "m2"]);
      expect(adapter.callsOf("fetchMessages")).toHaveLength(0);
    });

    it("caches incoming messages when adapter sets the deprecated persistMessageHistory flag", async () => {
      const { send, storedIds } = historyChat({ persistMessageHistory: true });
      await send(2);
      expect(await storedIds()).toEqual(["m1", "m2"]);
    });

    it("does not cache when adapter sets neither flag", async () => {
      const { chat, adapter, send, storedIds } = historyChat({});
      await send(2);
      expect(await storedIds()).toEqual([]);
      for await (const _ of chat.thread(THREAD_ID).messages) break;
      expect(adapter.callsOf("fetchMessages")).toHaveLength(1);
    });

    it("honors top-level config.messageHistory (deprecated alias) when threadHistory is not set", async () => {
      const { send, storedIds } = historyChat(
        { persistThreadHistory: true },
        { messageHistory: { maxMessages: 2 } },
      );
      await send(3);
      expect(await storedIds()).toEqual(["m2", "m3"]);
    });

    it("threadHistory takes precedence when both threadHistory and messageHistory are set", async () => {
      const { send, storedIds } = historyChat(
        { persistThreadHistory: true },
        { threadHistory: { maxMessages: 1 }, messageHistory: { maxMessages: 5 } },
      );
      await send(3);
      expect(await storedIds()).toEqual(["m3"]);
    });

    it("persists when both persistThreadHistory and persistMessageHistory are set on the adapter", async () => {
      const { send, storedIds } = historyChat({
        persistThreadHistory: true,
        persistMessageHistory: true,
      });
      await send(2);
      // Each message once, not once per flag.
      expect(await storedIds()).toEqual(["m1", "m2"]);
    });

    it("refuses a threadHistory that is not a bounded list, naming the option", () => {
      expect(() => historyChat({}, { threadHistory: { maxMessages: 0 } })).toThrow(
        "threadHistory.maxMessages",
      );
      expect(() =>
        historyChat({}, { threadHistory: { maxMesages: 5 } as ChatConfig["threadHistory"] }),
      ).toThrow("maxMesages");
    });
  });
});
