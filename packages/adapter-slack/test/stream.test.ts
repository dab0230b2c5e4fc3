import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness(...args: Parameters<typeof createSlackHarness>) {
  const h = await createSlackHarness(...args);
  harnesses.push(h);
  h.fake.reset();
  return h;
}

/** A thread of a DM: Slack streams there without being told the recipient. */
const DM_THREAD = "slack:D123:1234567890.123456";
/** A thread of a channel: Slack streams there only for a named recipient user and team. */
const CHANNEL_THREAD = "slack:C123:1234567890.000000";
const RECIPIENT = { recipientUserId: "U123", recipientTeamId: "T123" };

/** A stream whose reads are counted, to show a decline happened before reading. */
function countedStream(text = "x") {
  const reads = { count: 0 };
  const stream = {
    async *[Symbol.asyncIterator]() {
      reads.count += 1;
      yield text;
    },
  };
  return { reads, stream };
}

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
    const sent = await h.chat.thread(DM_THREAD).post(answer());

    expect(h.fake.callsOf("chat.startStream")[0]?.args).toMatchObject({
      channel: "D123",
      thread_ts: "1234567890.123456",
    });
    expect(h.fake.callsOf("chat.appendStream").map((c) => c.args.markdown_text)).toEqual([
      "Love is ",
    ]);
    expect(h.fake.callsOf("chat.stopStream")[0]?.args.markdown_text).toBe("a **feeling**.");
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
    const stored = h.fake.store.messages.at(-1);
    expect(stored?.text).toBe("Love is a **feeling**.");
    expect(sent.id).toBe(`${h.fake.teamId}:D123:${stored?.ts}`);
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

  it("streams a reply in a channel thread for the message's author, in the delivery's workspace", async () => {
    const h = await harness();
    h.chat.onNewMention(async (thread) => {
      async function* answer() {
        yield "on it";
      }
      await thread.post(answer());
    });
    await h.deliver(
      h.envelope({
        type: "app_mention",
        user: "U0HUMAN001",
        text: `<@${h.fake.botUserId}> help`,
        ts: "1700000001.000100",
        channel: "C123",
        team: h.fake.teamId,
      }),
    );
    await h.settle();
    expect(h.fake.callsOf("chat.startStream")[0]?.args).toMatchObject({
      channel: "C123",
      thread_ts: "1700000001.000100",
      recipient_user_id: "U0HUMAN001",
      recipient_team_id: h.fake.teamId,
    });
    expect(h.fake.store.messages.at(-1)?.text).toBe("on it");
  });
});

async function* words() {
  yield "one ";
  yield "two";
}

