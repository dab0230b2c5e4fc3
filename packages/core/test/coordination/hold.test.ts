import {
  Chat,
  type ChatConfig,
  type HoldHandle,
  type MessageContext,
  type StateAdapter,
  sleep,
} from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "../chat/chat-harness.js";

const T1 = "mock:C1:T1";
const HOLD = { ttlMs: 60_000, owner: "agent-7" };

/** Records each handler run: its message, the ones it skipped, and its lock fence. */
function recordRuns(chat: Chat) {
  const runs: Array<{ id: string; skipped: string[]; fence: number | undefined }> = [];
  chat.onNewMention((_thread, message, context: MessageContext) => {
    runs.push({
      id: message.id,
      skipped: context.skipped.map((skipped) => skipped.id),
      fence: context.lock?.fence,
    });
  });
  return runs;
}

/** Two `Chat` instances (two processes of one bot) on one memory State and one fake clock. */
async function twoInstances(config: Partial<ChatConfig> = {}) {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const make = async () => {
    const adapter = createMockAdapter("mock");
    const chat = new Chat({
      userName: "bot",
      adapters: { mock: adapter },
      state,
      logger: "silent",
      clock,
      ...config,
    });
    await chat.initialize();
    return { chat, adapter };
  };
  return { clock, state, first: await make(), second: await make() };
}

/** The naive release: free the lock by key, without checking the token or draining. */
const naiveReleaseByKey = (state: StateAdapter, handle: HoldHandle) =>
  state.forceReleaseLock(handle.key);

