import { sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Chat, type ChatConfig } from "../../src/index.js";

// The runtime on a State that offers the fused fast paths (DESIGN §4.1): the same outcomes as
// with the separate calls, in fewer State calls. chat-concurrency/-dedupe/-strategies cover the
// fallback (the default memory State offers no fast paths).
async function fastPathChat(options: Partial<Omit<ChatConfig, "adapters" | "state">> = {}) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock, fastPaths: true });
  const adapter = createMockAdapter("mock");
  const chat = new Chat({
    userName: "bot",
    adapters: { mock: adapter },
    state,
    logger: "silent",
    clock,
    ...options,
  });
  await chat.initialize();
  const send = (text: string, id?: string) => {
    const message = createTestMessage({ threadId: "mock:C1:T1", text, ...(id ? { id } : {}) });
    return chat.processMessage(adapter, message.threadId, message);
  };
  return { chat, state, clock, send };
}

describe("the fused fast paths", () => {
  it("handles an uncontended message with one acceptAndAcquire and one releaseAndNext", async () => {
    const h = await fastPathChat({ concurrency: "drop" });
    const calls = {
      acceptAndAcquire: vi.spyOn(h.state, "acceptAndAcquire" as never),
      releaseAndNext: vi.spyOn(h.state, "releaseAndNext" as never),
      setIfNotExists: vi.spyOn(h.state, "setIfNotExists"),
      acquireLock: vi.spyOn(h.state, "acquireLock"),
      isSubscribed: vi.spyOn(h.state, "isSubscribed"),
      releaseLock: vi.spyOn(h.state, "releaseLock"),
    };
    const handled: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      handled.push(message.text);
    });

    expect(await h.send("@bot hi")).toEqual({ outcome: "handled" });

    expect(handled).toEqual(["@bot hi"]);
    expect(calls.acceptAndAcquire).toHaveBeenCalledTimes(1);
    expect(calls.releaseAndNext).toHaveBeenCalledTimes(1);
    for (const name of ["setIfNotExists", "acquireLock", "isSubscribed", "releaseLock"] as const) {
      expect(calls[name], name).not.toHaveBeenCalled();
    }
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
  });

  it("skips a redelivered message as a duplicate, its handler having run once", async () => {
    const h = await fastPathChat({ concurrency: "drop" });
    let runs = 0;
    h.chat.onNewMention(async () => {
      runs += 1;
    });
    expect(await h.send("@bot hi", "m1")).toEqual({ outcome: "handled" });
    expect(await h.send("@bot hi", "m1")).toMatchObject({ outcome: "duplicate" });
    expect(runs).toBe(1);
  });

  it("routes by the subscription read along with the lock", async () => {
    const h = await fastPathChat({ concurrency: "drop" });
    await h.state.subscribe("mock:C1:T1");
    const routes: string[] = [];
    h.chat.onNewMention(async () => {
      routes.push("mention");
    });
    h.chat.onSubscribedMessage(async () => {
      routes.push("subscribed");
    });
    expect(await h.send("hello")).toEqual({ outcome: "handled" });
    expect(routes).toEqual(["subscribed"]);
  });

  it("drops a message whose thread is busy under drop, keeping its dedupe mark", async () => {
    const h = await fastPathChat({ concurrency: "drop" });
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text === "@bot first") await sleep(h.clock, 1_000);
    });
    const first = h.send("@bot first", "m1");
    await h.clock.advance(10);
    expect(await h.send("@bot second", "m2")).toMatchObject({ outcome: "dropped-lock-conflict" });
    await h.clock.advance(1_000);
    expect(await first).toEqual({ outcome: "handled" });
    expect(await h.state.setIfNotExists("dedupe:mock:m2", 1, 60_000)).toBe(false);
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
  });

  it("queues contenders behind a busy thread and answers them in one run after the holder", async () => {
    const h = await fastPathChat({ concurrency: "queue" });
    const seen: { text: string; skipped: string[] }[] = [];
    h.chat.onNewMention(async (_thread, message, context) => {
      seen.push({ text: message.text, skipped: context.skipped.map((m) => m.text) });
      if (message.text === "@bot first") await sleep(h.clock, 1_000);
    });
    const first = h.send("@bot first");
    await h.clock.advance(10);
    const second = h.send("@bot second");
    const third = h.send("@bot third");
    await h.clock.advance(1_000);
    expect(await first).toEqual({ outcome: "handled" });
    expect(await second).toMatchObject({ outcome: "skipped" });
    expect(await third).toEqual({ outcome: "handled" });
    expect(seen).toEqual([
      { text: "@bot first", skipped: [] },
      { text: "@bot third", skipped: ["@bot second"] },
    ]);
    expect(await h.state.queueDepth("thread:mock:C1:T1")).toBe(0);
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
  });

  it("answers a message enqueued just before the fused release (no lost wake-up)", async () => {
    const h = await fastPathChat({ concurrency: "queue" });
    const handled: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      handled.push(message.text);
    });
    // The late message's contender must have queued AND failed its own lock retry before the
    // release, so only the releaser's look at the queue can wake it.
    let markRefused = () => {};
    const refused = new Promise<void>((resolve) => {
      markRefused = resolve;
    });
    const realAcquire = h.state.acquireLock.bind(h.state);
    h.state.acquireLock = async (...args) => {
      const lock = await realAcquire(...args);
      if (lock === null) markRefused();
      return lock;
    };
    const realReleaseAndNext = h.state.releaseAndNext?.bind(h.state);
    if (!realReleaseAndNext) throw new Error("the memory State must offer releaseAndNext");
    let late: Promise<unknown> | undefined;
    Object.assign(h.state, {
      releaseAndNext: async (lock: Parameters<typeof realReleaseAndNext>[0]) => {
        if (!late) {
          late = h.send("@bot late");
          await refused;
        }
        return realReleaseAndNext(lock);
      },
    });
    expect(await h.send("@bot first")).toEqual({ outcome: "handled" });
    // Its caller may have been told `queued` (no local holder left when it looked); what matters
    // is that the releaser saw the entry and ran it.
    expect(await late).toMatchObject({ outcome: expect.stringMatching(/^(handled|queued)$/) });
    expect(handled).toEqual(["@bot first", "@bot late"]);
    expect(await h.state.queueDepth("thread:mock:C1:T1")).toBe(0);
  });

  it("renews the fused lock like any other while a long handler runs", async () => {
    const h = await fastPathChat({ concurrency: "drop" });
    const extend = vi.spyOn(h.state, "extendLock");
    h.chat.onNewMention(async () => {
      await sleep(h.clock, 70_000);
    });
    const done = h.send("@bot long");
    await h.clock.advance(70_000);
    expect(await done).toEqual({ outcome: "handled" });
    expect(extend).toHaveBeenCalled();
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
  });
});
