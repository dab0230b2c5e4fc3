import { Chat, type OnceResult, type OnceRun, type StateAdapter, sleep } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, type FakeClock } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { chatOnceKey, threadOnceKey } from "../../src/coordination/once.js";
import { within } from "./gate-scenarios.js";

type Work = (run: OnceRun) => Promise<string>;
/** A once-call as the scenarios make it: which caller (instance) asks, for which key. */
type OnceCall = (caller: number, key: string, work: Work) => Promise<OnceResult<string>>;

const TTL_MS = 1_000;

/** Two `Chat` instances on one memory State and one fake clock: two processes of one bot. */
async function twoInstances() {
  const clock = createFakeClock();
  const state = createMemoryState({ clock });
  const chats = [0, 1].map(
    () =>
      new Chat({
        userName: "bot",
        adapters: { mock: createMockAdapter("mock") },
        state,
        logger: "silent",
        clock,
      }),
  );
  for (const chat of chats) await chat.initialize();
  const once: OnceCall = (caller, key, work) =>
    (chats[caller % 2] as Chat).once(key, work, { ttlMs: TTL_MS });
  return { clock, state, chats, once };
}

/**
 * Naive designs of once (each a bug seen in production):
 * - `check-then-set`: reads a flag, then sets it: racing callers all see it unset.
 * - `no-rearm`: a failed attempt leaves its claim behind: a retry finds it "in progress".
 * - `complete-on-failure`: a failed attempt is recorded as done: it is never retried.
 * - `no-ttl`: the claim never expires: a holder that died blocks the work forever.
 */
type NaiveOnce = "check-then-set" | "no-rearm" | "complete-on-failure" | "no-ttl";

function naiveOnce(state: StateAdapter, design: NaiveOnce): OnceCall {
  return async (_caller, key, work) => {
    const run = { generation: 0, signal: new AbortController().signal };
    if (design === "check-then-set") {
      if ((await state.get(key)) !== null) return { ran: false, reason: "in-progress" };
      await state.set(key, "claimed");
      return { ran: true, value: await work(run) };
    }
    if (design === "no-ttl") {
      if (!(await state.setIfNotExists(key, "claimed")))
        return { ran: false, reason: "in-progress" };
      return { ran: true, value: await work(run) };
    }
    const claim = await state.claim(key, TTL_MS);
    if (!claim) return { ran: false, reason: "in-progress" };
    try {
      const value = await work({ ...run, generation: claim.generation });
      await state.completeClaim(claim);
      return { ran: true, value };
    } catch (error) {
      if (design === "complete-on-failure") await state.completeClaim(claim);
      throw error; // no-rearm: the claim stays "claimed" until its TTL
    }
  };
}

async function racingCallers(once: OnceCall, clock: FakeClock) {
  let runs = 0;
  const work: Work = async () => {
    runs += 1;
    await sleep(clock, 100);
    return "summary";
  };
  const calls = Array.from({ length: 10 }, (_, caller) => once(caller, "summarize", work));
  await clock.advance(200);
  const results = await Promise.all(calls);
  const after = await once(3, "summarize", work);
  return { runs, results, after };
}

async function failureThenRetry(once: OnceCall, clock: FakeClock) {
  let runs = 0;
  let running = 0;
  let overlapped = false;
  const attempt =
    (fails: boolean): Work =>
    async () => {
      runs += 1;
      running += 1;
      overlapped ||= running > 1;
      try {
        await sleep(clock, 100);
        if (fails) throw new Error("model unavailable");
        return "done";
      } finally {
        running -= 1;
      }
    };
  const failing = once(0, "summarize", attempt(true)).catch((error: unknown) => error);
  await clock.settle();
  const during = await once(1, "summarize", attempt(false));
  await clock.advance(100);
  const failure = await failing;
  // The retry comes at once, long before the failed claim's TTL could have expired.
  const retry = await within(clock, once(1, "summarize", attempt(false)), 150);
  return { runs, overlapped, during, failure, retry };
}

