import {
  Chat,
  type ChatConfig,
  type HoldHandle,
  type HoldLapsedEvent,
  type MessageContext,
} from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "../chat/chat-harness.js";

const T1 = "mock:C1:T1";
const AGENT = "agent-7";
const MINUTE = 60_000;

/** Records each handler run: its message, the ones it skipped, and whether it held the lock. */
function recordRuns(chat: Chat) {
  const runs: Array<{ id: string; skipped: string[]; locked: boolean }> = [];
  const record = (_thread: unknown, message: { id: string }, context: MessageContext) => {
    runs.push({
      id: message.id,
      skipped: context.skipped.map((skipped) => skipped.id),
      locked: context.lock !== undefined,
    });
  };
  chat.onNewMention(record);
  chat.onSubscribedMessage(record);
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
    const lapses: HoldLapsedEvent[] = [];
    chat.onHoldLapsed((event) => {
      lapses.push(event);
    });
    return { chat, adapter, lapses };
  };
  return { clock, state, first: await make(), second: await make() };
}

const PASSING = { ttlMs: MINUTE, owner: AGENT, ownerPasses: true };

describe("the holder's own messages pass its hold (ownerPasses)", () => {
  for (const strategy of ["queue", "debounce", "burst", "drop"] as const) {
    it(`${strategy}: the owner's message runs at once, without the lock; a customer's waits`, async () => {
      const h = await createChatHarness({ concurrency: { strategy, debounceMs: 500 } });
      const runs = recordRuns(h.chat);
      const handle = (await h.chat.thread(T1).hold(PASSING)) as HoldHandle;
      const customer = h.send("@bot where is my order", { id: "customer" }).done;
      const agent = h.send("@bot /agent release", { id: "agent", author: { userId: AGENT } });
      expect(await agent.done).toEqual({ outcome: "handled" });
      expect(runs).toEqual([{ id: "agent", skipped: [], locked: false }]);
      // The hold is untouched by its owner's run.
      expect(await h.state.inspectLock(handle.key)).toMatchObject({ fence: handle.fence });
      if (strategy === "drop") {
        expect(await customer).toMatchObject({ outcome: "dropped-lock-conflict" });
        return;
      }
      expect(await customer).toMatchObject({ outcome: "queued" });
      await h.clock.advance(5_000);
      expect(runs).toHaveLength(1);
      expect(await h.chat.releaseHold(handle)).toBe(true);
      await h.clock.advance(1_000);
      expect(runs.map((run) => run.id)).toEqual(["agent", "customer"]);
    });
  }

  it("lets nobody through a hold taken without ownerPasses, nor a released hold's owner", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const runs = recordRuns(h.chat);
    const anonymous = (await h.chat.thread(T1).hold({ ttlMs: MINUTE, owner: AGENT })) as HoldHandle;
    expect(await h.send("@bot hi", { id: "a1", author: { userId: AGENT } }).done).toMatchObject({
      outcome: "queued",
    });
    expect(await h.chat.releaseHold(anonymous)).toBe(true);
    await h.clock.advance(10);
    expect(runs).toMatchObject([{ id: "a1", locked: true }]);

    // Released by key (no record update): the pointer outlives the hold, but the lock's fence
    // no longer matches, so a later holder's lock is not passed.
    const owned = (await h.chat.thread(T1).hold(PASSING)) as HoldHandle;
    await h.state.forceReleaseLock(owned.key);
    const other = (await h.chat.thread(T1).hold({ ttlMs: MINUTE })) as HoldHandle;
    expect(await h.send("@bot again", { id: "a2", author: { userId: AGENT } }).done).toMatchObject({
      outcome: "queued",
    });
    expect(runs).toHaveLength(1);
    expect(await h.chat.releaseHold(other)).toBe(true);
  });

  it("refuses ownerPasses without an owner, or not a boolean", async () => {
    const h = await createChatHarness();
    await expect(h.chat.thread(T1).hold({ ttlMs: MINUTE, ownerPasses: true })).rejects.toThrow(
      /ownerPasses needs an owner/,
    );
    await expect(
      h.chat.thread(T1).hold({ ttlMs: MINUTE, owner: AGENT, ownerPasses: "yes" as never }),
    ).rejects.toThrow(/ownerPasses must be a boolean/);
  });

  it("never blocks thread.post: the holder posts into the thread it holds", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const handle = (await h.chat.thread(T1).hold({ ttlMs: MINUTE, owner: AGENT })) as HoldHandle;
    await h.chat.thread(T1).post("an agent writes");
    expect(h.adapter.postedTo(T1)).toEqual(["an agent writes"]);
    expect(await h.chat.releaseHold(handle)).toBe(true);
  });
});