describe("stream with empty threadTs", () => {
  it("delegates to fallback before consuming the stream", async () => {
    const h = await harness();
    const { reads, stream } = countedStream("top level");
    await expect(h.adapter.stream("slack:C123:", stream, RECIPIENT)).resolves.toBeNull();
    expect(reads.count).toBe(0);
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
  });

  it("delegates channel streams without recipient context to fallback", async () => {
    const h = await harness();
    const { reads, stream } = countedStream();
    await expect(h.adapter.stream(CHANNEL_THREAD, stream)).resolves.toBeNull();
    expect(reads.count).toBe(0);
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
  });

  it("allows DM streams without recipient context", async () => {
    const h = await harness();
    async function* stream() {
      yield "hello";
    }
    await h.adapter.stream("slack:D123:1234567890.000000", stream());
    const [start] = h.fake.callsOf("chat.startStream");
    expect(start?.args).toEqual({ channel: "D123", thread_ts: "1234567890.000000" });
    expect(h.fake.callsOf("chat.stopStream")[0]?.args.markdown_text).toBe("hello");
  });

  it("passes token on stream stop", async () => {
    const h = await harness();
    async function* shortStream() {
      yield "hello";
    }
    await h.adapter.stream(CHANNEL_THREAD, shortStream(), RECIPIENT);
    const stops = h.fake.callsOf("chat.stopStream");
    expect(stops).toHaveLength(1);
    expect(stops[0]?.token).toBe(h.fake.botToken);
    expect(h.fake.callsOf("chat.startStream")[0]?.args).toMatchObject({
      recipient_user_id: "U123",
      recipient_team_id: "T123",
    });
  });

  it("passes token on every stream append", async () => {
    const h = await harness();
    const clock = h.clock;
    // Baton's markdown stream sends no task cards, so two text appends stand in for upstream's two.
    async function* chunkStream() {
      await clock.advance(1_000);
      yield "one ";
      await clock.advance(1_000);
      yield "two ";
      yield "three";
    }
    await h.adapter.stream(CHANNEL_THREAD, chunkStream(), RECIPIENT);
    const appends = h.fake.callsOf("chat.appendStream");
    expect(appends).toHaveLength(2);
    for (const append of appends) expect(append.token).toBe(h.fake.botToken);
    expect(h.fake.callsOf("chat.startStream")[0]?.token).toBe(h.fake.botToken);
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
    await h.chat.thread(DM_THREAD).post(answer());
    expect(h.fake.callsOf("chat.startStream")).toHaveLength(1);
    expect(h.fake.store.messages.at(-1)?.text).toBe("still answered");
    expect(h.fake.callsOf("chat.postMessage").length).toBeGreaterThanOrEqual(1);
  });

  it("returns null before consuming the stream when nativeStreaming is false", async () => {
    const h = await harness({ nativeStreaming: false });
    const { reads, stream } = countedStream();
    await expect(h.adapter.stream("slack:D123:1234567890.000000", stream)).resolves.toBeNull();
    expect(reads.count).toBe(0);
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
  });

  it("streams every reply by post and edit when nativeStreaming is false", async () => {
    const h = await harness({ nativeStreaming: false });
    async function* answer() {
      yield "posted ";
      yield "and edited";
    }
    await h.chat.thread(DM_THREAD).post(answer());
    expect(h.fake.callsOf("chat.startStream")).toEqual([]);
    expect(h.fake.callsOf("chat.postMessage").length).toBeGreaterThanOrEqual(1);
    expect(h.fake.store.messages.at(-1)?.text).toBe("posted and edited");
  });

  it("propagates mid-stream failures once native content has rendered", async () => {
    const h = await harness();
    const clock = h.clock;
    async function* stream() {
      await clock.advance(1_000);
      yield "first ";
      // "first " reached Slack with the append just made; the next append fails.
      h.fake.failNext("chat.appendStream", { error: "internal_error" });
      await clock.advance(1_000);
      yield "hello ";
      yield "again";
    }
    await expect(h.adapter.stream(DM_THREAD, stream())).rejects.toMatchObject({
      slackError: "internal_error",
    });
    expect(h.fake.callsOf("chat.appendStream").map((c) => c.args.markdown_text)).toEqual([
      "first ",
      "hello ",
    ]);
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
    expect(h.fake.callsOf("chat.delete")).toEqual([]);
  });

  it("falls back when buffered appends never hit the API and stop() fails", async () => {
    const h = await harness({}, { fallbackStreamingPlaceholderText: null });
    h.fake.failNext("chat.stopStream", { error: "internal_error" });
    async function* stream() {
      yield "short reply";
    }
    const sent = await h.chat.thread(DM_THREAD).post(stream());
    expect(h.fake.callsOf("chat.appendStream")).toEqual([]);
    const posts = h.fake.callsOf("chat.postMessage");
    expect(posts).toHaveLength(1);
    expect(String(posts[0]?.args.text)).toContain("short reply");
    const posted = h.fake.store.messages.at(-1);
    expect(sent.id).toBe(`${h.fake.teamId}:D123:${posted?.ts}`);
    // Baton starts the stream before reading: the empty streamed message is removed again.
    const [started] = h.fake.callsOf("chat.startStream");
    expect(started).toBeDefined();
    const [deleted] = h.fake.callsOf("chat.delete");
    expect(deleted?.args).toMatchObject({ channel: "D123" });
    expect(h.fake.store.find("D123", String(deleted?.args.ts))).toBeUndefined();
  });

  it("posts instead when the first append fails before any text reached Slack", async () => {
    const h = await harness({}, { fallbackStreamingPlaceholderText: null });
    const clock = h.clock;
    h.fake.failNext("chat.appendStream", { error: "internal_error" });
    async function* stream() {
      yield "read ";
      await clock.advance(1_000);
      yield "before ";
      yield "the failure";
    }
    await h.chat.thread(DM_THREAD).post(stream());
    expect(h.fake.callsOf("chat.appendStream")).toHaveLength(1);
    expect(h.fake.callsOf("chat.stopStream")).toEqual([]);
    expect(h.fake.callsOf("chat.delete")).toHaveLength(1);
    expect(h.fake.store.messages.filter((m) => !m.deleted).map((m) => m.text)).toEqual([
      "read before the failure",
    ]);
  });

  it("propagates stop() failures once native content has rendered", async () => {
    const h = await harness();
    const clock = h.clock;
    async function* stream() {
      yield "hello ";
      await clock.advance(1_000);
      yield "world";
    }
    h.fake.failNext("chat.stopStream", { error: "internal_error" });
    await expect(h.adapter.stream(DM_THREAD, stream())).rejects.toMatchObject({
      slackError: "internal_error",
    });
    expect(h.fake.callsOf("chat.appendStream").map((c) => c.args.markdown_text)).toEqual([
      "hello ",
    ]);
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
    expect(h.fake.callsOf("chat.delete")).toEqual([]);
  });

  it("rejects as the source failed, without posting, when the stream itself throws", async () => {
    const h = await harness();
    async function* stream() {
      yield "partial";
      throw new Error("model went away");
    }
    await expect(h.adapter.stream(DM_THREAD, stream())).rejects.toThrow("model went away");
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
  });

  it("latches native streaming off after an unsupported-method platform error", async () => {
    const h = await harness();
    h.fake.failNext("chat.startStream", { error: "unknown_method" });
    await h.chat.thread(DM_THREAD).post(words());
    await h.chat.thread(DM_THREAD).post(words());
    expect(h.fake.callsOf("chat.startStream")).toHaveLength(1);
    expect(h.fake.callsOf("chat.postMessage")).toHaveLength(2);
  });

  it("does not latch native streaming off after a transient error", async () => {
    const h = await harness();
    h.fake.failNext("chat.startStream", { error: "internal_error" });
    await h.chat.thread(DM_THREAD).post(words());
    await h.chat.thread(DM_THREAD).post(words());
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
