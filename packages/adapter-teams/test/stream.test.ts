import { afterEach, describe, expect, it } from "vitest";
import { encodeTeamsThreadId } from "../src/index.js";
import { CHANNEL, PERSONAL_CHAT, trackHarnesses } from "./teams-harness.js";

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

describe("Teams streaming outside personal chats", () => {
  it("hands a channel stream back to the core's post + edit, without reading it or sending anything", async () => {
    const { h, threadId } = await withThread(`${CHANNEL};messageid=1767224924000`);
    let started = false;
    const source = (async function* () {
      started = true;
      yield "one";
    })();
    expect(await h.adapter.stream(threadId, source)).toBeNull();
    expect(started).toBe(false);
    expect(h.fake.callsTo("activities.create")).toHaveLength(0);
  });
});
