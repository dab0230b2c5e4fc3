import { type DeliveryResult, type MessageContext, type Observer, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { botInstance } from "./chat-harness.js";
import { outcomeRecorder } from "./outcome-recorder.js";

const T1 = "mock:C1:T1";

type SharedState = ReturnType<typeof createMemoryState>;
type FakeClock = ReturnType<typeof createFakeClock>;

/** One instance of the bot on the shared State; `slow` messages sleep `slowMs` in the handler. */
async function instance(
  state: SharedState,
  clock: FakeClock,
  observer: Observer,
  slowMs = 1_000,
  durableTurns: false | undefined = undefined,
) {
  const { chat, adapter } = botInstance(state, clock, {
    observer,
    ...(durableTurns === false ? { durableTurns } : {}),
    concurrency: { strategy: "queue", maxQueueSize: 2, lockTtlMs: 300 },
  });
  const runs: string[] = [];
  chat.onNewMention(async (_thread, message, _context: MessageContext) => {
    runs.push(message.id);
    // Ignores its signal on purpose: a run that outlives a lost lease must not change the outcome.
    if (message.id.startsWith("slow")) await sleep(clock, slowMs);
  });
  await chat.initialize();
  const send = (id: string) =>
    chat.processMessage(adapter, T1, createTestMessage({ id, text: `@bot ${id}`, threadId: T1 }));
  return { chat, runs, send };
}

/** The promise's result once it has settled, or `undefined` while it is still pending. */
function watch(promise: Promise<DeliveryResult>) {
  let settled: DeliveryResult | undefined;
  void promise.then((result) => {
    settled = result;
  });
  return () => settled;
}

describe("a waiting message evicted from the queue by another instance", () => {
  for (const fastPaths of [false, true]) {
    it(`settles as preempted once its local holder is done, and frees its admission slot${fastPaths ? " (fused release)" : ""}`, async () => {
      const clock = createFakeClock();
      const state = createMemoryState({ clock, fastPaths });
      const seenByA = outcomeRecorder();
      const seenByB = outcomeRecorder();
      const a = await instance(state, clock, seenByA.observer);
      const b = await instance(state, clock, seenByB.observer);

      const slow = watch(a.send("slow"));
      await clock.advance(10);
      expect(a.runs).toEqual(["slow"]);
      // Waits in the State queue for A's own holder.
      const waits = watch(a.send("a-waits"));
      await clock.advance(10);
      expect(a.chat.admission.inUse).toBe(2);

      // Two messages through B fill the queue (maxQueueSize 2): the second evicts A's entry.
      expect(await b.send("b1")).toEqual({ outcome: "queued", reason: "held by another instance" });
      expect(await b.send("b2")).toEqual({ outcome: "queued", reason: "held by another instance" });
      expect(seenByB.counted).toEqual(["handed-off", "preempted", "handed-off"]);

      await clock.advance(1_000);
      await clock.advance(10);
      expect(slow()).toEqual({ outcome: "handled" });
      expect(a.runs).toEqual(["slow", "b2"]);
      expect(waits()).toEqual({ outcome: "preempted", reason: "queue full (drop-oldest)" });
      expect(a.chat.admission.inUse).toBe(0);
      expect(seenByA.ends).toContainEqual({
        outcome: "preempted",
        reason: "queue full (drop-oldest)",
      });
      // B counted the eviction when it happened; A does not count the same disposition again.
      expect(seenByA.counted).toEqual(["handled", "handled", "skipped"]);
      await Promise.all([a.chat.shutdown(), b.chat.shutdown()]);
    });
  }

  it("settles as handed off when it began waiting after the holder's last look under the lock and another instance drained it after the release", async () => {
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    const a = await instance(state, clock, outcomeRecorder().observer);
    const b = await instance(state, clock, outcomeRecorder().observer);
    let waits: (() => DeliveryResult | undefined) | undefined;
    const release = state.releaseLock.bind(state);
    let raced = false;
    state.releaseLock = async (lock, options) => {
      if (raced) return release(lock, options);
      raced = true;
      // A's drain has found the queue empty and A is releasing: a message arrives on A and waits
      // for A's holder, and right after the release B takes the lock and drains that message.
      waits = watch(a.send("a-waits"));
      await clock.settle();
      expect(waits()).toBeUndefined();
      const released = await release(lock, options);
      expect(await b.send("b1")).toEqual({ outcome: "handled" });
      return released;
    };

    const slow = watch(a.send("slow"));
    await clock.advance(1_010);
    // The release hook's own steps run on real turns, which the advance does not wait for.
    await clock.settle();
    await clock.settle();
    expect(slow()).toEqual({ outcome: "handled" });
    expect(b.runs).toEqual(["b1", "a-waits"]);
    // A cannot tell a drain elsewhere from an eviction here, so it never claims an eviction.
    expect(waits?.()).toEqual({ outcome: "queued", reason: "held by another instance" });
    expect(a.chat.admission.inUse).toBe(0);
    await Promise.all([a.chat.shutdown(), b.chat.shutdown()]);
  });

  it("settles as handed off once its holder is done, when the holder lost its lease and another instance drained the entry", async () => {
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    // Without durable turns: with them, B would first run A's interrupted "slow" turn again
    // (chat-durable-turns.test.ts); here only the waiting entry's settlement is at stake.
    const a = await instance(state, clock, outcomeRecorder().observer, 1_000, false);
    const b = await instance(state, clock, outcomeRecorder().observer, 1_000, false);
    // A's lease cannot be renewed: it lapses 300 ms after the acquire, while A's run goes on.
    state.extendLock = async () => false;

    const slow = watch(a.send("slow"));
    await clock.advance(10);
    const waits = watch(a.send("a-waits"));
    // Once the lease has lapsed, B's sweeper takes the free lock and drains A's waiting entry.
    await clock.advance(400);
    expect(b.runs).toEqual(["a-waits"]);
    expect(waits()).toBeUndefined();

    await clock.advance(1_000);
    expect(slow()).toEqual({ outcome: "handled" });
    expect(waits()).toEqual({ outcome: "queued", reason: "held by another instance" });
    expect(a.chat.admission.inUse).toBe(0);
    await Promise.all([a.chat.shutdown(), b.chat.shutdown()]);
  });
});
