import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness() {
  const h = await createSlackHarness();
  harnesses.push(h);
  h.fake.reset();
  return h;
}

const THREAD = "slack:C123:1234567890.123456";

describe("Slack native streaming", () => {
  it("streams in a thread with startStream, appends at most once a second, and stops with the rest", async () => {
    const h = await harness();
    const clock = h.clock;
    async function* answer() {
      yield "Love ";
      await clock.advance(1_000);
      yield "is ";
      yield {
        type: "task_update" as const,
        id: "t1",
        title: "Thinking",
        status: "complete" as const,
      };
      yield { type: "markdown_text" as const, text: "a **feeling**." };
    }
    const sent = await h.chat.thread(THREAD).post(answer());

    expect(h.fake.callsOf("chat.startStream")[0]?.args).toMatchObject({
      channel: "C123",
      thread_ts: "1234567890.123456",
    });
    expect(h.fake.callsOf("chat.appendStream").map((c) => c.args.markdown_text)).toEqual([
      "Love is ",
    ]);
    expect(h.fake.callsOf("chat.stopStream")[0]?.args.markdown_text).toBe("a **feeling**.");
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
    const stored = h.fake.store.messages.at(-1);
    expect(stored?.text).toBe("Love is a **feeling**.");
    expect(sent.id).toBe(`${h.fake.teamId}:C123:${stored?.ts}`);
    expect(sent.text).toBe("Love is a feeling.");
  });

  it("declines outside a thread, so the top level of a DM is streamed by post and edit", async () => {
    const h = await harness();
    async function* answer() {
      yield "Hello ";
      yield "there";
    }
    await h.chat.thread("slack:D123:").post(answer());
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
    expect(h.fake.callsOf("chat.postMessage").length).toBeGreaterThanOrEqual(1);
    expect(h.fake.store.messages.at(-1)?.text).toBe("Hello there");
  });
});

describe("native streaming fallback", () => {
  it("falls back to post-and-edit when the first native call fails", async () => {
    const h = await harness();
    h.fake.failNext("chat.startStream", { error: "method_not_supported_for_channel_type" });
    async function* answer() {
      yield "still ";
      yield "answered";
    }
    await h.chat.thread(THREAD).post(answer());
    expect(h.fake.callsOf("chat.startStream")).toHaveLength(1);
    expect(h.fake.store.messages.at(-1)?.text).toBe("still answered");
    expect(h.fake.callsOf("chat.postMessage").length).toBeGreaterThanOrEqual(1);
  });
});

describe("native streaming fallback (latching)", () => {
  async function* words() {
    yield "one ";
    yield "two";
  }

  it("latches native streaming off after an unsupported-method platform error", async () => {
    const h = await harness();
    h.fake.failNext("chat.startStream", { error: "unknown_method" });
    await h.chat.thread(THREAD).post(words());
    await h.chat.thread(THREAD).post(words());
    expect(h.fake.callsOf("chat.startStream")).toHaveLength(1);
    expect(h.fake.callsOf("chat.postMessage")).toHaveLength(2);
  });

  it("does not latch native streaming off after a transient error", async () => {
    const h = await harness();
    h.fake.failNext("chat.startStream", { error: "internal_error" });
    await h.chat.thread(THREAD).post(words());
    await h.chat.thread(THREAD).post(words());
    expect(h.fake.callsOf("chat.startStream")).toHaveLength(2);
    expect(h.fake.callsOf("chat.stopStream")).toHaveLength(1);
  });

  it("skips structured chunks in fallback mode without failing the stream", async () => {
    const h = await harness();
    async function* mixed() {
      yield { type: "plan_update" as const, title: "Plan" };
      yield "visible ";
      yield {
        type: "task_update" as const,
        id: "t",
        title: "Step",
        status: "in_progress" as const,
      };
      yield "text";
    }
    await h.chat.thread("slack:D123:").post(mixed());
    expect(h.fake.store.messages.at(-1)?.text).toBe("visible text");
  });
});

describe("stream with empty threadTs", () => {
  it("delegates to fallback before consuming the stream", async () => {
    const h = await harness();
    let pulled = 0;
    const source = {
      async *[Symbol.asyncIterator]() {
        pulled += 1;
        yield "top level";
      },
    };
    const result = await h.adapter.stream("slack:C123:", source);
    expect(result).toBeNull();
    expect(pulled).toBe(0);
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
  });
});

describe("stream with empty threadTs", () => {
  it("delegates channel streams without recipient context to fallback", async () => {
    const h = await harness();
    async function* answer() {
      yield "channel ";
      yield "answer";
    }
    await expect(h.adapter.stream("slack:C123:", answer())).resolves.toBeNull();
    await h.chat.thread("slack:C123:").post(answer());
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
    expect(h.fake.store.messages.at(-1)?.text).toBe("channel answer");
  });

  it("passes token on stream stop", async () => {
    const h = await harness();
    async function* answer() {
      yield "done";
    }
    await h.chat.thread(THREAD).post(answer());
    const stops = h.fake.callsOf("chat.stopStream");
    expect(stops).toHaveLength(1);
    expect(stops[0]?.token).toBe(h.fake.botToken);
  });

  it("passes token on every stream append", async () => {
    const h = await harness();
    const clock = h.clock;
    async function* answer() {
      yield "one ";
      await clock.advance(1_000);
      yield "two ";
      await clock.advance(1_000);
      yield "three";
    }
    await h.chat.thread(THREAD).post(answer());
    const appends = h.fake.callsOf("chat.appendStream");
    expect(appends.length).toBeGreaterThanOrEqual(1);
    for (const append of appends) expect(append.token).toBe(h.fake.botToken);
    expect(h.fake.callsOf("chat.startStream")[0]?.token).toBe(h.fake.botToken);
  });
});