describe("onHoldLapsed", () => {
  it("fires exactly once across two instances, by the first sweep after the lapse, before the drain", async () => {
    const { clock, first, second } = await twoInstances({ concurrency: "queue" });
    const order: string[] = [];
    for (const instance of [first, second]) {
      instance.chat.onHoldLapsed(() => {
        order.push("lapsed");
      });
      instance.chat.onNewMention((_thread, message) => {
        order.push(message.id);
      });
    }
    const handle = (await first.chat
      .thread(T1)
      .hold({ ttlMs: 5 * MINUTE, owner: AGENT })) as HoldHandle;
    const waiting = createTestMessage({ id: "w1", text: "@bot anyone?", threadId: T1 });
    expect(await second.chat.processMessage(second.adapter, T1, waiting)).toMatchObject({
      outcome: "queued",
    });
    await clock.advance(5 * MINUTE - 1);
    expect(first.lapses.length + second.lapses.length).toBe(0);
    await clock.advance(31_000); // the expiry, then one sweep interval (lockTtlMs, 30 s)
    const lapses = [...first.lapses, ...second.lapses];
    expect(lapses).toEqual([
      {
        threadId: T1,
        key: handle.key,
        fence: handle.fence,
        owner: AGENT,
        expiredAt: handle.expiresAt,
      },
    ]);
    expect(order).toEqual(["lapsed", "w1"]);
    await clock.advance(10 * MINUTE); // many more sweeps on both instances
    expect(first.lapses.length + second.lapses.length).toBe(1);
  });

  it("does not fire for a released hold, nor at the first expiry of an extended one", async () => {
    const { clock, first, second } = await twoInstances();
    const released = (await first.chat.thread(T1).hold({ ttlMs: MINUTE })) as HoldHandle;
    expect(await second.chat.releaseHold(JSON.stringify(released))).toBe(true);
    const extended = (await first.chat.thread("mock:C1:T2").hold({ ttlMs: MINUTE })) as HoldHandle;
    await clock.advance(30_000);
    expect(await second.chat.extendHold(extended, 5 * MINUTE)).toBe(true);
    await clock.advance(3 * MINUTE);
    expect(first.lapses.length + second.lapses.length).toBe(0);
    await clock.advance(3 * MINUTE);
    expect([...first.lapses, ...second.lapses].map((event) => event.fence)).toEqual([
      extended.fence,
    ]);
  });

  it("is fired once by a release that comes after the lapse but before any sweep noticed it", async () => {
    const { clock, first, second } = await twoInstances({
      concurrency: { strategy: "drop", sweepIntervalMs: MINUTE },
    });
    // Sweeps at 1, 2, 3 min; the hold lapses at 1.5 min; the late release comes at 1.75 min.
    await clock.advance(30_000);
    const handle = (await first.chat.thread(T1).hold({ ttlMs: MINUTE })) as HoldHandle;
    await clock.advance(MINUTE + 15_000);
    expect(await second.chat.releaseHold(handle)).toBe(false);
    expect(second.lapses.map((event) => event.fence)).toEqual([handle.fence]);
    await clock.advance(5 * MINUTE);
    expect(first.lapses.length + second.lapses.length).toBe(1);
  });

  it("is left by an instance without handlers (a dashboard) to one that has them", async () => {
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    const chats = [0, 1].map(
      () =>
        new Chat({
          userName: "bot",
          adapters: { mock: createMockAdapter("mock") },
          state,
          clock,
          logger: "silent",
        }),
    );
    const [dashboard, bot] = chats as [Chat, Chat];
    await dashboard.initialize();
    const handle = (await dashboard.thread(T1).hold({ ttlMs: MINUTE })) as HoldHandle;
    await clock.advance(2 * MINUTE);
    expect(await dashboard.releaseHold(handle)).toBe(false); // too late, and it cannot act
    const lapses: HoldLapsedEvent[] = [];
    bot.onHoldLapsed((event) => {
      lapses.push(event);
    });
    await bot.initialize();
    await clock.advance(31_000);
    expect(lapses.map((event) => event.fence)).toEqual([handle.fence]);
  });

  it("reads no record of a hold once its end is settled, nor of a hold not yet due", async () => {
    const { clock, state, first } = await twoInstances();
    const recordReads: string[] = [];
    const get = state.get.bind(state);
    state.get = ((key: string) => {
      if (key.startsWith("hold:")) recordReads.push(key);
      return get(key);
    }) as typeof state.get;
    const lapsing = (await first.chat.thread(T1).hold({ ttlMs: MINUTE })) as HoldHandle;
    await first.chat.thread("mock:C1:T2").hold({ ttlMs: 60 * MINUTE });
    await clock.advance(MINUTE + 31_000);
    expect(first.lapses.map((event) => event.fence)).toEqual([lapsing.fence]);
    const afterLapse = recordReads.length;
    expect(afterLapse).toBeGreaterThan(0);
    await clock.advance(10 * MINUTE); // twenty more sweeps on each instance
    expect(recordReads.length - afterLapse).toBeLessThanOrEqual(1); // the other instance's one
  });

  it("refuses a handler that is not a function", async () => {
    const h = await createChatHarness();
    expect(() => h.chat.onHoldLapsed("nope" as never)).toThrow(/onHoldLapsed needs a handler/);
  });
});

