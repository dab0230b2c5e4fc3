// Ports upstream's packages/chat/src/ai/index.test.ts (the titles outside "read scope", which
// live in read-scope.test.ts) with its inputs, against the testing kit's real mock adapter and
// the memory State. Where upstream stubs an adapter method with vi.fn, the mock's recorded calls
// and seeded data stand in. `getUser` needs approval by default, as in chat 4.41.
import { createTestMessage } from "@baton/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createChatTools, type ToolOverrides } from "../../src/ai/index.js";
import type { Chat, StateAdapter } from "../../src/index.js";
import { argsOf, createToolsHarness, TOOL_OPTIONS } from "./tools-harness.js";

const REQUIRES_CHAT_INSTANCE_REGEX = /requires a `chat` instance/;
const THREAD = "slack:C123:1234.5678";

describe("createChatTools", () => {
  let chat: Chat;
  let mockAdapter: Awaited<ReturnType<typeof createToolsHarness>>["mock"];
  let mockState: StateAdapter;

  beforeEach(async () => {
    const harness = await createToolsHarness();
    chat = harness.chat;
    mockAdapter = harness.mock;
    mockState = harness.state;
  });

  it("returns the full toolset when no preset is supplied", () => {
    const tools = createChatTools({ chat });
    expect(Object.keys(tools).sort()).toEqual(
      [
        "addReaction",
        "deleteMessage",
        "editMessage",
        "fetchChannelMessages",
        "fetchMessages",
        "fetchThread",
        "getChannelInfo",
        "getThreadParticipants",
        "getUser",
        "listThreads",
        "postChannelMessage",
        "postMessage",
        "removeReaction",
        "sendDirectMessage",
        "startTyping",
        "subscribeThread",
        "unsubscribeThread",
      ].sort(),
    );
  });

  it("requires a chat instance", () => {
    expect(() => createChatTools({ chat: undefined as unknown as Chat })).toThrow(
      REQUIRES_CHAT_INSTANCE_REGEX,
    );
  });

  it("scopes tools to a single preset", () => {
    const tools = createChatTools({ chat, preset: "reader" });
    const names = Object.keys(tools).sort();
    expect(names).toEqual(
      [
        "fetchChannelMessages",
        "fetchMessages",
        "fetchThread",
        "getChannelInfo",
        "getThreadParticipants",
        "getUser",
        "listThreads",
      ].sort(),
    );
    // No write tools at all.
    expect(names).not.toContain("postMessage");
    expect(names).not.toContain("deleteMessage");
  });

  it("composes multiple presets", () => {
    const tools = createChatTools({ chat, preset: ["reader", "messenger"] });
    const names = Object.keys(tools).sort();
    expect(names).toContain("postMessage");
    expect(names).toContain("fetchMessages");
    expect(names).toContain("listThreads");
    expect(names).not.toContain("deleteMessage");
  });

  it("requires approval on every write tool by default", () => {
    const tools = createChatTools({ chat });
    // Every mutating tool defaults to needsApproval: true.
    expect(tools.postMessage?.needsApproval).toBe(true);
    expect(tools.postChannelMessage?.needsApproval).toBe(true);
    expect(tools.sendDirectMessage?.needsApproval).toBe(true);
    expect(tools.editMessage?.needsApproval).toBe(true);
    expect(tools.deleteMessage?.needsApproval).toBe(true);
    expect(tools.addReaction?.needsApproval).toBe(true);
    expect(tools.removeReaction?.needsApproval).toBe(true);
    expect(tools.subscribeThread?.needsApproval).toBe(true);
    expect(tools.unsubscribeThread?.needsApproval).toBe(true);
    // Reads never gate on approval, except getUser (any user's profile; chat 4.41).
    expect(tools.fetchMessages?.needsApproval).toBeUndefined();
    expect(tools.fetchChannelMessages?.needsApproval).toBeUndefined();
    expect(tools.fetchThread?.needsApproval).toBeUndefined();
    expect(tools.listThreads?.needsApproval).toBeUndefined();
    expect(tools.getThreadParticipants?.needsApproval).toBeUndefined();
    expect(tools.getChannelInfo?.needsApproval).toBeUndefined();
    expect(tools.getUser?.needsApproval).toBe(true);
    // The typing indicator is harmless and never gated.
    expect(tools.startTyping?.needsApproval).toBeUndefined();
  });

  it("disables approval on every write tool when requireApproval is false", () => {
    const tools = createChatTools({ chat, requireApproval: false });
    expect(tools.postMessage?.needsApproval).toBe(false);
    expect(tools.postChannelMessage?.needsApproval).toBe(false);
    expect(tools.sendDirectMessage?.needsApproval).toBe(false);
    expect(tools.editMessage?.needsApproval).toBe(false);
    expect(tools.deleteMessage?.needsApproval).toBe(false);
    expect(tools.addReaction?.needsApproval).toBe(false);
    expect(tools.removeReaction?.needsApproval).toBe(false);
    expect(tools.subscribeThread?.needsApproval).toBe(false);
    expect(tools.unsubscribeThread?.needsApproval).toBe(false);
    expect(tools.getUser?.needsApproval).toBe(false);
  });

  it("supports per-tool approval overrides", () => {
    const tools = createChatTools({
      chat,
      requireApproval: { postMessage: false, deleteMessage: true, subscribeThread: false },
    });
    expect(tools.postMessage?.needsApproval).toBe(false);
    expect(tools.deleteMessage?.needsApproval).toBe(true);
    expect(tools.subscribeThread?.needsApproval).toBe(false);
    // Unnamed write tools fall back to true.
    expect(tools.editMessage?.needsApproval).toBe(true);
    expect(tools.unsubscribeThread?.needsApproval).toBe(true);
  });

  it("applies tool overrides without breaking execution", async () => {
    const tools = createChatTools({
      chat,
      overrides: {
        postMessage: { description: "Reply in the active support thread", needsApproval: false },
      },
    });
    expect(tools.postMessage?.description).toBe("Reply in the active support thread");
    expect(tools.postMessage?.needsApproval).toBe(false);

    await tools.postMessage?.execute?.({ threadId: THREAD, message: "hello" }, TOOL_OPTIONS);
    expect(argsOf(mockAdapter, "postMessage")).toEqual([[THREAD, "hello"]]);
  });

  it("does not allow overrides to replace core tool fields", async () => {
    const execute = vi.fn().mockResolvedValue({ hijacked: true });
    const inputSchema = { sentinel: "input" };
    const outputSchema = { sentinel: "output" };
    const inputExamples = [{ input: { threadId: THREAD, message: "hello" } }];
    const metadata = { source: "chat-sdk" };
    const tools = createChatTools({
      chat,
      requireApproval: false,
      overrides: {
        postMessage: {
          args: { name: "custom" },
          description: "Reply in the active support thread",
          execute,
          id: "openai.custom",
          inputExamples,
          inputSchema,
          metadata,
          outputSchema,
          supportsDeferredResults: true,
          type: "provider",
        } as unknown as ToolOverrides,
      },
    });
    const postMessage = tools.postMessage as unknown as Record<string, unknown>;

    expect(tools.postMessage?.description).toBe("Reply in the active support thread");
    expect(tools.postMessage?.execute).not.toBe(execute);
    expect(postMessage.args).toBeUndefined();
    expect(postMessage.id).toBeUndefined();
    expect(postMessage.inputExamples).toEqual(inputExamples);
    expect(postMessage.inputSchema).not.toBe(inputSchema);
    expect(postMessage.metadata).toEqual(metadata);
    expect(postMessage.outputSchema).not.toBe(outputSchema);
    expect(postMessage.supportsDeferredResults).toBeUndefined();
    expect(postMessage.type).not.toBe("provider");

    const result = await tools.postMessage?.execute?.(
      { threadId: THREAD, message: "hello" },
      TOOL_OPTIONS,
    );

    expect(execute).not.toHaveBeenCalled();
    expect(argsOf(mockAdapter, "postMessage")).toEqual([[THREAD, "hello"]]);
    expect(result).toMatchObject({ messageId: "mock-msg-1" });
  });

  it("postMessage dispatches via the adapter's postMessage", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.postMessage?.execute?.(
      { threadId: THREAD, message: "hello" },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "postMessage")).toEqual([[THREAD, "hello"]]);
    expect(result).toEqual({ messageId: "mock-msg-1", threadId: THREAD });
  });

  it("postChannelMessage dispatches via the adapter's postChannelMessage", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    await tools.postChannelMessage?.execute?.(
      { channelId: "slack:C123", message: { markdown: "**hi**" } },
      TOOL_OPTIONS,
    );
    // The mock has no postChannelMessage, so channel.post uses postMessage(channelId), as
    // upstream's Channel does for such adapters.
    expect(argsOf(mockAdapter, "postMessage")).toEqual([["slack:C123", { markdown: "**hi**" }]]);
  });

  it("sendDirectMessage opens a DM and posts in it", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.sendDirectMessage?.execute?.(
      { userId: "U123456", message: "ping" },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "openDM")).toEqual([["U123456"]]);
    expect(argsOf(mockAdapter, "postMessage")).toEqual([["slack:DU123456:dm", "ping"]]);
    expect(result).toEqual({ messageId: "mock-msg-1", threadId: "slack:DU123456:dm" });
  });

  it("addReaction dispatches via the adapter's addReaction", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.addReaction?.execute?.(
      { threadId: THREAD, messageId: "msg-1", emoji: "thumbs_up" },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "addReaction")).toEqual([[THREAD, "msg-1", "thumbs_up"]]);
    expect(result).toEqual({
      added: true,
      emoji: "thumbs_up",
      messageId: "msg-1",
      threadId: THREAD,
    });
  });

  it("deleteMessage dispatches via the adapter's deleteMessage", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.deleteMessage?.execute?.(
      { threadId: THREAD, messageId: "msg-1" },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "deleteMessage")).toEqual([[THREAD, "msg-1"]]);
    expect(result).toMatchObject({ deleted: true });
  });

  it("subscribeThread persists the subscription", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    await tools.subscribeThread?.execute?.({ threadId: THREAD }, TOOL_OPTIONS);
    expect(await mockState.isSubscribed(THREAD)).toBe(true);
  });

  it("startTyping dispatches via the adapter's startTyping", async () => {
    const tools = createChatTools({ chat });
    await tools.startTyping?.execute?.({ threadId: THREAD, status: "Searching..." }, TOOL_OPTIONS);
    expect(argsOf(mockAdapter, "startTyping")).toEqual([[THREAD, "Searching..."]]);
  });

  it("fetchMessages projects a model-friendly shape", async () => {
    mockAdapter.seedMessages(THREAD, [
      createTestMessage({
        id: "m1",
        threadId: THREAD,
        text: "hello",
        author: { userId: "U1", userName: "alice", fullName: "Alice", isBot: false, isMe: false },
        dateSent: new Date("2026-01-01T00:00:00Z"),
      }),
    ]);
    const tools = createChatTools({ chat });
    const result = (await tools.fetchMessages?.execute?.(
      { threadId: THREAD, limit: 5, direction: "backward" },
      TOOL_OPTIONS,
    )) as { messages: Array<{ id: string; text: string }> };
    expect(result.messages).toEqual([
      {
        id: "m1",
        threadId: THREAD,
        text: "hello",
        author: { userId: "U1", userName: "alice", fullName: "Alice", isBot: false, isMe: false },
        dateSent: "2026-01-01T00:00:00.000Z",
        edited: false,
        isMention: undefined,
        attachments: [],
      },
    ]);
    expect(argsOf(mockAdapter, "fetchMessages")).toEqual([
      [THREAD, { limit: 5, direction: "backward" }],
    ]);
  });

  it("getChannelInfo returns flattened metadata", async () => {
    mockAdapter.setChannelName("slack:C123", "#slack:C123");
    const tools = createChatTools({ chat });
    const result = await tools.getChannelInfo?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS);
    expect(result).toMatchObject({ id: "slack:C123", name: "#slack:C123", isDM: false });
  });

  it("editMessage dispatches via the adapter's editMessage", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.editMessage?.execute?.(
      { threadId: THREAD, messageId: "msg-1", message: { markdown: "**updated**" } },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "editMessage")).toEqual([
      [THREAD, "msg-1", { markdown: "**updated**" }],
    ]);
    expect(result).toMatchObject({ messageId: "msg-1" });
  });

  it("postMessage forwards a `raw` PostableInput unchanged", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    await tools.postMessage?.execute?.(
      { threadId: THREAD, message: { raw: "<blocks>...</blocks>" } },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "postMessage")).toEqual([[THREAD, { raw: "<blocks>...</blocks>" }]]);
  });

  it("removeReaction dispatches via the adapter's removeReaction", async () => {
    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.removeReaction?.execute?.(
      { threadId: THREAD, messageId: "msg-1", emoji: "thumbs_up" },
      TOOL_OPTIONS,
    );
    expect(argsOf(mockAdapter, "removeReaction")).toEqual([[THREAD, "msg-1", "thumbs_up"]]);
    expect(result).toMatchObject({ removed: true, emoji: "thumbs_up" });
  });

  it("unsubscribeThread clears the subscription", async () => {
    await mockState.subscribe(THREAD);
    expect(await mockState.isSubscribed(THREAD)).toBe(true);

    const tools = createChatTools({ chat, requireApproval: false });
    const result = await tools.unsubscribeThread?.execute?.({ threadId: THREAD }, TOOL_OPTIONS);
    expect(await mockState.isSubscribed(THREAD)).toBe(false);
    expect(result).toMatchObject({ subscribed: false });
  });

  it("fetchChannelMessages dispatches via the adapter and projects messages", async () => {
    // Upstream's optional adapter method, given to the mock the way upstream's test stubs it.
    const fetchChannelMessages = vi.fn(async () => ({
      messages: [
        createTestMessage({
          id: "m1",
          threadId: THREAD,
          text: "channel hello",
          author: { userId: "U1", userName: "alice", fullName: "Alice", isBot: false, isMe: false },
          dateSent: new Date("2026-02-01T00:00:00Z"),
        }),
      ],
      nextCursor: "next",
    }));
    Object.assign(mockAdapter, { fetchChannelMessages });

    const tools = createChatTools({ chat });
    const result = (await tools.fetchChannelMessages?.execute?.(
      { channelId: "slack:C123", limit: 5, direction: "backward" },
      TOOL_OPTIONS,
    )) as { messages: Array<{ id: string; text: string }>; nextCursor: string | undefined };
    expect(fetchChannelMessages).toHaveBeenCalledWith("slack:C123", {
      limit: 5,
      direction: "backward",
    });
    expect(result.messages).toEqual([expect.objectContaining({ id: "m1", text: "channel hello" })]);
    expect(result.nextCursor).toBe("next");
    expect(mockAdapter.callsOf("fetchMessages")).toEqual([]);
  });

  it("fetchChannelMessages throws when the adapter does not support it", async () => {
    const harness = await createToolsHarness({
      capabilities: { capabilities: { history: false } },
    });
    const tools = createChatTools({ chat: harness.chat });
    await expect(
      tools.fetchChannelMessages?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS),
    ).rejects.toMatchObject({ name: "NotSupportedError", adapter: "slack", feature: "history" });
    expect(harness.mock.callsOf("fetchMessages")).toEqual([]);
  });

  it("fetchThread returns a flattened ThreadInfo", async () => {
    mockAdapter.setChannelName("slack:C123", "#general");
    const tools = createChatTools({ chat });
    const result = await tools.fetchThread?.execute?.({ threadId: THREAD }, TOOL_OPTIONS);
    expect(result).toEqual({
      id: THREAD,
      channelId: "slack:C123",
      channelName: "#general",
      channelVisibility: undefined,
      isDM: false,
    });
  });

  it("listThreads projects ThreadSummary entries", async () => {
    const root = (id: string, text: string, at: string) =>
      createTestMessage({
        id,
        threadId: THREAD,
        text,
        author: { userId: "U1", userName: "alice", fullName: "Alice", isBot: false, isMe: false },
        dateSent: new Date(at),
      });
    mockAdapter.seedMessages(THREAD, [
      root("m1", "root", "2026-03-01T00:00:00Z"),
      root("m2", "reply 1", "2026-03-01T01:00:00Z"),
      root("m3", "reply 2", "2026-03-01T02:00:00Z"),
      root("m4", "reply 3", "2026-03-01T03:00:00Z"),
      root("m5", "reply 4", "2026-03-02T00:00:00Z"),
    ]);

    const tools = createChatTools({ chat });
    const result = (await tools.listThreads?.execute?.(
      { channelId: "slack:C123", limit: 10 },
      TOOL_OPTIONS,
    )) as {
      threads: Array<{
        id: string;
        replyCount?: number;
        rootMessage: { id: string; text: string };
      }>;
    };
    expect(result.threads).toHaveLength(1);
    expect(result.threads[0]).toMatchObject({
      id: THREAD,
      replyCount: 4,
      lastReplyAt: "2026-03-02T00:00:00.000Z",
      rootMessage: expect.objectContaining({ id: "m1", text: "root" }),
    });
  });

  it("listThreads throws when the adapter does not support it", async () => {
    (mockAdapter as { listThreads?: unknown }).listThreads = undefined;
    const tools = createChatTools({ chat });
    await expect(
      tools.listThreads?.execute?.({ channelId: "slack:C123" }, TOOL_OPTIONS),
    ).rejects.toMatchObject({
      name: "NotSupportedError",
      adapter: "slack",
      feature: "listThreads",
    });
  });

  it("getThreadParticipants delegates to thread.getParticipants and projects authors", async () => {
    const author = (userId: string, userName: string, fullName: string) => ({
      userId,
      userName,
      fullName,
      isBot: false,
      isMe: false,
    });
    mockAdapter.seedMessages(THREAD, [
      createTestMessage({
        threadId: THREAD,
        text: "hi",
        author: author("UALICE1", "alice", "Alice"),
      }),
      createTestMessage({ threadId: THREAD, text: "yo", author: author("UBOB1", "bob", "Bob") }),
      createTestMessage({
        threadId: THREAD,
        text: "again",
        author: author("UALICE1", "alice", "Alice"),
      }),
    ]);

    const tools = createChatTools({ chat });
    const result = (await tools.getThreadParticipants?.execute?.(
      { threadId: THREAD },
      TOOL_OPTIONS,
    )) as { participants: Array<{ userId: string; userName: string; isBot: boolean }> };
    expect(result.participants).toEqual([
      { userId: "UALICE1", userName: "alice", fullName: "Alice", isBot: false },
      { userId: "UBOB1", userName: "bob", fullName: "Bob", isBot: false },
    ]);
  });

  it("getUser projects UserInfo when the adapter resolves a user", async () => {
    mockAdapter.seedUsers([
      {
        userId: "U123456",
        userName: "alice",
        fullName: "Alice Doe",
        email: "alice@example.com",
        isBot: false,
        avatarUrl: "https://example.com/a.png",
      },
    ]);
    const tools = createChatTools({ chat });
    const result = await tools.getUser?.execute?.({ userId: "U123456" }, TOOL_OPTIONS);
    expect(result).toEqual({
      userId: "U123456",
      userName: "alice",
      fullName: "Alice Doe",
      email: "alice@example.com",
      isBot: false,
      avatarUrl: "https://example.com/a.png",
    });
  });

  it("getUser returns null when the adapter does not know the user", async () => {
    const tools = createChatTools({ chat });
    const result = await tools.getUser?.execute?.({ userId: "UMISSING" }, TOOL_OPTIONS);
    expect(result).toBeNull();
    expect(argsOf(mockAdapter, "getUser")).toEqual([["UMISSING"]]);
  });
});
