import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
  type FakeClock,
  type MockAdapter,
} from "@baton/testing";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { sleep } from "../../src/clock/index.js";
import type { StreamChunk } from "../../src/content/from-full-stream-chunks.js";
import type { Logger } from "../../src/contracts/logger.js";
import { StreamingPlan, StreamMessage } from "../../src/runtime/stream-message.js";
import { ThreadImpl, type ThreadOptions } from "../../src/runtime/thread.js";

// Upstream's ThreadImpl tests on Baton's recording mock adapter: upstream's `msg-1` is the mock's
// `mock-msg-1`, its thread `slack:C123:1234.5678` is `mock:C123:1234.5678`. Upstream sleeps in
// real time (`setTimeout`) and uses vi.useFakeTimers; here every wait is on a fake clock.

const THREAD_ID = "mock:C123:1234.5678";

/** An adapter without native streaming, as upstream's `mockAdapter.stream = undefined`. */
function withoutNativeStream(adapter: MockAdapter): MockAdapter {
  (adapter as { stream?: unknown }).stream = undefined;
  return adapter;
}

/** Installs a `stream` mock (upstream's `mockAdapter.stream = vi.fn()`). */
function nativeStream(adapter: MockAdapter, implementation?: (...args: never[]) => unknown) {
  const mock = implementation
    ? vi.fn(implementation)
    : vi.fn().mockResolvedValue({ id: "msg-stream", threadId: "t1", raw: "Hello" });
  (adapter as { stream?: unknown }).stream = mock;
  return mock;
}

/** A `stream` mock that reads every chunk, keeping them in `chunks`. */
function capturingStream(adapter: MockAdapter) {
  const captured: { chunks: (string | StreamChunk)[] } = { chunks: [] };
  const mock = nativeStream(adapter, (async (
    _threadId: string,
    stream: AsyncIterable<string | StreamChunk>,
  ) => {
    captured.chunks = [];
    for await (const chunk of stream) captured.chunks.push(chunk);
    return { id: "msg-stream", threadId: "t1", raw: {} };
  }) as never);
  return { mock, captured };
}

/** Upstream's `createTextStream(chunks, delayMs)`, waiting on `clock` between chunks. */
async function* createTextStream(
  chunks: string[],
  delayMs = 0,
  clock?: FakeClock,
): AsyncIterable<string> {
  for (const chunk of chunks) {
    if (delayMs > 0 && clock) await sleep(clock, delayMs);
    yield chunk;
  }
}

function lastEdit(adapter: MockAdapter): readonly unknown[] | undefined {
  return adapter.callsOf("editMessage").at(-1)?.args;
}

function editContents(adapter: MockAdapter): string[] {
  return adapter
    .callsOf("editMessage")
    .map((call) => (call.args[2] as { markdown: string }).markdown);
}

function postContents(adapter: MockAdapter): unknown[] {
  return adapter.callsOf("postMessage").map((call) => call.args[1]);
}

async function setup(options: Partial<ThreadOptions> = {}) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock });
  const make = (extra: Partial<ThreadOptions> = {}) =>
    new ThreadImpl({
      adapter,
      state,
      threadId: THREAD_ID,
      ...options,
      ...extra,
      streaming: { clock, ...options.streaming, ...extra.streaming },
    });
  return { clock, state, adapter, thread: make(), make };
}

function mockLogger() {
  const warn = vi.fn<(message: string, ...args: unknown[]) => void>();
  const logger: Logger = { debug: vi.fn(), info: vi.fn(), warn, error: vi.fn() };
  return Object.assign(logger, { warn });
}

