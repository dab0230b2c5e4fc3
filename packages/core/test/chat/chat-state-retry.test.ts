import { ConfigError, type Observer, StateError, sleep } from "@baton/core";
import { createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { type ChatHarnessOptions, createChatHarness } from "./chat-harness.js";

const THREAD = "mock:C1:T1";

type Harness = Awaited<ReturnType<typeof createChatHarness>>;
type Failing = "isSubscribed" | "enqueue";

/** Each delivery's settlements, as an operator's dispatch-event stream would see them. */
function settlementRecorder() {
  const ends = new Map<
    string,
    Array<{ outcome: string | undefined; reason: string | undefined }>
  >();
  const observer: Observer = {
    onDispatchEvent: (event) => {
      if (event.kind !== "settled") return;
      const own = ends.get(event.deliveryKey) ?? [];
      own.push({ outcome: event.outcome, reason: event.reason });
      ends.set(event.deliveryKey, own);
    },
  };
  return { ends, observer };
}

/**
 * Makes one real memory-state method reject as an unreachable State would while `down()` says
 * so, and counts its calls; everything else is the real backend.
 */
function failWhile(h: Harness, method: Failing, down: (call: number) => boolean) {
  const state = h.state as unknown as Record<Failing, (...args: unknown[]) => Promise<unknown>>;
  const real = state[method].bind(h.state);
  const seen = { calls: 0 };
  state[method] = async (...args: unknown[]) => {
    seen.calls += 1;
    if (down(seen.calls)) throw new StateError("unavailable", `${method}: connection refused`);
    return real(...args);
  };
  return seen;
}

async function deferredHarness(options: ChatHarnessOptions = {}) {
  const spans = settlementRecorder();
  const h = await createChatHarness({ observer: spans.observer, ...options });
  const mentions: string[] = [];
  h.chat.onNewMention((_thread, message) => {
    mentions.push(message.id);
  });
  const detached: Promise<unknown>[] = [];
  /** Delivers as a webhook would under deferred dispatch: answered at once, run detached. */
  async function receive(id: string, text = "@bot help") {
    const message = createTestMessage({ id, threadId: THREAD, text });
    return h.chat.receiveMessage(h.adapter, THREAD, message, {
      waitUntil: (work) => detached.push(work),
    });
  }
  const endsOf = (id: string) => spans.ends.get(`mock:${id}`) ?? [];
  return { ...h, mentions, receive, endsOf, detached };
}

/** Advances the fake clock in small steps so retries and their awaits interleave as in life. */
async function advanceInSteps(h: Harness, totalMs: number, stepMs = 50): Promise<void> {
  for (let passed = 0; passed < totalMs; passed += stepMs) await h.clock.advance(stepMs);
}

describe("State failure after a deferred ack (ADR 0015)", () => {
  it("retries a message whose routing fails on the State for a while, and handles it once it recovers", async () => {
    const h = await deferredHarness();
    const routing = failWhile(h, "isSubscribed", (call) => call <= 3);

    expect(await h.receive("m1")).toEqual({ outcome: "accepted" });
    await advanceInSteps(h, 5_000);

    expect(h.mentions).toEqual(["m1"]);
    expect(routing.calls).toBe(4);
    expect(h.endsOf("m1")).toEqual([{ outcome: "handled", reason: undefined }]);
    // Handled: the mark stays, so a late redelivery by the platform is a duplicate.
    expect(await h.state.get("dedupe:mock:m1")).toBe(1);
  });

  it("retries a strategy whose enqueue fails before anything was queued, and runs the message once", async () => {
    const h = await deferredHarness({ concurrency: { strategy: "debounce", debounceMs: 100 } });
    const queueing = failWhile(h, "enqueue", (call) => call <= 2);

    await h.receive("m1");
    await advanceInSteps(h, 5_000);

    expect(queueing.calls).toBe(3);
    expect(h.mentions).toEqual(["m1"]);
    expect(await h.state.queueDepth(`thread:${THREAD}`)).toBe(0);
  });

  it("ends the message error with its record once the State fails past the retry budget", async () => {
    const h = await deferredHarness({
      stateRetry: { initialDelayMs: 100, maxDelayMs: 400, budgetMs: 1_000 },
    });
    const routing = failWhile(h, "isSubscribed", () => true);

    await h.receive("m1");
    await advanceInSteps(h, 3_000);

    expect(h.mentions).toEqual([]);
    expect(h.endsOf("m1")).toEqual([
      { outcome: "error", reason: "state failed before the handler" },
    ]);
    // Waits of 50–100, 100–200, 200–400, 200–400 ms fit the budget; a wait past it is not taken.
    expect(routing.calls).toBeGreaterThanOrEqual(4);
    expect(routing.calls).toBeLessThanOrEqual(8);
    const callsAtTheEnd = routing.calls;
    await advanceInSteps(h, 3_000);
    expect(routing.calls).toBe(callsAtTheEnd);
    // No handler ran: the mark is gone, so a redelivery by the platform would be processed.
    expect(await h.state.get("dedupe:mock:m1")).toBeNull();
  });

  it("ends waiting retries at shutdown without waiting out the budget", async () => {
    const h = await deferredHarness({
      stateRetry: { initialDelayMs: 1_000, maxDelayMs: 60_000, budgetMs: 600_000 },
    });
    failWhile(h, "isSubscribed", () => true);

    await h.receive("m1");
    await h.clock.advance(0);
    // Still retrying; the clock does not move any further: only shutdown can end the backoff.
    expect(h.endsOf("m1")).toEqual([]);
    await h.chat.shutdown();
    await Promise.all(h.detached);

    expect(h.mentions).toEqual([]);
    expect(h.endsOf("m1")).toEqual([
      { outcome: "error", reason: "state failed before the handler" },
    ]);
  });

  it("does not retry with stateRetry: false: the message ends error at once", async () => {
    const h = await deferredHarness({ stateRetry: false });
    const routing = failWhile(h, "isSubscribed", (call) => call === 1);

    await h.receive("m1");
    await advanceInSteps(h, 5_000);

    expect(routing.calls).toBe(1);
    expect(h.mentions).toEqual([]);
    expect(h.endsOf("m1")).toEqual([
      { outcome: "error", reason: "state failed before the handler" },
    ]);
  });

  it("does not retry a synchronous processMessage: its caller gets error and may redeliver", async () => {
    const h = await deferredHarness();
    const routing = failWhile(h, "isSubscribed", (call) => call === 1);

    const result = await h.send("@bot help", { id: "m1" }).done;

    expect(result).toEqual({ outcome: "error", reason: "state failed before the handler" });
    expect(routing.calls).toBe(1);
    expect(await h.state.get("dedupe:mock:m1")).toBeNull();
  });

  it("retries a drained batch in place while the holder keeps the lock", async () => {
    const h = await deferredHarness({ concurrency: "queue" });
    const started: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      started.push(message.id);
      if (message.id === "m1") await sleep(h.clock, 500);
    });
    // The first routing (m1) works; the drain's routing of m2 fails twice, then recovers.
    const routing = failWhile(h, "isSubscribed", (call) => call === 2 || call === 3);

    await h.receive("m1");
    await h.clock.advance(0);
    await h.receive("m2");
    await advanceInSteps(h, 5_000);

    expect(started).toEqual(["m1", "m2"]);
    expect(routing.calls).toBe(4);
    expect(h.endsOf("m2")).toEqual([{ outcome: "handled", reason: undefined }]);
    expect(await h.state.inspectLock(`thread:${THREAD}`)).toBeNull();
  });
});

describe("the stateRetry option", () => {
  it.each([
    [{ initialDelayMs: 0 }, "stateRetry.initialDelayMs: must be a positive, finite number"],
    [{ budgetMs: "1s" }, "stateRetry.budgetMs: must be a positive, finite number"],
    [{ initialDelayMs: 500, maxDelayMs: 100 }, "must not exceed maxDelayMs"],
    [{ initialDelayMs: 500, budgetMs: 100, maxDelayMs: 500 }, "must not exceed budgetMs"],
    [{ budgetMS: 1_000 }, 'unknown option "budgetMS" (did you mean "budgetMs"?)'],
    [true, "stateRetry: must be false or an object"],
  ])("refuses %j naming the problem", async (stateRetry, problem) => {
    const error = await createChatHarness({ stateRetry: stateRetry as never }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.join("\n")).toContain(problem);
  });
});
