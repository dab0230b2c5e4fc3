import { Message } from "@baton/core";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createMentionMessage,
  createTestAuthor,
  createTestMessage,
  resetTestMessageIds,
  TEST_MESSAGE_DATE_MS,
} from "../src/index.js";

describe("createTestMessage", () => {
  beforeEach(() => resetTestMessageIds());

  it("builds a core Message with the documented defaults", () => {
    const message = createTestMessage();
    expect(message).toBeInstanceOf(Message);
    expect(message.id).toBe("msg-1");
    expect(message.threadId).toBe("mock:C123:T1");
    expect(message.text).toBe("hello");
    expect(message.author).toEqual({
      userId: "U_USER",
      userName: "user",
      fullName: "Test User",
      isBot: false,
      isMe: false,
    });
    expect(message.metadata).toEqual({ dateSent: new Date(TEST_MESSAGE_DATE_MS), edited: false });
    expect(message.metadata.dateSent.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(message.attachments).toEqual([]);
    expect(message.isMention).toBeUndefined();
  });

  it("numbers ids from a counter so consecutive messages are distinct", () => {
    expect([createTestMessage().id, createTestMessage().id, createTestMessage().id]).toEqual([
      "msg-1",
      "msg-2",
      "msg-3",
    ]);
  });

  it("applies overrides, merging a partial author onto the default one", () => {
    const message = createTestMessage({
      id: "custom",
      threadId: "mock:D1:T1",
      text: "hi",
      author: { userId: "U2", isBot: true },
      dateSent: "2026-03-04T05:06:07.000Z",
      editedAt: Date.UTC(2026, 2, 5),
      attachments: [{ type: "image", url: "https://example.test/a.png" }],
      isMention: false,
      raw: { source: "test" },
    });
    expect(message.id).toBe("custom");
    expect(message.threadId).toBe("mock:D1:T1");
    expect(message.author).toEqual({
      userId: "U2",
      userName: "user",
      fullName: "Test User",
      isBot: true,
      isMe: false,
    });
    expect(message.metadata.dateSent.toISOString()).toBe("2026-03-04T05:06:07.000Z");
    expect(message.metadata.edited).toBe(true);
    expect(message.metadata.editedAt?.getTime()).toBe(Date.UTC(2026, 2, 5));
    expect(message.attachments).toEqual([{ type: "image", url: "https://example.test/a.png" }]);
    expect(message.isMention).toBe(false);
    expect(message.raw).toEqual({ source: "test" });
  });

  it("gives every message its own date object", () => {
    const a = createTestMessage();
    a.metadata.dateSent.setTime(0);
    expect(createTestMessage().metadata.dateSent.getTime()).toBe(TEST_MESSAGE_DATE_MS);
  });

  it("round-trips through JSON like any core Message", () => {
    const message = createTestMessage({ isMention: true });
    expect(Message.fromJSON(message.toJSON()).toJSON()).toEqual(message.toJSON());
  });

  it("refuses a dateSent that is not a date", () => {
    expect(() => createTestMessage({ dateSent: "yesterday" })).toThrow(/not a date: "yesterday"/);
  });
});

describe("createTestAuthor and createMentionMessage", () => {
  it("creates a human author with overrides applied", () => {
    expect(createTestAuthor()).toEqual({
      userId: "U_USER",
      userName: "user",
      fullName: "Test User",
      isBot: false,
      isMe: false,
    });
    expect(createTestAuthor({ userId: "U_BOT", isBot: true, isMe: true })).toMatchObject({
      userId: "U_BOT",
      isBot: true,
      isMe: true,
    });
    expect(createTestAuthor()).not.toBe(createTestAuthor());
  });

  it("creates a message with the given text that the adapter marked as a mention", () => {
    const message = createMentionMessage("@bot help", { threadId: "mock:C9:T9" });
    expect(message.text).toBe("@bot help");
    expect(message.isMention).toBe(true);
    expect(message.threadId).toBe("mock:C9:T9");
  });
});