describe("ThreadImpl", () => {
  describe("Streaming", () => {
    let env: Awaited<ReturnType<typeof setup>>;

    beforeEach(async () => {
      env = await setup();
    });

    it("should use adapter native streaming when available", async () => {
      const mockStream = nativeStream(env.adapter);
      mockStream.mockResolvedValue({ id: "msg-stream", threadId: "t1", raw: "Hello World" });
      await env.thread.post(createTextStream(["Hello", " ", "World"]));

      expect(mockStream).toHaveBeenCalledWith(THREAD_ID, expect.any(Object), expect.any(Object));
      expect(env.adapter.callsOf("postMessage")).toHaveLength(0);
    });

    it("should fall back when adapter.stream returns null", async () => {
      const mockStream = nativeStream(env.adapter);
      mockStream.mockResolvedValue(null);
      await env.thread.post(createTextStream(["Hello", " ", "World"]));

      expect(mockStream).toHaveBeenCalledTimes(1);
      expect(postContents(env.adapter)).toEqual(["..."]);
      expect(lastEdit(env.adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Hello World" }]);
    });

    it("should fall back to post+edit when adapter has no native streaming", async () => {
      withoutNativeStream(env.adapter);
      await env.thread.post(createTextStream(["Hello", " ", "World"]));

      expect(env.adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, "..."]);
      expect(lastEdit(env.adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Hello World" }]);
    });

    it("should accumulate text chunks during streaming", async () => {
      withoutNativeStream(env.adapter);
      const result = await env.thread.post(
        createTextStream(["This ", "is ", "a ", "test ", "message."]),
      );

      expect(lastEdit(env.adapter)).toEqual([
        THREAD_ID,
        "mock-msg-1",
        { markdown: "This is a test message." },
      ]);
      expect(result.text).toBe("This is a test message.");
    });

    it("should throttle edits to avoid rate limits", async () => {
      withoutNativeStream(env.adapter);
      const chunks = ["A", "B", "C", "D", "E"];
      let chunkIndex = 0;
      const textStream: AsyncIterable<string> = {
        [Symbol.asyncIterator]() {
          return {
            async next() {
              if (chunkIndex < chunks.length) {
                return { value: chunks[chunkIndex++] as string, done: false };
              }
              return { value: undefined, done: true };
            },
          };
        },
      };

      const postPromise = env.thread.post(textStream);
      await env.clock.advance(0);
      expect(env.adapter.callsOf("postMessage")).toHaveLength(1);

      await env.clock.advance(2000);
      await postPromise;
      expect(lastEdit(env.adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "ABCDE" }]);
      // The stream ended before the first interval: no intermediate edit, one final edit.
      expect(env.adapter.callsOf("editMessage")).toHaveLength(1);
    });

    it("should return SentMessage with edit and delete capabilities", async () => {
      withoutNativeStream(env.adapter);
      const result = await env.thread.post(createTextStream(["Hello"]));

      expect(result.id).toBe("mock-msg-1");
      expect(typeof result.edit).toBe("function");
      expect(typeof result.delete).toBe("function");
      expect(typeof result.addReaction).toBe("function");
      expect(typeof result.removeReaction).toBe("function");
    });

    it("should handle empty stream", async () => {
      withoutNativeStream(env.adapter);
      await env.thread.post(createTextStream([]));

      expect(env.adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, "..."]);
      expect(env.adapter.callsOf("editMessage")).toHaveLength(0);
    });

    it("should support disabling the placeholder for fallback streaming", async () => {
      withoutNativeStream(env.adapter);
      const threadNoPlaceholder = env.make({ streaming: { placeholderText: null } });
      await threadNoPlaceholder.post(createTextStream(["H", "i"]));

      expect(postContents(env.adapter)).not.toContain("...");
      expect(lastEdit(env.adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Hi" }]);
    });

    it("should handle empty stream with disabled placeholder", async () => {
      withoutNativeStream(env.adapter);
      const threadNoPlaceholder = env.make({ streaming: { placeholderText: null } });
      await threadNoPlaceholder.post(createTextStream([]));

      expect(env.adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, { markdown: " " }]);
      expect(env.adapter.callsOf("editMessage")).toHaveLength(0);
    });

    it("should not post empty content when table is buffered with null placeholder", async () => {
      withoutNativeStream(env.adapter);
      const threadNoPlaceholder = env.make({ streaming: { placeholderText: null } });
      await threadNoPlaceholder.post(
        createTextStream(["| A | B |\n", "|---|---|\n", "| 1 | 2 |\n"]),
      );

      const posts = postContents(env.adapter);
      expect(posts.length).toBeGreaterThan(0);
      for (const content of posts) {
        if (typeof content === "object" && content !== null && "markdown" in content) {
          expect((content as { markdown: string }).markdown.trim().length).toBeGreaterThan(0);
        }
      }
    });

    it("should not edit placeholder to empty during LLM warm-up", async () => {
      withoutNativeStream(env.adapter);
      await env.thread.post(createTextStream(["Hello world"]));

      const edits = editContents(env.adapter);
      expect(edits.length).toBeGreaterThan(0);
      for (const content of edits) expect(content.trim().length).toBeGreaterThan(0);
    });

    it("should not post empty content during streaming with whitespace chunks", async () => {
      withoutNativeStream(env.adapter);
      const threadNoPlaceholder = env.make({ streaming: { placeholderText: null } });
      await threadNoPlaceholder.post(createTextStream(["  ", "\n", "  \n"]));

      const posts = postContents(env.adapter);
      expect(posts).toHaveLength(1);
      for (const content of posts) {
        if (typeof content === "object" && content !== null && "markdown" in content) {
          expect((content as { markdown: string }).markdown.length).toBeGreaterThan(0);
        }
      }
    });

    it("should preserve newlines in streamed text (native path)", async () => {
      const { captured } = capturingStream(env.adapter);
      const result = await env.thread.post(
        createTextStream(["hello", ".", "\n", "how", " are", " you?"]),
      );

      expect(result.text).toBe("hello.\nhow are you?");
      expect(captured.chunks).toEqual(["hello", ".", "\n", "how", " are", " you?"]);
    });

    it("should preserve double newlines (paragraph breaks) in streamed text", async () => {
      const { captured } = capturingStream(env.adapter);
      const result = await env.thread.post(createTextStream(["hello.", "\n\n", "how are you?"]));

      // The plain text of two paragraphs joins them without a separator (mdast-util-to-string).
      expect(result.text).toBe("hello.how are you?");
      expect(captured.chunks).toEqual(["hello.", "\n\n", "how are you?"]);
    });

    it("should concatenate multi-step text without separator (demonstrates bug)", async () => {
      capturingStream(env.adapter);
      const result = await env.thread.post(
        createTextStream(["hello", ".", "how", " are", " you?"]),
      );

      expect(result.text).toBe("hello.how are you?");
    });

    it("should preserve newlines in fallback streaming path", async () => {
      withoutNativeStream(env.adapter);
      const result = await env.thread.post(createTextStream(["hello.", "\n", "how are you?"]));

      expect(lastEdit(env.adapter)).toEqual([
        THREAD_ID,
        "mock-msg-1",
        { markdown: "hello.\nhow are you?" },
      ]);
      expect(result.text).toBe("hello.\nhow are you?");
    });

    it("should close incomplete markdown in intermediate fallback edits", async () => {
      withoutNativeStream(env.adapter);
      const threadWithInterval = env.make({ streaming: { updateIntervalMs: 10 } });
      const posting = threadWithInterval.post(
        createTextStream(["Hello **wor", "ld** done"], 50, env.clock),
      );
      await env.clock.advance(200);
      const result = await posting;

      expect(result.text).toBe("Hello world done");
      const edits = editContents(env.adapter);
      // At least one intermediate edit showed the half-written bold, closed.
      expect(edits).toContain("Hello **wor**");
      for (const content of edits) {
        expect((content.match(/\*\*/g) || []).length % 2).toBe(0);
      }
    });

    it("should forward structured stream chunks to adapter.stream from an action-created thread", async () => {
      const { mock, captured } = capturingStream(env.adapter);
      const threadWithActionContext = env.make({
        initialMessage: createTestMessage({
          id: "action-msg",
          threadId: THREAD_ID,
          text: "",
          raw: { team: { domain: "workspace", id: "T123" }, type: "block_actions" },
          author: { userId: "U456", userName: "user", fullName: "Test User" },
        }),
      });
      const taskChunk: StreamChunk = {
        id: "task-1",
        status: "pending",
        title: "Thinking",
        type: "task_update",
      };
      async function* structuredStream(): AsyncIterable<string | StreamChunk> {
        yield "Picking option...";
        yield taskChunk;
      }

      await threadWithActionContext.post(structuredStream());

      expect(mock).toHaveBeenCalledTimes(1);
      expect(captured.chunks).toContain("Picking option...");
      expect(captured.chunks).toContainEqual(taskChunk);
    });

    it("should pass StreamingPlan PostableObject options to adapter.stream", async () => {
      const mockStream = nativeStream(env.adapter);
      const streamMsg = new StreamingPlan(createTextStream(["Hello"]), {
        groupTasks: "plan",
        endWith: [{ type: "actions" }],
        updateIntervalMs: 1000,
      });
      await env.thread.post(streamMsg);

      expect(mockStream).toHaveBeenCalledWith(
        THREAD_ID,
        expect.any(Object),
        expect.objectContaining({
          taskDisplayMode: "plan",
          stopBlocks: [{ type: "actions" }],
          updateIntervalMs: 1000,
        }),
      );
    });

    it("should pass StreamingPlan with only groupTasks", async () => {
      const mockStream = nativeStream(env.adapter);
      await env.thread.post(
        new StreamingPlan(createTextStream(["Hello"]), { groupTasks: "timeline" }),
      );

      expect(mockStream).toHaveBeenCalledWith(
        THREAD_ID,
        expect.any(Object),
        expect.objectContaining({ taskDisplayMode: "timeline" }),
      );
      expect(mockStream.mock.calls[0]?.[2].stopBlocks).toBeUndefined();
    });

    it("should pass StreamingPlan with only endWith", async () => {
      const mockStream = nativeStream(env.adapter);
      await env.thread.post(
        new StreamingPlan(createTextStream(["Hello"]), { endWith: [{ type: "actions" }] }),
      );

      expect(mockStream).toHaveBeenCalledWith(
        THREAD_ID,
        expect.any(Object),
        expect.objectContaining({ stopBlocks: [{ type: "actions" }] }),
      );
      expect(mockStream.mock.calls[0]?.[2].taskDisplayMode).toBeUndefined();
    });

    it("should pass StreamingPlan with only updateIntervalMs", async () => {
      const mockStream = nativeStream(env.adapter);
      await env.thread.post(
        new StreamingPlan(createTextStream(["Hello"]), { updateIntervalMs: 2000 }),
      );

      expect(mockStream).toHaveBeenCalledWith(
        THREAD_ID,
        expect.any(Object),
        expect.objectContaining({ updateIntervalMs: 2000 }),
      );
      const options = mockStream.mock.calls[0]?.[2];
      expect(options.taskDisplayMode).toBeUndefined();
      expect(options.stopBlocks).toBeUndefined();
    });

    it("should route StreamingPlan through fallback when adapter has no native streaming", async () => {
      withoutNativeStream(env.adapter);
      await env.thread.post(
        new StreamingPlan(createTextStream(["Hello", " ", "World"]), {
          groupTasks: "plan",
          endWith: [{ type: "actions" }],
          updateIntervalMs: 2000,
        }),
      );

      expect(env.adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, "..."]);
      expect(lastEdit(env.adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Hello World" }]);
    });

    it("should still work without options (backward compat)", async () => {
      const mockStream = nativeStream(env.adapter);
      await env.thread.post(createTextStream(["Hello"]));

      expect(mockStream).toHaveBeenCalledWith(THREAD_ID, expect.any(Object), expect.any(Object));
      const options = mockStream.mock.calls[0]?.[2];
      expect(options.taskDisplayMode).toBeUndefined();
      expect(options.stopBlocks).toBeUndefined();
    });
  });

  describe("fallback streaming error logging", () => {
    it("should log when an intermediate edit fails", async () => {
      const logger = mockLogger();
      const { adapter, clock, make } = await setup({ logger });
      withoutNativeStream(adapter);
      const editError = new Error("422 Validation Failed");
      adapter.failNext("editMessage", editError);
      const thread = make({ streaming: { updateIntervalMs: 10 } });

      async function* slowStream(): AsyncIterable<string> {
        yield "Hel";
        await sleep(clock, 50);
        yield "lo";
      }

      const posting = thread.post(slowStream());
      await clock.advance(100);
      await posting;

      expect(logger.warn).toHaveBeenCalledWith("fallbackStream edit failed", editError);
      // The stream went on: the final edit still carries the whole text.
      expect(lastEdit(adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Hello" }]);
    });
  });

  describe("streaming with StreamChunk objects", () => {
    let env: Awaited<ReturnType<typeof setup>>;

    beforeEach(async () => {
      env = await setup();
    });

    it("should pass StreamChunk objects through to adapter.stream", async () => {
      const { mock, captured } = capturingStream(env.adapter);
      async function* mixedStream() {
        yield "Hello ";
        yield {
          type: "task_update" as const,
          id: "tool-1",
          title: "Running bash",
          details: "Installing dependencies",
          status: "in_progress" as const,
        };
        yield "world";
        yield {
          type: "task_update" as const,
          id: "tool-1",
          title: "Running bash",
          details: "Installed dependencies",
          status: "complete" as const,
          output: "Done",
        };
      }

      const result = await env.thread.post(mixedStream());

      expect(mock).toHaveBeenCalled();
      expect(captured.chunks).toHaveLength(4);
      expect(captured.chunks[0]).toBe("Hello ");
      expect(captured.chunks[1]).toEqual(
        expect.objectContaining({
          type: "task_update",
          details: "Installing dependencies",
          status: "in_progress",
        }),
      );
      expect(captured.chunks[2]).toBe("world");
      expect(captured.chunks[3]).toEqual(
        expect.objectContaining({
          type: "task_update",
          details: "Installed dependencies",
          output: "Done",
          status: "complete",
        }),
      );
      expect(result.text).toBe("Hello world");
    });

    it("should accumulate text from markdown_text StreamChunks", async () => {
      capturingStream(env.adapter);
      async function* mdChunkStream() {
        yield { type: "markdown_text" as const, text: "Hello " };
        yield { type: "plan_update" as const, title: "Analyzing code" };
        yield { type: "markdown_text" as const, text: "World" };
      }

      const result = await env.thread.post(mdChunkStream());

      expect(result.text).toBe("Hello World");
    });

    it("should extract only text for fallback streaming when chunks are present", async () => {
      withoutNativeStream(env.adapter);
      async function* mixedStream() {
        yield "Hello";
        yield {
          type: "task_update" as const,
          id: "tool-1",
          title: "Running bash",
          details: "Installing dependencies",
          status: "in_progress" as const,
        };
        yield " World";
      }

      await env.thread.post(mixedStream());

      expect(env.adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, "..."]);
      expect(lastEdit(env.adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Hello World" }]);
    });
  });

  describe("Streaming with updateIntervalMs", () => {
    /** Yields each chunk `gapMs` after the previous one, on the fake clock. */
    function pacedStream(clock: FakeClock, chunks: string[], gapMs: number): AsyncIterable<string> {
      return createTextStream(chunks, gapMs, clock);
    }

    it("should use custom streamingUpdateIntervalMs from config", async () => {
      const { adapter, clock, make } = await setup();
      withoutNativeStream(adapter);
      const thread = make({ streaming: { updateIntervalMs: 1000 } });

      const postPromise = thread.post(pacedStream(clock, ["A", "B", "C"], 400));
      await clock.advance(5000);
      await postPromise;

      expect(lastEdit(adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "ABC" }]);
      // Chunks at 400, 800 and 1200 ms; the one intermediate edit came at 1000 ms, not before.
      const edits = adapter.callsOf("editMessage");
      expect(edits).toHaveLength(2);
      expect(edits[0]?.args[2]).toEqual({ markdown: "AB" });
      expect(edits[0]?.at).toBe(edits[0] ? adapter.callsOf("postMessage")[0]!.at + 1000 : 0);
    });

    it("should default streamingUpdateIntervalMs to 500", async () => {
      const { adapter, clock, make } = await setup();
      withoutNativeStream(adapter);
      const thread = make();

      const postPromise = thread.post(pacedStream(clock, ["X", "Y"], 700));
      await clock.advance(2000);
      await postPromise;

      const posted = adapter.callsOf("postMessage")[0]!.at;
      const edits = adapter.callsOf("editMessage");
      // "X" arrives at 700 ms: the 500 ms tick saw nothing new, the 1000 ms tick shows "X".
      expect(edits.map((call) => call.at - posted)).toEqual([1000, 1400]);
      expect(lastEdit(adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "XY" }]);
    });

    it("should use custom placeholder text for fallback streaming", async () => {
      const { adapter, make } = await setup();
      withoutNativeStream(adapter);
      const thread = make({ streaming: { placeholderText: "Loading..." } });

      async function* textStream() {
        yield "Done";
      }
      await thread.post(textStream());

      expect(adapter.callsOf("postMessage")[0]?.args).toEqual([THREAD_ID, "Loading..."]);
      expect(lastEdit(adapter)).toEqual([THREAD_ID, "mock-msg-1", { markdown: "Done" }]);
    });
  });
});
