import {
  createFakeClock,
  createMockAdapter,
  createTestState,
  type MockAdapter,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { sleep } from "../../src/clock/index.js";
import { AdapterError, LockLostError } from "../../src/errors/index.js";
import { ChannelImpl } from "../../src/runtime/channel.js";
import { StreamMessage } from "../../src/runtime/stream-message.js";
import { STREAM_STOPPED_MARKER } from "../../src/runtime/stream-post.js";
import { ThreadImpl, type ThreadOptions } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";

async function setup(
  options: Partial<ThreadOptions> = {},
  capabilities?: Parameters<typeof createMockAdapter>[1],
) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, ...capabilities });
  const thread = new ThreadImpl({
    adapter,
    state,
    threadId: THREAD_ID,
    ...options,
    streaming: { clock, ...options.streaming },
  });
  return { clock, adapter, thread };
}

/**
 * A source that yields `chunks`, then waits for a chunk that never comes — as a model does that
 * stalls — and records whether it was closed.
 */
function stallingSource(chunks: string[]) {
  const record = { closed: false };
  let index = 0;
  const iterable: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () =>
        index < chunks.length
          ? Promise.resolve({ done: false, value: chunks[index++] as string })
          : new Promise<IteratorResult<string>>(() => undefined),
      return: async () => {
        record.closed = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { iterable, record };
}

function edits(adapter: MockAdapter): string[] {
  return adapter
    .callsOf("editMessage")
    .map((call) => (call.args[2] as { markdown: string }).markdown);
}

describe("posting a stream by post + edit", () => {
  it("edits at most every updateIntervalMs, one edit in flight, and ends with one complete edit", async () => {
    const { adapter, clock, thread } = await setup(
      { streaming: { updateIntervalMs: 300 } },
      { capabilities: { streaming: "edit" } },
    );
    // Every edit takes 250 ms on the platform: the next one waits for it, then for the interval.
    const realEdit = adapter.editMessage.bind(adapter);
    let inFlight = 0;
    let maxInFlight = 0;
    const started: number[] = [];
    adapter.editMessage = async (...args) => {
      started.push(clock.now());
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await sleep(clock, 250);
      inFlight -= 1;
      return realEdit(...args);
    };
    async function* words() {
      for (const word of ["one ", "**two** ", "three ", "four ", "five"]) {
        await sleep(clock, 200);
        yield word;
      }
    }
    const posting = thread.post(words());
    await clock.advance(5_000);
    const sent = await posting;

    const posted = adapter.callsOf("postMessage")[0]!.at;
    // A tick at 300 ms (edit until 550), the next 300 ms after that edit ended: 850 (until 1100).
    // The stream ends at 1000 ms; the final edit waits for the edit in flight and starts at 1100.
    expect(started.map((t) => t - posted)).toEqual([300, 850, 1100]);
    expect(maxInFlight).toBe(1);
    expect(edits(adapter)).toEqual([
      "one ",
      "one **two** three four ",
      "one **two** three four five",
    ]);
    expect(sent.id).toBe("mock-msg-1");
  });

  it("posts the complete text once when the platform cannot edit", async () => {
    const { adapter, thread } = await setup({}, { capabilities: { streaming: false } });
    const sent = await thread.post(
      (async function* () {
        yield "all ";
        yield "at once";
      })(),
    );
    expect(adapter.callsOf("postMessage").map((call) => call.args[1])).toEqual([
      { markdown: "all at once" },
    ]);
    expect(adapter.callsOf("editMessage")).toHaveLength(0);
    expect(sent.text).toBe("all at once");
  });

  it("continues by post + edit where an adapter that declined stopped reading", async () => {
    const { adapter, thread } = await setup();
    (adapter as { stream?: unknown }).stream = async (
      _threadId: string,
      chunks: AsyncIterable<string>,
    ) => {
      for await (const _ of chunks) return null; // reads one chunk, then declines
      return null;
    };
    await thread.post(
      (async function* () {
        yield "first ";
        yield "second";
      })(),
    );
    expect(adapter.callsOf("editMessage").at(-1)?.args[2]).toEqual({ markdown: "first second" });
  });

  it("rejects with an AdapterError naming the step when native streaming fails, and closes the source", async () => {
    const { adapter, thread } = await setup();
    (adapter as { stream?: unknown }).stream = async (
      _threadId: string,
      chunks: AsyncIterable<string>,
    ) => {
      for await (const _ of chunks) throw new Error("socket closed");
      return null;
    };
    const { iterable, record } = stallingSource(["first"]);
    const error = await thread.post(iterable).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).step).toBe(`stream message to ${THREAD_ID}`);
    expect((error as Error & { cause?: unknown }).cause).toEqual(new Error("socket closed"));
    await Promise.resolve();
    expect(record.closed).toBe(true);
    expect(adapter.callsOf("postMessage")).toHaveLength(0);
  });

  it("rejects with the final edit's AdapterError; the stream's text was complete", async () => {
    const { adapter, thread } = await setup({}, { capabilities: { streaming: "edit" } });
    adapter.failNext("editMessage", new Error("message too long"));
    const error = await thread
      .post(
        (async function* () {
          yield "done";
        })(),
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdapterError);
    expect((error as AdapterError).step).toBe(`edit message mock-msg-1 in ${THREAD_ID}`);
  });

  it("uses the adapter's declared interval when the Chat sets none", async () => {
    const { adapter, clock, thread } = await setup({}, { capabilities: { streaming: "edit" } });
    (adapter as { streamingUpdateIntervalMs?: number }).streamingUpdateIntervalMs = 1_000;
    async function* slow() {
      yield "a";
      await sleep(clock, 1_500);
      yield "b";
    }
    const posting = thread.post(slow());
    await clock.advance(3_000);
    await posting;
    const posted = adapter.callsOf("postMessage")[0]!.at;
    expect(adapter.callsOf("editMessage").map((call) => call.at - posted)).toEqual([1_000, 1_500]);
  });

  it("refuses a bad StreamMessage option with a ValidationError naming it", () => {
    const stream = (async function* () {})();
    expect(() => new StreamMessage(stream, { updateIntervalMs: 0 })).toThrow(/updateIntervalMs/);
    expect(() => new StreamMessage(stream, { groupTasks: "tree" as never })).toThrow(/groupTasks/);
  });
});

