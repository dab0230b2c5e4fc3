import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeTeamsThreadId } from "../src/index.js";
import { CHANNEL, GROUP_CHAT, PERSONAL_CHAT, trackHarnesses } from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

async function withThread(conversationId: string) {
  const h = await harnesses.open();
  const threadId = encodeTeamsThreadId({ conversationId, serviceUrl: h.fake.serviceUrl });
  return { h, threadId };
}

/** Yields each part; before a part, `gap` may advance the fake clock (the model's pause). */
async function* parts(list: string[], gap: (index: number) => Promise<void> = async () => {}) {
  for (const [index, part] of list.entries()) {
    await gap(index);
    yield part;
  }
}

function streamInfoOf(body: unknown): Record<string, unknown> | undefined {
  const entities = (body as { entities?: { type: string }[] }).entities ?? [];
  return entities.find((entity) => entity.type === "streaminfo") as Record<string, unknown>;
}

describe("Teams native streaming (personal chat)", () => {
  it("sends streaming typing activities with rising sequence numbers, the first id as streamId, then a final message", async () => {
    const { h, threadId } = await withThread(PERSONAL_CHAT);
    const result = await h.adapter.stream(
      threadId,
      parts(["Hello", " there", " friend"], async (index) => {
        if (index > 0) await h.clock.advance(1_000);
      }),
    );
    if (result === null) throw new Error("a personal chat streams natively, never falls back");
    const calls = h.fake.callsTo("activities.create");
    expect(calls.map((call) => call.body?.type)).toEqual(["typing", "typing", "typing", "message"]);
    expect(calls.map((call) => streamInfoOf(call.body))).toEqual([
      { type: "streaminfo", streamType: "streaming", streamSequence: 1 },
      { type: "streaminfo", streamType: "streaming", streamSequence: 2, streamId: result.id },
      { type: "streaminfo", streamType: "streaming", streamSequence: 3, streamId: result.id },
      { type: "streaminfo", streamType: "final", streamId: result.id },
    ]);
    expect(calls.map((call) => call.body?.text)).toEqual([
      "Hello",
      "Hello there",
      "Hello there friend",
      "Hello there friend",
    ]);
    expect(result.id).not.toBe("");
  });

  it("coalesces chunks that arrive within the update interval into one update", async () => {
    const { h, threadId } = await withThread(PERSONAL_CHAT);
    await h.adapter.stream(
      threadId,
      parts(["a", "b", "c", "d"], async (index) => {
        if (index === 3) await h.clock.advance(1_000);
      }),
    );
    const calls = h.fake.callsTo("activities.create");
    expect(calls.map((call) => call.body?.text)).toEqual(["a", "abcd", "abcd"]);
    expect(calls.map((call) => streamInfoOf(call.body)?.streamType)).toEqual([
      "streaming",
      "streaming",
      "final",
    ]);
  });

  it("sends the final message with the text so far when the source fails midway, then rethrows", async () => {
    const { h, threadId } = await withThread(PERSONAL_CHAT);
    async function* failing() {
      yield "partial";
      throw new Error("model went away");
    }
    await expect(h.adapter.stream(threadId, failing())).rejects.toThrow("model went away");
    const calls = h.fake.callsTo("activities.create");
    expect(calls.map((call) => streamInfoOf(call.body)?.streamType)).toEqual([
      "streaming",
      "final",
    ]);
    expect(calls[1]?.body?.text).toBe("partial");
  });
});

