import { type DispatchOutcome, type Observer, sleep } from "@baton/core";
import { createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

interface RecordedSpan {
  attributes: Record<string, unknown>;
  ends: Array<{ outcome: DispatchOutcome; reason: string | undefined }>;
}

function spanRecorder() {
  const spans: RecordedSpan[] = [];
  const observer: Observer = {
    startDispatch: (attributes) => {
      const span: RecordedSpan = { attributes: { ...attributes }, ends: [] };
      spans.push(span);
      return {
        setAttributes: (more) => Object.assign(span.attributes, more),
        end: (outcome, reason) => span.ends.push({ outcome, reason }),
      };
    },
  };
  return { spans, observer };
}

describe("dispatch spans (DESIGN §8)", () => {
  it("ends every delivery's span exactly once, whatever its outcome", async () => {
    const { spans, observer } = spanRecorder();
    const h = await createChatHarness({
      observer,
      maxDetached: 6,
      concurrency: { strategy: "queue", maxQueueSize: 1, queueEntryTtlMs: 500 },
    });
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text.includes("slow")) await sleep(h.clock, 1_000);
      if (message.text.includes("fail")) throw new Error("handler failed on purpose");
    });
    const results = [
      h.send("@bot slow", { id: "running" }),
      h.send("@bot evicted", { id: "evicted" }),
      h.send("@bot expires", { id: "expired" }),
      h.send("@bot slow", { id: "running" }),
      h.send("@bot me", { id: "self", author: { isMe: true } }),
      h.send("@bot fail", { id: "failing", threadId: "mock:C1:T2" }),
      h.send("nothing for me", { id: "ignored", threadId: "mock:C1:T3" }),
    ].map((entry) => entry.done);
    const overCap = Promise.all(
      ["cap1", "cap2", "cap3"].map((id) =>
        h.chat
          .processMessage(
            h.adapter,
            "mock:C1:T9",
            createTestMessage({ id, text: "@bot x", threadId: "mock:C1:T9" }),
          )
          .catch((error: { code?: string }) => error.code),
      ),
    );
    await h.clock.advance(1_000);
    const outcomes = (await Promise.all(results)).map((result) => result.outcome);
    expect(outcomes).toEqual([
      "handled",
      "preempted",
      "expired",
      "duplicate",
      "ignored",
      "error",
      "ignored",
    ]);
    expect(await overCap).toContain("ADMISSION_REJECTED");

    expect(spans.every((span) => span.ends.length === 1)).toBe(true);
    const ended = spans.map((span) => span.ends[0]?.outcome);
    for (const outcome of [
      "handled",
      "preempted",
      "expired",
      "duplicate",
      "ignored",
      "error",
      "admission-rejected",
    ]) {
      expect(ended).toContain(outcome);
    }
    const handled = spans.find((span) => span.ends[0]?.outcome === "handled");
    expect(handled?.attributes).toMatchObject({
      adapter: "mock",
      strategy: "queue",
      route: "mention",
    });
    expect(JSON.stringify(spans)).not.toContain("@bot");
  });

  it("ends the span of a skipped message as skipped when the run it was folded into ends", async () => {
    const { spans, observer } = spanRecorder();
    const h = await createChatHarness({ observer, concurrency: "queue" });
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text === "@bot first") await sleep(h.clock, 500);
    });
    const sent = [h.send("@bot first"), h.send("@bot second"), h.send("@bot third")];
    await h.clock.advance(500);
    await Promise.all(sent.map((entry) => entry.done));
    expect(spans.map((span) => span.ends.map((end) => end.outcome))).toEqual([
      ["handled"],
      ["skipped"],
      ["handled"],
    ]);
  });
});
