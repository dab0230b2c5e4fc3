import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Card } from "../../src/content/cards/card-builders.js";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import { ValidationError } from "../../src/errors/index.js";
import type { Message } from "../../src/model/message.js";
import { ThreadImpl, type ThreadOptions } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";

async function setup(
  capabilities: Partial<AdapterCapabilities> = {},
  options: Partial<ThreadOptions> = {},
) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID, ...options });
  return { clock, state, adapter, thread };
}

function author(userId: string, userName: string, isBot: boolean, isMe: boolean) {
  return { userId, userName, fullName: userName, isBot, isMe };
}

function seed(adapter: MockAdapter, messages: Message[]) {
  adapter.seedMessages(THREAD_ID, messages);
}

describe("ThreadImpl", () => {
  describe("postEphemeral", () => {
    it("should use adapter postEphemeral when available", async () => {
      const { thread, adapter } = await setup();
      const result = await thread.postEphemeral("U456", "Secret message", { fallbackToDM: true });
      expect(adapter.callsOf("postEphemeral")[0]?.args).toEqual([
        THREAD_ID,
        "U456",
        "Secret message",
      ]);
      expect(result).toEqual({ id: "mock-msg-1", threadId: THREAD_ID, usedFallback: false });
      // Native: no DM was opened and nothing was posted in the thread.
      expect(adapter.callsOf("openDM")).toEqual([]);
      expect(adapter.posted).toEqual([]);
    });

    it("should extract userId from Author object", async () => {
      const { thread, adapter } = await setup();
      await thread.postEphemeral(author("U789", "testuser", false, false), "Secret message", {
        fallbackToDM: true,
      });
      expect(adapter.callsOf("postEphemeral")[0]?.args).toEqual([
        THREAD_ID,
        "U789",
        "Secret message",
      ]);
    });

    it("should fallback to DM when adapter has no postEphemeral and fallbackToDM is true", async () => {
      const { thread, adapter } = await setup({ ephemeral: false });
      const result = await thread.postEphemeral("U456", "Secret message", { fallbackToDM: true });
      expect(adapter.callsOf("openDM")[0]?.args).toEqual(["U456"]);
      expect(adapter.callsOf("postMessage")[0]?.args).toEqual(["mock:DU456:dm", "Secret message"]);
      expect(result).toEqual({
        id: "mock-msg-1",
        threadId: "mock:DU456:dm",
        usedFallback: true,
        raw: undefined,
      });
      expect(adapter.callsOf("postEphemeral")).toEqual([]);
    });

    it("should return null when adapter has no postEphemeral and fallbackToDM is false", async () => {
      const { thread, adapter } = await setup({ ephemeral: false });
      const result = await thread.postEphemeral("U456", "Secret message", { fallbackToDM: false });
      expect(adapter.callsOf("openDM")).toEqual([]);
      expect(adapter.callsOf("postMessage")).toEqual([]);
      expect(result).toBeNull();
    });

    it("should return null when adapter has no postEphemeral or openDM", async () => {
      const { thread, adapter } = await setup({ ephemeral: false, openDM: false });
      const result = await thread.postEphemeral("U456", "Secret message", { fallbackToDM: true });
      expect(result).toBeNull();
      expect(adapter.calls).toEqual([]);
    });

    it("refuses a missing user, a missing fallbackToDM and a stream before any platform call", async () => {
      const { thread, adapter } = await setup();
      await expect(thread.postEphemeral("", "x", { fallbackToDM: true })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(thread.postEphemeral("U1", "x", {} as never)).rejects.toThrow(
        /fallbackToDM must be true or false/,
      );
      async function* stream() {
        yield "x";
      }
      await expect(
        thread.postEphemeral("U1", stream() as never, { fallbackToDM: false }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(adapter.calls).toEqual([]);
    });

    it("sends a card as its text in the DM fallback where the adapter has no cards", async () => {
      const { thread, adapter } = await setup({ ephemeral: false, cards: false });
      await thread.postEphemeral("U456", Card({ title: "Only you" }), { fallbackToDM: true });
      expect(adapter.callsOf("postMessage")[0]?.args).toEqual([
        "mock:DU456:dm",
        { markdown: "**Only you**" },
      ]);
    });
  });

  describe("mentionUser", () => {
    it("should return formatted mention string", async () => {
      const { thread } = await setup();
      expect(thread.mentionUser("U456")).toBe("<@U456>");
    });

    it("should handle various user ID formats", async () => {
      const { thread } = await setup();
      expect(thread.mentionUser("UABC123")).toBe("<@UABC123>");
      expect(thread.mentionUser("bot-user-id")).toBe("<@bot-user-id>");
    });

    it("uses the adapter's mention markup when it has one", async () => {
      const { thread, adapter } = await setup();
      Object.assign(adapter, { mentionUser: (userId: string) => `@[${userId}]` });
      expect(thread.mentionUser("U1")).toBe("@[U1]");
      expect(() => thread.mentionUser("")).toThrow(ValidationError);
    });
  });

  describe("getParticipants", () => {
    it("should return unique non-bot authors from messages", async () => {
      const { thread, adapter } = await setup();
      seed(adapter, [
        createTestMessage({
          id: "1",
          threadId: THREAD_ID,
          text: "Hello",
          author: author("U1", "alice", false, false),
        }),
        createTestMessage({
          id: "2",
          threadId: THREAD_ID,
          text: "Hi",
          author: author("U2", "bob", false, false),
        }),
        createTestMessage({
          id: "3",
          threadId: THREAD_ID,
          text: "Hello again",
          author: author("U1", "alice", false, false),
        }),
      ]);
      const participants = await thread.getParticipants();
      expect(participants).toHaveLength(2);
      expect(participants.map((p) => p.userId)).toEqual(expect.arrayContaining(["U1", "U2"]));
    });

    it("should exclude bot messages", async () => {
      const { thread, adapter } = await setup();
      seed(adapter, [
        createTestMessage({
          id: "1",
          threadId: THREAD_ID,
          text: "Hello",
          author: author("U1", "alice", false, false),
        }),
        createTestMessage({
          id: "2",
          threadId: THREAD_ID,
          text: "Hi there!",
          author: author("B1", "bot", true, true),
        }),
        createTestMessage({
          id: "3",
          threadId: THREAD_ID,
          text: "Notification",
          author: author("B2", "jira-bot", true, false),
        }),
      ]);
      const participants = await thread.getParticipants();
      expect(participants).toHaveLength(1);
      expect(participants[0]?.userId).toBe("U1");
    });

    it("should return empty array for thread with only bot messages", async () => {
      const { thread, adapter } = await setup();
      seed(adapter, [
        createTestMessage({
          id: "1",
          threadId: THREAD_ID,
          text: "Bot message",
          author: author("B1", "bot", true, true),
        }),
      ]);
      expect(await thread.getParticipants()).toHaveLength(0);
    });

    it("should include currentMessage author", async () => {
      const currentMsg = createTestMessage({
        id: "1",
        threadId: THREAD_ID,
        text: "Hey bot",
        author: author("U1", "alice", false, false),
      });
      const { thread, adapter } = await setup({}, { initialMessage: currentMsg });
      const participants = await thread.getParticipants();
      expect(participants).toHaveLength(1);
      expect(participants[0]?.userId).toBe("U1");
      expect(adapter.callsOf("fetchMessages")).toHaveLength(1);
    });

    it("reads every page of the history, one platform call per page", async () => {
      const { adapter, state } = await setup();
      const paged = createMockAdapter("mock", { defaultPageSize: 2 });
      const thread = new ThreadImpl({ adapter: paged, state, threadId: THREAD_ID });
      paged.seedMessages(
        THREAD_ID,
        ["U1", "U2", "U3", "U1", "U4"].map((userId, index) =>
          createTestMessage({
            id: `m${index}`,
            threadId: THREAD_ID,
            author: author(userId, userId, false, false),
          }),
        ),
      );
      const participants = await thread.getParticipants();
      expect(participants.map((p) => p.userId).sort()).toEqual(["U1", "U2", "U3", "U4"]);
      expect(paged.callsOf("fetchMessages")).toHaveLength(3);
      expect(adapter.calls).toEqual([]);
      vi.restoreAllMocks();
    });
  });
});
