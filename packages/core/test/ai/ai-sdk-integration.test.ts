// The tools and toAiMessages driven by the AI SDK itself (generateText / streamText with ai@6's
// MockLanguageModelV3), the way a bot uses them: the SDK validates the model's tool input with
// our schemas, honours needsApproval, and a streamed answer is posted with thread.post.
import { createTestMessage } from "@baton/testing";
import { generateText, stepCountIs, streamText } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { describe, expect, it } from "vitest";
import { createChatTools, toAiMessages } from "../../src/ai/index.js";
import { argsOf, createToolsHarness, TOOL_OPTIONS } from "./tools-harness.js";

const THREAD = "slack:C123:1234.5678";
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model whose one answer is a call of `toolName` with `input`. */
function modelCalling(toolName: string, input: unknown) {
  return new MockLanguageModelV3({
    doGenerate: {
      content: [
        { type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) },
      ],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage: USAGE,
      warnings: [],
    },
  });
}

/** A model that streams `chunks` as its text answer. */
function modelStreaming(chunks: string[]) {
  return new MockLanguageModelV3({
    doStream: {
      stream: simulateReadableStream({
        chunks: [
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t1" },
          ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t1", delta })),
          { type: "text-end", id: "t1" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
        ],
      }),
    },
  });
}

describe("@baton/core/ai with the AI SDK", () => {
  it("runs the tool a model calls, with the input its schema checked", async () => {
    const { chat, mock } = await createToolsHarness();
    const tools = createChatTools({ chat, requireApproval: false, scope: THREAD });

    const result = await generateText({
      model: modelCalling("postMessage", { threadId: THREAD, message: { markdown: "**done**" } }),
      tools,
      prompt: "post it",
    });

    expect(argsOf(mock, "postMessage")).toEqual([[THREAD, { markdown: "**done**" }]]);
    expect(result.toolResults).toEqual([
      expect.objectContaining({
        toolName: "postMessage",
        output: { messageId: "mock-msg-1", threadId: THREAD },
      }),
    ]);
  });

  it("turns a model's bad input into a tool error without a platform call", async () => {
    const { chat, mock } = await createToolsHarness();
    const tools = createChatTools({ chat, scope: THREAD });

    const result = await generateText({
      model: modelCalling("fetchMessages", { threadId: THREAD, limit: 500 }),
      tools,
      prompt: "read",
    });

    const error = result.content.find((part) => part.type === "tool-error");
    expect(error).toBeDefined();
    expect(String((error as { error: unknown }).error)).toContain(
      "fetchMessages: limit must be an integer from 1 to 100",
    );
    expect(mock.callsOf("fetchMessages")).toEqual([]);
  });

  it("asks for approval instead of running a write tool by default", async () => {
    const { chat, mock } = await createToolsHarness();
    const tools = createChatTools({ chat, scope: THREAD });

    const result = await generateText({
      model: modelCalling("deleteMessage", { threadId: THREAD, messageId: "m1" }),
      tools,
      prompt: "delete it",
    });

    expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(true);
    expect(mock.callsOf("deleteMessage")).toEqual([]);
  });

  it("keeps a blocked call out of scope when the model names another channel", async () => {
    const { chat, mock } = await createToolsHarness();
    const tools = createChatTools({ chat, scope: THREAD });

    const result = await generateText({
      model: modelCalling("fetchMessages", { threadId: "slack:C999:1.2" }),
      tools,
      prompt: "read elsewhere",
    });

    const error = result.content.find((part) => part.type === "tool-error");
    expect(String((error as { error: unknown }).error)).toMatch(/Tool call blocked/);
    expect(mock.callsOf("fetchMessages")).toEqual([]);
  });

  it("checks input when execute is called directly too, naming the bad field", async () => {
    const { chat } = await createToolsHarness();
    const tools = createChatTools({ chat, requireApproval: false, scope: false });

    await expect(
      tools.postMessage?.execute?.({ threadId: THREAD, message: "" }, TOOL_OPTIONS),
    ).rejects.toMatchObject({
      name: "ValidationError",
      message: expect.stringContaining("message"),
    });
    await expect(
      tools.addReaction?.execute?.(
        { threadId: THREAD, messageId: "", emoji: "heart" },
        TOOL_OPTIONS,
      ),
    ).rejects.toThrow(/addReaction: messageId must be a non-empty string/);
  });

  it("shows the model a JSON schema with upstream's fields, defaults and required keys", () => {
    const tools = createChatTools({ chat: {} as never, scope: false, preset: "reader" });
    const schema = (tools.fetchMessages?.inputSchema as { jsonSchema: Record<string, unknown> })
      .jsonSchema;

    expect(schema).toMatchObject({
      type: "object",
      required: ["threadId"],
      properties: {
        threadId: { type: "string" },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        cursor: { type: "string" },
        direction: { enum: ["backward", "forward"], default: "backward" },
      },
    });
  });

  it("streams an answer over the thread's history into the thread with thread.post", async () => {
    const { chat, mock } = await createToolsHarness();
    mock.seedMessages(THREAD, [createTestMessage({ threadId: THREAD, text: "What is Baton?" })]);
    const model = modelStreaming(["Baton is ", "a chat ", "SDK."]);
    const thread = chat.thread(THREAD);
    await thread.refresh();

    const result = streamText({ model, messages: await toAiMessages(thread.recentMessages) });
    const sent = await thread.post(result.textStream);

    expect(model.doStreamCalls[0]?.prompt).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "What is Baton?" }],
        providerOptions: undefined,
      },
    ]);
    expect(mock.postedTo(THREAD)).toEqual(["Baton is a chat SDK."]);
    expect(sent.threadId).toBe(THREAD);
  });

  it("runs the bot of docs/ai.md: history in, tools offered, the streamed answer posted", async () => {
    const { chat: bot, mock } = await createToolsHarness();
    mock.seedMessages(THREAD, [
      createTestMessage({ threadId: THREAD, text: "@testbot what is Baton?", isMention: true }),
    ]);
    const model = modelStreaming(["A chat ", "SDK."]);
    bot.onNewMention(async (thread, _message, context) => {
      await thread.refresh();
      const result = streamText({
        model,
        system: "You are a helpful assistant in a team chat.",
        messages: await toAiMessages(thread.recentMessages, { includeNames: true }),
        tools: createChatTools({ chat: bot, preset: "reader" }),
        stopWhen: stepCountIs(5),
        abortSignal: context.signal,
      });
      await thread.post(result.fullStream);
    });

    const delivered = await bot.processMessage(
      mock,
      THREAD,
      createTestMessage({ threadId: THREAD, text: "@testbot what is Baton?", isMention: true }),
    );

    expect(delivered).toEqual({ outcome: "handled" });
    const call = model.doStreamCalls[0];
    expect(call?.prompt.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "[user]: @testbot what is Baton?" }],
    });
    expect(call?.tools?.map((tool) => tool.name).sort()).toEqual([
      "fetchChannelMessages",
      "fetchMessages",
      "fetchThread",
      "getChannelInfo",
      "getThreadParticipants",
      "getUser",
      "listThreads",
    ]);
    expect(mock.postedTo(THREAD)).toEqual(["A chat SDK."]);
  });

  it("converts the bot's own sent messages as assistant turns", async () => {
    const { chat } = await createToolsHarness();
    const thread = chat.thread(THREAD);
    const question = createTestMessage({
      threadId: THREAD,
      text: "Is it up?",
      dateSent: new Date(Date.now() - 60_000),
    });
    const sent = await thread.post("Yes, all green.");

    const history = await toAiMessages([sent, question]);

    expect(history).toEqual([
      { role: "user", content: "Is it up?" },
      { role: "assistant", content: "Yes, all green." },
    ]);
  });

  it("posts the fullStream of a run the same way", async () => {
    const { chat, mock } = await createToolsHarness();
    const result = streamText({ model: modelStreaming(["Hello", ", world"]), prompt: "hi" });

    await chat.thread(THREAD).post(result.fullStream);

    expect(mock.postedTo(THREAD)).toEqual(["Hello, world"]);
  });
});
