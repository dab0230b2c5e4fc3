import { describe, expect, it } from "vitest";
import { sleep } from "../../src/clock/index.js";
import { Chat } from "../../src/runtime/chat.js";
import { STREAM_STOPPED_MARKER } from "../../src/runtime/stream-post.js";
import { createChatHarness } from "./chat-harness.js";

const THREAD = "mock:C1:T1";

function editsOf(adapter: {
  callsOf(method: "editMessage"): readonly { args: readonly unknown[] }[];
}) {
  return adapter
    .callsOf("editMessage")
    .map((call) => (call.args[2] as { markdown: string }).markdown);
}

describe("Chat", () => {
  it("should preserve null fallback streaming placeholder config", async () => {
    const h = await createChatHarness({
      fallbackStreamingPlaceholderText: null,
      adapter: { capabilities: { streaming: "edit" } },
    });
    h.chat.onNewMention(async (thread) => {
      await thread.post({
        async *[Symbol.asyncIterator]() {
          yield "H";
          yield "i";
        },
      });
    });

    await h.send("Hey @bot help me").done;

    const posts = h.adapter.callsOf("postMessage").map((call) => call.args);
    expect(posts).not.toContainEqual([THREAD, "..."]);
    expect(h.adapter.callsOf("editMessage").at(-1)?.args).toEqual([
      THREAD,
      "mock-msg-1",
      { markdown: "Hi" },
    ]);
  });
});

describe("Chat", () => {
  describe("thread", () => {
    it("passes only explicit placeholder config to adapter streaming", async () => {
      // Configured text, configured null, and nothing configured (the core's "..." default,
      // which must not reach the adapter as if the Chat had asked for it).
      const cases = [
        { config: { fallbackStreamingPlaceholderText: "Thinking..." }, expected: "Thinking..." },
        { config: { fallbackStreamingPlaceholderText: null }, expected: null },
        { config: {}, expected: undefined },
      ] as const;
      for (const { config, expected } of cases) {
        const h = await createChatHarness({ ...config });
        h.chat.onNewMention(async (thread) => {
          await thread.post(
            (async function* () {
              yield "Hi";
            })(),
          );
        });
        await h.send("Hey @bot help me").done;
        const calls = h.adapter.callsOf("stream");
        expect(calls).toHaveLength(1);
        const options = calls[0]?.args[2] as Record<string, unknown> | undefined;
        if (expected === undefined) {
          expect(options === undefined || !("fallbackStreamingPlaceholderText" in options)).toBe(
            true,
          );
        } else {
          expect(options?.fallbackStreamingPlaceholderText).toBe(expected);
        }
      }
    });
  });
});

describe("streaming from a handler", () => {
  it("keeps the thread's lock for a stream that outlasts the lock TTL, and releases it after", async () => {
    const h = await createChatHarness({
      concurrency: { strategy: "drop", lockTtlMs: 3_000 },
      streamingUpdateIntervalMs: 1_000,
      adapter: { capabilities: { streaming: "edit" } },
    });
    let streamEnded = false;
    h.chat.onNewMention(async (thread, message) => {
      if (message.text !== "@bot long answer") return;
      await thread.post(
        (async function* () {
          for (let second = 1; second <= 10; second += 1) {
            await sleep(h.clock, 1_000);
            yield `${second} `;
          }
          streamEnded = true;
        })(),
      );
    });

    const first = h.send("@bot long answer");
    await h.clock.advance(7_000); // more than twice the TTL: only renewals keep the lock
    const during = h.send("@bot are you there?");
    expect(await during.done).toMatchObject({ outcome: "dropped-lock-conflict" });
    expect(streamEnded).toBe(false);

    await h.clock.advance(4_000);
    expect(await first.done).toEqual({ outcome: "handled" });
    expect(streamEnded).toBe(true);
    expect(editsOf(h.adapter).at(-1)).toBe("1 2 3 4 5 6 7 8 9 10 ");
    // Edits came about once a second while the stream ran, not once per chunk burst.
    expect(h.adapter.callsOf("editMessage").length).toBeGreaterThanOrEqual(5);
    expect(h.adapter.callsOf("editMessage").length).toBeLessThanOrEqual(11);

    const after = h.send("@bot next");
    expect(await after.done).toEqual({ outcome: "handled" });
    await h.chat.shutdown();
  });

  it("stops a stream when the handler's signal aborts at shutdown, marking the message stopped", async () => {
    const h = await createChatHarness({ adapter: { capabilities: { streaming: "edit" } } });
    let rejection: unknown;
    h.chat.onNewMention(async (thread) => {
      try {
        await thread.post(
          (async function* () {
            yield "Partial **answ";
            await new Promise(() => undefined); // the model stalls
          })(),
        );
      } catch (error) {
        rejection = error;
        throw error;
      }
    });
    const run = h.send("@bot go");
    await h.clock.advance(600);
    await h.chat.shutdown({ timeoutMs: 1_000 });
    await run.done.catch(() => undefined);

    expect(rejection).toBeInstanceOf(Error);
    expect(editsOf(h.adapter).at(-1)).toBe(`Partial **answ**\n\n${STREAM_STOPPED_MARKER}`);
  });

  it("takes upstream's streaming options instead of warning about them, and checks them", async () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (message: string) => warnings.push(message),
      error: () => undefined,
    };
    const h = await createChatHarness({});
    const chat = new Chat({
      userName: "bot",
      adapters: { mock: h.adapter },
      state: h.state,
      logger,
      streamingUpdateIntervalMs: 250,
      fallbackStreamingPlaceholderText: "Thinking…",
    });
    expect(warnings.filter((line) => line.includes("streaming"))).toEqual([]);
    expect(
      () =>
        new Chat({
          userName: "bot",
          adapters: { mock: h.adapter },
          state: h.state,
          streamingUpdateIntervalMs: -1,
          fallbackStreamingPlaceholderText: "" as never,
        }),
    ).toThrow(/streamingUpdateIntervalMs[\s\S]*fallbackStreamingPlaceholderText/);
    await chat.shutdown();
  });
});
