import { sleep } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

describe("a State failure in the middle of taking a drain's entries", () => {
  it("still gives the entries already taken out of the State a terminal disposition", async () => {
    // Entry by entry, as a drain takes them without durable turns (with them, one atomic call).
    const h = await createChatHarness({ concurrency: "queue", durableTurns: false });
    const seen: string[] = [];
    h.chat.onNewMention(async (_thread, message, context) => {
      seen.push([message.text, ...context.skipped.map((m) => m.text)].join(" + "));
      if (message.text === "@bot first") await sleep(h.clock, 500);
    });
    const first = h.send("@bot first");
    await h.clock.advance(10);
    const second = h.send("@bot second");
    await h.clock.advance(10);
    // The holder's drain takes "second" out of the State queue; the next dequeue fails, as when
    // the server goes away between two round trips.
    const dequeue = h.state.dequeue.bind(h.state);
    let calls = 0;
    h.state.dequeue = async (key) => {
      calls += 1;
      if (calls === 2) throw new Error("connection reset");
      return dequeue(key);
    };
    await h.clock.advance(500);

    expect(await first.done).toEqual({ outcome: "handled" });
    expect(await second.done).toEqual({ outcome: "handled" });
    expect(seen).toEqual(["@bot first", "@bot second"]);
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it("hands the turn back when taking a drain's entries into its turn record fails, so nothing it may have moved is lost", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const seen: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      seen.push(message.text);
      if (message.text === "@bot first") await sleep(h.clock, 500);
    });
    const first = h.send("@bot first");
    await h.clock.advance(10);
    const second = h.send("@bot second");
    await h.clock.advance(10);
    // The take reaches the State and moves "second" into the record, but its answer is lost.
    const take = h.state.takeQueuedTurn?.bind(h.state);
    if (!take) throw new Error("the memory State keeps turn records");
    let failed = false;
    h.state.takeQueuedTurn = async (lock, options) => {
      const entries = await take(lock, options);
      if (failed) return entries;
      failed = true;
      throw new Error("connection reset after the write");
    };
    await h.clock.advance(500);

    expect(await first.done).toEqual({ outcome: "handled" });
    expect(failed).toBe(true);
    expect(await h.state.inspectTurn?.("thread:mock:C1:T1")).toMatchObject({
      handedBack: "lease-lost",
    });
    // The sweeper (every lockTtlMs by default) recovers the record, so "second" is answered.
    await h.clock.advance(30_000);
    expect(seen).toEqual(["@bot first", "@bot second"]);
    expect((await second.done).outcome).toBe("queued");
    await h.chat.shutdown();
  });
});
