import { afterEach, describe, expect, it } from "vitest";
import { FORUM_CHAT } from "../src/testing/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

let h: TelegramHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A handler that blocks until released, recording which threads run at once. */
function gate() {
  const running = new Set<string>();
  const overlaps: string[][] = [];
  const releases: (() => void)[] = [];
  return {
    running,
    overlaps,
    release: () => {
      for (const release of releases.splice(0)) release();
    },
    handler: async (thread: { id: string }) => {
      running.add(thread.id);
      overlaps.push([...running].sort());
      await new Promise<void>((resolve) => releases.push(resolve));
      running.delete(thread.id);
    },
  };
}

describe("forum topics are threads of their own (ADR 0019)", () => {
  it("runs two topics of one forum at the same time under drop, each in its own thread", async () => {
    h = await createTelegramHarness({}, { dispatch: "deferred" });
    const g = gate();
    h.chat.onNewMention((thread) => g.handler(thread));
    await h.deliver(h.updates.mention("first", { chat: FORUM_CHAT, topicId: 11 }));
    await h.deliver(h.updates.mention("second", { chat: FORUM_CHAT, topicId: 22 }));
    await expect.poll(() => g.running.size).toBe(2);
    expect([...g.running].sort()).toEqual([
      "telegram:-1009876543210:11",
      "telegram:-1009876543210:22",
    ]);
    g.release();
    await h.settle();
  });

  it("serializes the topics of one forum under channel lock scope", async () => {
    h = await createTelegramHarness({}, { dispatch: "deferred", lockScope: "channel" });
    const g = gate();
    h.chat.onNewMention((thread) => g.handler(thread));
    await h.deliver(h.updates.mention("first", { chat: FORUM_CHAT, topicId: 11 }));
    await expect.poll(() => g.running.size).toBe(1);
    await h.deliver(h.updates.mention("second", { chat: FORUM_CHAT, topicId: 22 }));
    // A deferred run starts one event-loop turn after its answer: let it meet the lock.
    await new Promise((resolve) => setImmediate(resolve));
    // Under drop the second topic's message is dropped while the first topic's handler runs.
    g.release();
    await h.settle();
    expect(g.overlaps).toEqual([["telegram:-1009876543210:11"]]);
  });
});