describe("holds on a thread's lock key (DESIGN §7.4)", () => {
  it("queue: holds back three messages and handles them all after releaseHold — the latest with the others skipped — none before", async () => {
    for (const release of ["releaseHold", "naive releaseLock"] as const) {
      const h = await createChatHarness({ concurrency: "queue" });
      const runs = recordRuns(h.chat);
      const handle = await h.chat.thread(T1).hold(HOLD);
      expect(handle).toMatchObject({ key: `thread:${T1}`, threadId: T1, owner: "agent-7" });
      const results = await Promise.all(
        ["a", "b", "c"].map((id) => h.send(`@bot ${id}`, { id }).done),
      );
      expect(results.map((result) => result.outcome)).toEqual(["queued", "queued", "queued"]);
      await h.clock.advance(10_000);
      expect(runs).toEqual([]);

      if (release === "releaseHold") {
        expect(await h.chat.releaseHold(handle as HoldHandle)).toBe(true);
        await h.clock.advance(10);
        expect(runs).toMatchObject([{ id: "c", skipped: ["a", "b"] }]);
        expect(await h.state.inspectLock(`thread:${T1}`)).toBeNull();
      } else {
        // A bare token-checked release frees the lock but wakes no one: the messages wait for
        // the next sweep (30 s later by default) instead of running on release.
        expect(await h.state.releaseLock(handle as HoldHandle)).toBe(true);
        await h.clock.advance(10);
        expect(runs).toEqual([]);
      }
    }
  });

  it("drop: messages that arrive during a hold are dropped, and the thread answers again after release", async () => {
    const h = await createChatHarness();
    const runs = recordRuns(h.chat);
    const handle = (await h.chat.thread(T1).hold(HOLD)) as HoldHandle;
    expect(await h.send("@bot during", { id: "during" }).done).toEqual({
      outcome: "dropped-lock-conflict",
      reason: "lock held",
    });
    expect(await h.chat.releaseHold(handle)).toBe(true);
    expect(await h.send("@bot after", { id: "after" }).done).toEqual({ outcome: "handled" });
    expect(runs.map((run) => run.id)).toEqual(["after"]);
  });

  for (const strategy of ["debounce", "burst"] as const) {
    it(`${strategy}: messages wait during a hold and are drained after its release`, async () => {
      const h = await createChatHarness({ concurrency: { strategy, debounceMs: 500 } });
      const runs = recordRuns(h.chat);
      const handle = (await h.chat.thread(T1).hold(HOLD)) as HoldHandle;
      h.send("@bot one", { id: "one" });
      h.send("@bot two", { id: "two" });
      await h.clock.advance(5_000);
      expect(runs).toEqual([]);
      expect(await h.chat.releaseHold(handle)).toBe(true);
      await h.clock.advance(1_000);
      expect(runs).toMatchObject([{ id: "two", skipped: ["one"] }]);
    });
  }

  it("is released by a second Chat instance from the JSON handle, which drains the queue there", async () => {
    const { clock, state, first, second } = await twoInstances({ concurrency: "queue" });
    const firstRuns = recordRuns(first.chat);
    const secondRuns = recordRuns(second.chat);
    const json = JSON.stringify(await first.chat.thread(T1).hold(HOLD));
    const sent = createTestMessage({ id: "m1", text: "@bot waiting", threadId: T1 });
    expect(await first.chat.processMessage(first.adapter, T1, sent)).toEqual({
      outcome: "queued",
      reason: "held by another instance",
    });
    expect(await second.chat.releaseHold(json)).toBe(true);
    await clock.advance(10);
    expect(secondRuns.map((run) => run.id)).toEqual(["m1"]);
    expect(firstRuns).toEqual([]);
    expect(await state.queueDepth(`thread:${T1}`)).toBe(0);
  });

  it("does nothing with a stale handle after expiry and reacquire, and fences keep increasing", async () => {
    for (const release of ["releaseHold", "naive release by key"] as const) {
      const h = await createChatHarness();
      const runs = recordRuns(h.chat);
      const stale = (await h.chat.thread(T1).hold({ ttlMs: 1_000 })) as HoldHandle;
      await h.clock.advance(1_500);
      const current = (await h.chat.thread(T1).hold({ ttlMs: 60_000 })) as HoldHandle;
      expect(current.fence).toBeGreaterThan(stale.fence);

      if (release === "releaseHold") {
        expect(await h.chat.releaseHold(stale)).toBe(false);
        expect(await h.chat.extendHold(stale, 60_000)).toBe(false);
        expect(await h.state.inspectLock(current.key)).toMatchObject({ fence: current.fence });
        expect(await h.chat.releaseHold(current)).toBe(true);
        expect(await h.send("@bot next").done).toEqual({ outcome: "handled" });
        expect(runs[0]?.fence).toBeGreaterThan(current.fence);
      } else {
        await naiveReleaseByKey(h.state, stale);
        expect(await h.state.inspectLock(current.key)).toBeNull(); // the new holder lost its hold
      }
    }
  });

  it("lapses at its TTL, and the sweeper then drains what waited (crash recovery)", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const runs = recordRuns(h.chat);
    await h.chat.thread(T1).hold({ ttlMs: 5_000 });
    h.send("@bot one", { id: "one" });
    h.send("@bot two", { id: "two" });
    await h.clock.advance(4_000);
    expect(runs).toEqual([]);
    await h.clock.advance(1_000 + 30_000); // TTL, then one sweep interval (lockTtlMs)
    expect(runs).toMatchObject([{ id: "two", skipped: ["one"] }]);
  });

  it("lasts past its first expiry when extended", async () => {
    const h = await createChatHarness();
    recordRuns(h.chat);
    const handle = (await h.chat.thread(T1).hold({ ttlMs: 1_000 })) as HoldHandle;
    await h.clock.advance(500);
    expect(await h.chat.extendHold(JSON.stringify(handle), 5_000)).toBe(true);
    await h.clock.advance(1_500);
    expect((await h.send("@bot during").done).outcome).toBe("dropped-lock-conflict");
    await h.clock.advance(4_000);
    expect((await h.send("@bot after").done).outcome).toBe("handled");
  });

  it("returns null while the lock key is busy: held by another hold or by a running handler", async () => {
    const h = await createChatHarness();
    h.chat.onNewMention(() => sleep(h.clock, 1_000));
    const handle = await h.chat.thread(T1).hold(HOLD);
    expect(handle).not.toBeNull();
    expect(await h.chat.thread(T1).hold(HOLD)).toBeNull();
    const T2 = "mock:C1:T2";
    const running = h.send("@bot long", { threadId: T2 });
    await h.clock.advance(10);
    expect(await h.chat.thread(T2).hold(HOLD)).toBeNull();
    await h.clock.advance(1_000);
    await running.done;
  });

  it("inside a handler, takes the run's own lock over: the run finishes, later messages wait for the release", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const seen: Array<{ id: string; fence: number | undefined }> = [];
    let taken: { handle: HoldHandle | null; fence: number | undefined } | undefined;
    h.chat.onNewMention(async (thread, message, context) => {
      seen.push({ id: message.id, fence: context.lock?.fence });
      if (message.text !== "@bot a human, please") return;
      await sleep(h.clock, 100);
      const handle = await thread.hold({ ttlMs: 60_000, owner: "agent-7" });
      taken = { handle, fence: context.lock?.fence };
      await thread.post("An agent will take it from here.");
    });
    const asking = h.send("@bot a human, please", { id: "ask" });
    await h.clock.advance(50);
    const duringRun = h.send("@bot hello?", { id: "during" });
    await h.clock.advance(100);
    expect(await asking.done).toEqual({ outcome: "handled" });
    expect(taken?.handle?.fence).toBe(taken?.fence);
    expect(await duringRun.done).toEqual({ outcome: "queued", reason: "held by another instance" });
    const afterRun = await h.send("@bot still there?", { id: "after" }).done;
    expect(afterRun.outcome).toBe("queued");
    await h.clock.advance(10_000);
    expect(seen.map((run) => run.id)).toEqual(["ask"]);
    expect(await h.state.inspectLock(`thread:${T1}`)).toMatchObject({ fence: taken?.fence });

    expect(await h.chat.releaseHold(taken?.handle as HoldHandle)).toBe(true);
    await h.clock.advance(10);
    expect(seen.map((run) => run.id)).toEqual(["ask", "after"]);
  });

  it("under channel lock scope, covers every thread of the channel", async () => {
    const h = await createChatHarness({ lockScope: "channel" });
    const handle = (await h.chat.thread(T1).hold(HOLD)) as HoldHandle;
    expect(handle.key).toBe("channel:mock:C1");
    const other = await h.send("@bot other thread", { threadId: "mock:C1:T2" }).done;
    expect(other.outcome).toBe("dropped-lock-conflict");
    const elsewhere = await h.send("@bot other channel", { threadId: "mock:C2:T1" }).done;
    expect(elsewhere.outcome).toBe("ignored");
  });

  it("under concurrent, takes a lock that no handler waits for", async () => {
    const h = await createChatHarness({ concurrency: "concurrent" });
    const runs = recordRuns(h.chat);
    expect(await h.chat.thread(T1).hold(HOLD)).not.toBeNull();
    expect(await h.send("@bot runs anyway").done).toEqual({ outcome: "handled" });
    expect(runs).toHaveLength(1);
  });

  it("writes nothing into thread state", async () => {
    const h = await createChatHarness();
    const thread = h.chat.thread(T1);
    await thread.setState({ topic: "billing" });
    const handle = (await thread.hold(HOLD)) as HoldHandle;
    await h.chat.extendHold(handle, 90_000);
    expect(await thread.state).toEqual({ topic: "billing" });
    await h.chat.releaseHold(handle);
    expect(await thread.state).toEqual({ topic: "billing" });
    expect(JSON.stringify(await thread.state)).not.toContain(handle.token);
  });

  it("refuses a malformed handle and a bad ttlMs", async () => {
    const h = await createChatHarness();
    await expect(h.chat.releaseHold("not json")).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(
      h.chat.releaseHold({ key: "dedupe:x", token: "t", fence: 1, expiresAt: 1, threadId: T1 }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    await expect(h.chat.thread(T1).hold({ ttlMs: 0 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    const handle = (await h.chat.thread(T1).hold(HOLD)) as HoldHandle;
    await expect(h.chat.extendHold(handle, -1)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });
});