describe("messages queued behind a hold live as long as the hold", () => {
  it("answers a message that waited 9 minutes behind a 10-minute hold (queueEntryTtlMs 90 s)", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const runs = recordRuns(h.chat);
    const handle = (await h.chat.thread(T1).hold({ ttlMs: 10 * MINUTE })) as HoldHandle;
    await h.clock.advance(MINUTE);
    const early = h.send("@bot early", { id: "early" }).done;
    expect(await early).toMatchObject({ outcome: "queued" });
    await h.clock.advance(8 * MINUTE);
    expect(await h.chat.releaseHold(handle)).toBe(true);
    await h.clock.advance(10);
    expect(runs.map((run) => run.id)).toEqual(["early"]);
  });

  it("counts an extend made after the message was queued, and a lapse drained by the sweeper", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const runs = recordRuns(h.chat);
    const handle = (await h.chat.thread(T1).hold({ ttlMs: 5 * MINUTE })) as HoldHandle;
    await h.send("@bot one", { id: "one" }).done;
    await h.clock.advance(4 * MINUTE);
    expect(await h.chat.extendHold(handle, 10 * MINUTE)).toBe(true); // now until 14 min
    await h.clock.advance(10 * MINUTE + 31_000); // the lapse, then the next sweep drains
    expect(runs.map((run) => run.id)).toEqual(["one"]);
  });

  it("keeps a message queued before a running handler took its lock over as a hold", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const runs = recordRuns(h.chat);
    let take: () => void = () => undefined;
    let handle: HoldHandle | null = null;
    h.chat.onNewMention(async (thread, message) => {
      if (message.id !== "take") return;
      await new Promise<void>((resolve) => (take = resolve));
      handle = await thread.hold({ ttlMs: 10 * MINUTE });
    });
    h.send("@bot agent please", { id: "take" });
    await h.clock.advance(10);
    const waiting = h.send("@bot hello?", { id: "waiting" }).done;
    await h.clock.advance(10);
    take();
    await h.clock.advance(9 * MINUTE);
    expect(handle).not.toBeNull();
    expect(await h.chat.releaseHold(handle as unknown as HoldHandle)).toBe(true);
    await h.clock.advance(10);
    expect(await waiting).toMatchObject({ outcome: "queued" });
    expect(runs.map((run) => run.id)).toEqual(["take", "waiting"]);
  });

  it("still expires an ordinary message after queueEntryTtlMs", async () => {
    const h = await createChatHarness({
      concurrency: { strategy: "queue", lockTtlMs: 10 * MINUTE },
    });
    const runs = recordRuns(h.chat);
    let release: () => void = () => undefined;
    h.chat.onNewMention(async (_thread, message) => {
      if (message.id === "slow") await new Promise<void>((resolve) => (release = resolve));
    });
    h.send("@bot slow", { id: "slow" });
    await h.clock.advance(10);
    const late = h.send("@bot late", { id: "late" }).done;
    await h.clock.advance(2 * MINUTE);
    release();
    await h.clock.advance(10);
    expect(await late).toMatchObject({ outcome: "expired" });
    expect(runs.map((run) => run.id)).toEqual(["slow"]);
  });
});