describe("Teams streaming protocol fields (Baton)", () => {
  it("sends the stream fields in channelData as well as in the streaminfo entity, as Microsoft's Teams SDK does", async () => {
    const { h, threadId } = await withThread(PERSONAL_CHAT);
    const result = await h.adapter.stream(
      threadId,
      parts(["Hello", " there"], async (index) => {
        if (index > 0) await h.clock.advance(1_000);
      }),
    );
    const calls = h.fake.callsTo("activities.create");
    expect(calls.map((call) => call.body?.channelData)).toEqual([
      { streamType: "streaming", streamSequence: 1 },
      { streamType: "streaming", streamSequence: 2, streamId: result?.id },
      { streamType: "final", streamId: result?.id },
    ]);
    for (const call of calls) {
      const { type: _type, ...fields } = streamInfoOf(call.body) ?? {};
      expect(fields).toEqual(call.body?.channelData);
    }
  });

  it("shows plan and running-task chunks as informative updates until the answer's first text", async () => {
    const { h, threadId } = await withThread(PERSONAL_CHAT);
    async function* agent() {
      yield { type: "plan_update" as const, title: "Reading the thread" };
      await h.clock.advance(1_000);
      yield {
        type: "task_update" as const,
        id: "t1",
        title: "Searching documents",
        status: "in_progress" as const,
      };
      await h.clock.advance(1_000);
      yield {
        type: "task_update" as const,
        id: "t1",
        title: "Searching documents",
        status: "complete" as const,
      };
      yield "Found it";
      await h.clock.advance(1_000);
      yield {
        type: "task_update" as const,
        id: "t2",
        title: "Too late",
        status: "in_progress" as const,
      };
      yield { type: "markdown_text" as const, text: "." };
    }
    const result = await h.adapter.stream(threadId, agent());
    const calls = h.fake.callsTo("activities.create");
    expect(
      calls.map((call) => [call.body?.type, streamInfoOf(call.body)?.streamType, call.body?.text]),
    ).toEqual([
      ["typing", "informative", "Reading the thread"],
      ["typing", "informative", "Searching documents"],
      ["typing", "streaming", "Found it"],
      ["typing", "streaming", "Found it."],
      ["message", "final", "Found it."],
    ]);
    expect(calls.map((call) => streamInfoOf(call.body)?.streamSequence)).toEqual([
      1,
      2,
      3,
      4,
      undefined,
    ]);
    expect(streamInfoOf(calls[4]?.body)?.streamId).toBe(result?.id);
  });
});

// Ported from upstream packages/adapter-teams/src/index.test.ts (titles verbatim). Upstream
// drives the Teams SDK's IStreamer; Baton speaks the same protocol to the connector, so the
// fake Bot Framework's recorded activities show what upstream's streamer mock records.
describe("TeamsAdapter", () => {
  describe("streaming", () => {
    it("uses core fallback for an explicit group-chat placeholder", async () => {
      const { h, threadId } = await withThread(GROUP_CHAT);
      let consumed = false;
      const source = {
        async *[Symbol.asyncIterator]() {
          consumed = true;
          yield "Done";
        },
      };
      const result = await h.adapter.stream(threadId, source, {
        fallbackStreamingPlaceholderText: "Working...",
      });
      expect(result).toBeNull();
      expect(consumed).toBe(false);
      expect(h.fake.calls).toHaveLength(0);
    });

    it.each([undefined, null])(
      "preserves buffered group-chat streaming for placeholder %s",
      async (placeholderText) => {
        const { h, threadId } = await withThread(GROUP_CHAT);
        const postMessage = vi.spyOn(h.adapter, "postMessage");
        const result = await h.adapter.stream(
          threadId,
          parts(["Do", "ne"]),
          placeholderText === undefined
            ? undefined
            : { fallbackStreamingPlaceholderText: placeholderText },
        );
        expect(postMessage).toHaveBeenCalledOnce();
        expect(postMessage).toHaveBeenCalledWith(threadId, { markdown: "Done" });
        const posted = await postMessage.mock.results[0]?.value;
        expect(result?.id).toBe(posted.id);
        const calls = h.fake.calls;
        expect(calls.map((call) => [call.route, call.body?.type, call.body?.text])).toEqual([
          ["activities.create", "message", "Done"],
        ]);
      },
    );

    it("sends an explicit placeholder as native status before the first chunk", async () => {
      const { h, threadId } = await withThread(PERSONAL_CHAT);
      const result = await h.adapter.stream(threadId, parts(["Do", "ne"]), {
        fallbackStreamingPlaceholderText: "Working...",
      });
      const calls = h.fake.callsTo("activities.create");
      expect(
        calls.map((call) => [
          call.body?.type,
          streamInfoOf(call.body)?.streamType,
          call.body?.text,
        ]),
      ).toEqual([
        ["typing", "informative", "Working..."],
        ["message", "final", "Done"],
      ]);
      expect(streamInfoOf(calls[1]?.body)?.streamId).toBe(result?.id);
      expect(result).toMatchObject({ threadId });
    });
  });
});

describe("Teams streaming outside personal chats (Baton)", () => {
  it("posts a channel stream once, with the whole text, when no placeholder was given", async () => {
    const { h, threadId } = await withThread(`${CHANNEL};messageid=1767224924000`);
    const sent = await h.chat.thread(threadId).post(parts(["one", " two"]));
    expect(sent.text).toBe("one two");
    expect(h.fake.calls.map((call) => [call.route, call.body?.type, call.body?.text])).toEqual([
      ["activities.create", "message", "one two"],
    ]);
  });
});