describe("stopping a stream with the handler's signal", () => {
  it("stops reading, closes the source and marks the partial message stopped, then rejects", async () => {
    const controller = new AbortController();
    const { adapter, clock, thread } = await setup(
      { signal: controller.signal, streaming: { updateIntervalMs: 100 } },
      { capabilities: { streaming: "edit" } },
    );
    const { iterable, record } = stallingSource(["Hello **wor"]);
    const posting = thread.post(iterable);
    const outcome = posting.then(
      () => "resolved",
      (error: unknown) => error,
    );
    await clock.advance(150);
    expect(edits(adapter)).toEqual(["Hello **wor**"]);

    const reason = new LockLostError("thread:mock:C123:T1", 1, "lease lost");
    controller.abort(reason);
    expect(await outcome).toBe(reason);
    expect(record.closed).toBe(true);
    expect(edits(adapter).at(-1)).toBe(`Hello **wor**\n\n${STREAM_STOPPED_MARKER}`);
    expect(clock.pendingTimers).toBe(0);
  });

  it("marks a natively streamed message stopped after the adapter finished it", async () => {
    const controller = new AbortController();
    const { adapter, thread } = await setup({ signal: controller.signal });
    const read: string[] = [];
    (adapter as { stream?: unknown }).stream = async (
      threadId: string,
      chunks: AsyncIterable<string>,
    ) => {
      for await (const chunk of chunks) {
        read.push(chunk);
        controller.abort(new Error("shutting down"));
      }
      return { id: "native-1", threadId };
    };
    const { iterable } = stallingSource(["```ts\nconst a", " = 1;"]);
    await expect(thread.post(iterable)).rejects.toThrow("shutting down");
    expect(read).toEqual(["```ts\nconst a"]);
    // The open code block is closed before the marker, so the marker is not shown as code.
    expect(adapter.callsOf("editMessage").at(-1)?.args).toEqual([
      THREAD_ID,
      "native-1",
      { markdown: `\`\`\`ts\nconst a\n\`\`\`\n\n${STREAM_STOPPED_MARKER}` },
    ]);
  });

  it("posts only the marker when the stream had no text yet and no placeholder was posted", async () => {
    const controller = new AbortController();
    const { adapter, thread } = await setup(
      { signal: controller.signal, streaming: { placeholderText: null } },
      { capabilities: { streaming: "edit" } },
    );
    const { iterable } = stallingSource([]);
    const posting = thread.post(iterable);
    controller.abort(new Error("stop"));
    await expect(posting).rejects.toThrow("stop");
    expect(adapter.callsOf("postMessage").map((call) => call.args[1])).toEqual([
      { markdown: STREAM_STOPPED_MARKER },
    ]);
  });

  it("rejects at once, before any platform call, when the signal aborted before the post", async () => {
    const controller = new AbortController();
    controller.abort(new Error("already stopped"));
    const { adapter, thread } = await setup({ signal: controller.signal });
    const { iterable, record } = stallingSource(["never shown"]);
    await expect(thread.post(iterable)).rejects.toThrow("already stopped");
    await Promise.resolve();
    expect(record.closed).toBe(true);
    expect(adapter.calls).toHaveLength(0);
  });

  it("keeps the abort as the rejection when marking the message stopped fails", async () => {
    const controller = new AbortController();
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const { adapter, thread } = await setup(
      { signal: controller.signal, logger },
      { capabilities: { streaming: "edit" } },
    );
    adapter.failNext("editMessage", new Error("platform down"));
    const { iterable } = stallingSource(["partial"]);
    const posting = thread.post(iterable);
    await Promise.resolve();
    controller.abort(new Error("stop"));
    await expect(posting).rejects.toThrow("stop");
    expect(logger.warn).toHaveBeenCalledWith(
      "stream stopped, but marking its message stopped failed",
      expect.any(Error),
    );
  });
});

describe("ChannelImpl", () => {
  describe("post", () => {
    it("should handle streaming by accumulating text", async () => {
      const clock = createFakeClock();
      const state = await createTestState({ clock });
      const adapter = createMockAdapter("mock", { clock });
      const channel = new ChannelImpl({ adapter, state, channelId: "mock:C123" });
      async function* textStream() {
        yield "Hello";
        yield " ";
        yield "World";
      }
      await channel.post(textStream());
      // One post of the whole text once the stream ended, no placeholder and no edits.
      expect(adapter.callsOf("postMessage").map((call) => call.args)).toEqual([
        ["mock:C123", { markdown: "Hello World" }],
      ]);
      expect(adapter.callsOf("editMessage")).toHaveLength(0);
    });
  });
});