describe("once: exactly-once lazy work on fenced claims (DESIGN §7.3)", () => {
  it("runs the work once when ten callers race on two Chat instances sharing one State", async () => {
    const { clock, once } = await twoInstances();
    const { runs, results, after } = await racingCallers(once, clock);
    expect(runs).toBe(1);
    expect(results.filter((result) => result.ran)).toEqual([{ ran: true, value: "summary" }]);
    expect(results.filter((result) => !result.ran)).toHaveLength(9);
    expect(new Set(results.filter((r) => !r.ran).map((r) => !r.ran && r.reason))).toEqual(
      new Set(["in-progress"]),
    );
    expect(after).toEqual({ ran: false, reason: "completed" });

    const naive = await twoInstances();
    const raced = await racingCallers(naiveOnce(naive.state, "check-then-set"), naive.clock);
    expect(raced.runs).toBeGreaterThan(1);
  });

  it("re-arms after a failure: the retry runs at once, twice in total, never concurrently", async () => {
    const { clock, once } = await twoInstances();
    const result = await failureThenRetry(once, clock);
    expect(result.during).toEqual({ ran: false, reason: "in-progress" });
    expect(result.failure).toMatchObject({ message: "model unavailable" });
    expect(result.retry).toEqual({ settled: true, value: { ran: true, value: "done" } });
    expect(result.runs).toBe(2);
    expect(result.overlapped).toBe(false);

    for (const design of ["no-rearm", "complete-on-failure"] as const) {
      const naive = await twoInstances();
      const flawed = await failureThenRetry(naiveOnce(naive.state, design), naive.clock);
      expect(flawed.retry).toMatchObject({ settled: true, value: { ran: false } });
      expect(flawed.runs).toBe(1);
    }
  });

  it("rethrows the work's error after re-arming", async () => {
    const { chats } = await twoInstances();
    const chat = chats[0] as Chat;
    await expect(
      chat.once("k", async () => Promise.reject(new Error("boom")), { ttlMs: TTL_MS }),
    ).rejects.toThrow("boom");
    expect(await chat.once("k", async () => "second", { ttlMs: TTL_MS })).toEqual({
      ran: true,
      value: "second",
    });
  });

  it("takes over a claim whose holder died once its TTL has passed, and tells the old attempt", async () => {
    const { clock, once } = await twoInstances();
    const generations: number[] = [];
    let abortedWith: unknown;
    // The first instance's attempt never finishes: its process hung or died mid-work.
    void once(0, "summarize", async ({ generation, signal }) => {
      generations.push(generation);
      signal.addEventListener("abort", () => {
        abortedWith = signal.reason;
      });
      return new Promise<string>(() => {});
    });
    await clock.settle();
    expect(await once(1, "summarize", async () => "early")).toEqual({
      ran: false,
      reason: "in-progress",
    });
    await clock.advance(TTL_MS);
    const takeover = await once(1, "summarize", async ({ generation }) => {
      generations.push(generation);
      return "taken over";
    });
    expect(takeover).toEqual({ ran: true, value: "taken over" });
    expect(generations[1]).toBeGreaterThan(generations[0] ?? Number.POSITIVE_INFINITY);
    expect(abortedWith).toMatchObject({ code: "LOCK_LOST" });

    const naive = await twoInstances();
    const flawed = naiveOnce(naive.state, "no-ttl");
    void flawed(0, "summarize", () => new Promise<string>(() => {}));
    await naive.clock.advance(10 * TTL_MS);
    expect(await flawed(1, "summarize", async () => "taken over")).toMatchObject({ ran: false });
  });

  it("scopes thread.once to its thread and name, with keys that cannot collide", async () => {
    const { chats } = await twoInstances();
    const chat = chats[0] as Chat;
    const runs: string[] = [];
    const work = (label: string) => async () => {
      runs.push(label);
      return label;
    };
    const options = { ttlMs: TTL_MS };
    await chat.thread("mock:C1:T1").once("summary", work("T1 summary"), options);
    await chat.thread("mock:C1:T2").once("summary", work("T2 summary"), options);
    await chat.thread("mock:C1:T1").once("title", work("T1 title"), options);
    await chat.thread("mock:C1:T1").once("summary", work("T1 summary again"), options);
    await chat.once("mock:C1:T1:summary", work("chat key"), options);
    expect(runs).toEqual(["T1 summary", "T2 summary", "T1 title", "chat key"]);
    expect(threadOnceKey("mock:C1", "T1:summary")).not.toBe(threadOnceKey("mock:C1:T1", "summary"));
    expect(threadOnceKey("mock:C1:T1", "summary")).toBe("once:thread:mock%3AC1%3AT1:summary");
    expect(chatOnceKey("nightly-report")).toBe("once:chat:nightly-report");
  });

  it("refuses an empty name or key and a bad ttlMs before touching the State", async () => {
    const { chats, state } = await twoInstances();
    const chat = chats[0] as Chat;
    const work = async () => "x";
    await expect(chat.once("", work, { ttlMs: 1 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(chat.thread("mock:C1:T1").once("", work, { ttlMs: 1 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await expect(chat.once("k", work, { ttlMs: 0 })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    expect(await state.claim(chatOnceKey("k"), 1)).not.toBeNull();
  });
});
