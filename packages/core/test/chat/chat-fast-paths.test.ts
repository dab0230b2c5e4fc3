import { sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Chat, type ChatConfig } from "../../src/index.js";
import { botInstance } from "./chat-harness.js";

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
      releaseAndNext: async (...args: Parameters<typeof realReleaseAndNext>) => {
        if (!late) {
          late = h.send("@bot late");
          await refused;
        }
        return realReleaseAndNext(...args);
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

/** Two Chats on one memory State with the fast paths: two instances of one bot. */
async function twoInstances() {
  const clock = createFakeClock();
  const state = createMemoryState({ clock, fastPaths: true });
  const make = async () => {
    const { chat, adapter } = botInstance(state, clock, { concurrency: "queue" });
    const runs: Array<{ id: string; skipped: string[]; fence: number | undefined }> = [];
    const slow = new Set<string>();
    chat.onNewMention(async (_thread, message, context) => {
      runs.push({
        id: message.id,
        skipped: context.skipped.map((skipped) => skipped.id),
        fence: context.lock?.fence,
      });
      if (slow.has(message.id)) await sleep(clock, 1_000);
    });
    await chat.initialize();
    const send = (id: string) =>
      chat.processMessage(
        adapter,
        "mock:C1:T1",
        createTestMessage({ id, text: `@bot ${id}`, threadId: "mock:C1:T1" }),
      );
    return { chat, runs, slow, send };
  };
  return { clock, state, a: await make(), b: await make() };
}

describe("queue on the fused release (no dequeue before it)", () => {
  const LOCK_KEY = "thread:mock:C1:T1";

  it("handles an uncontended message with no dequeue: the release looks at the queue", async () => {
    const h = await fastPathChat({ concurrency: "queue" });
    const dequeue = vi.spyOn(h.state, "dequeue");
    const queueDepth = vi.spyOn(h.state, "queueDepth");
    const releaseAndNext = vi.spyOn(h.state, "releaseAndNext" as never);
    h.chat.onNewMention(async () => {});

    expect(await h.send("@bot hi")).toEqual({ outcome: "handled" });

    expect(dequeue).not.toHaveBeenCalled();
    expect(queueDepth).not.toHaveBeenCalled();
    expect(releaseAndNext).toHaveBeenCalledTimes(1);
    expect(await h.state.inspectLock(LOCK_KEY)).toBeNull();
  });

  it("answers a message another instance queued while the handler ran, found by the release", async () => {
    const { clock, state, a, b } = await twoInstances();
    a.slow.add("m1");
    const first = a.send("m1");
    await clock.advance(10);
    // B cannot take the lock: the message waits in the queue, handed off to A, which noted
    // nothing locally — only the release's look at the queue can find it.
    expect(await b.send("m2")).toMatchObject({ outcome: "queued" });
    expect(await state.queueDepth(LOCK_KEY)).toBe(1);

    await clock.advance(1_000);
    expect(await first).toEqual({ outcome: "handled" });
    await clock.advance(0);

    expect(a.runs.map((run) => run.id)).toEqual(["m1", "m2"]);
    expect(b.runs).toEqual([]);
    expect(await state.queueDepth(LOCK_KEY)).toBe(0);
    expect(await state.inspectLock(LOCK_KEY)).toBeNull();
  });

  it("answers a message another instance queued after the drain's last dequeue, found by the release", async () => {
    const { clock, state, a, b } = await twoInstances();
    a.slow.add("m1");
    a.slow.add("m2");
    const first = a.send("m1");
    await clock.advance(10);
    // Queued on A itself: A knows of it and drains it under the same lock after m1.
    const second = a.send("m2");
    await clock.advance(1_000);
    // m2 runs now, taken by the drain's dequeue; B's message arrives after that dequeue.
    expect(a.runs.map((run) => run.id)).toEqual(["m1", "m2"]);
    expect(await b.send("m3")).toMatchObject({ outcome: "queued" });

    await clock.advance(1_000);
    expect(await first).toEqual({ outcome: "handled" });
    expect(await second).toEqual({ outcome: "handled" });

    expect(a.runs.map((run) => run.id)).toEqual(["m1", "m2", "m3"]);
    expect(await state.queueDepth(LOCK_KEY)).toBe(0);
    expect(await state.inspectLock(LOCK_KEY)).toBeNull();
  });

  it("answers a message another instance queued between the end of the run and the release", async () => {
    const { clock, state, a, b } = await twoInstances();
    const realReleaseAndNext = state.releaseAndNext?.bind(state);
    if (!realReleaseAndNext) throw new Error("the memory State must offer releaseAndNext");
    let late: Promise<unknown> | undefined;
    Object.assign(state, {
      releaseAndNext: async (...args: Parameters<typeof realReleaseAndNext>) => {
        if (!late) {
          // The handler has ended and nothing looked at the queue since it began.
          late = b.send("late");
          expect(await late).toMatchObject({ outcome: "queued" });
        }
        return realReleaseAndNext(...args);
      },
    });

    expect(await a.send("m1")).toEqual({ outcome: "handled" });
    await clock.advance(0);

    expect(a.runs.map((run) => run.id)).toEqual(["m1", "late"]);
    expect(await state.queueDepth(LOCK_KEY)).toBe(0);
    expect(await state.inspectLock(LOCK_KEY)).toBeNull();
  });

  it("drains what this instance queued during the run under the same lock, releasing once", async () => {
    const { clock, state, a } = await twoInstances();
    const acquireLock = vi.spyOn(state, "acquireLock");
    const releaseAndNext = vi.spyOn(state, "releaseAndNext" as never);
    a.slow.add("m1");
    const first = a.send("m1");
    await clock.advance(10);
    const contenders = [a.send("m2"), a.send("m3")];
    await clock.advance(1_000);
    expect(await first).toEqual({ outcome: "handled" });
    expect(await Promise.all(contenders)).toEqual([
      expect.objectContaining({ outcome: "skipped" }),
      { outcome: "handled" },
    ]);

    expect(a.runs).toEqual([
      { id: "m1", skipped: [], fence: a.runs[0]?.fence },
      { id: "m3", skipped: ["m2"], fence: a.runs[0]?.fence },
    ]);
    expect(a.runs[0]?.fence).toEqual(expect.any(Number));
    // The contenders' own tries at the lock (refused); the holder never let go in between.
    expect(acquireLock).toHaveBeenCalledTimes(2);
    expect(releaseAndNext).toHaveBeenCalledTimes(1);
    expect(await state.queueDepth(LOCK_KEY)).toBe(0);
  });
});
