import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createAgentBot, notices } from "../src/bot.js";
import { createLocalModel, LOCAL_MODEL_TOOL } from "../src/local-model.js";
import { STOP_POLL_MS } from "../src/stop-switch.js";
import { CHUNK_DELAY_MS, createAgentHarness, T1 } from "./agent-harness.js";

/** The edits made to the control card (the first message the bot posted in a run). */
function controlEdits(h: Awaited<ReturnType<typeof createAgentHarness>>) {
  return h.adapter.callsOf("editMessage").map((call) => call.args[2]);
}

describe("the agent bot (mock platform, local model, fake clock)", () => {
  it("streams an answer built from a tool call over the thread, and marks the control card answered", async () => {
    const h = await createAgentHarness();
    const done = h.send("@agent what is Baton?", "m1");
    await h.clock.advance(6 * CHUNK_DELAY_MS + 10);
    // Mid-stream: the first words are on the platform, the rest still to come.
    expect(h.streamed()).toMatch(/^I read the last \d+ messages/);
    expect(h.streamed()).not.toMatch(/deterministic/);
    await h.clock.advance(200 * CHUNK_DELAY_MS);
    expect(await done).toEqual({ outcome: "handled" });
    expect(h.adapter.callsOf("fetchMessages").map((call) => call.threadId)).toEqual([T1]);
    const posted = h.adapter.postedTo(T1);
    expect(posted.at(-1)).toMatch(
      /^I read the last \d+ messages of this conversation\. You asked: "@agent what is Baton\?"\./,
    );
    expect(posted.at(-1)).toMatch(/tests are deterministic/);
    expect(controlEdits(h)).toEqual([notices.answered]);
    expect(LOCAL_MODEL_TOOL).toBe("fetchMessages");
  });

  it("stops mid-stream when the stop button is clicked: the answer ends where it was", async () => {
    const h = await createAgentHarness();
    const done = h.send("@agent tell me everything", "m1");
    await h.clock.advance(5 * CHUNK_DELAY_MS + 10);
    const before = h.streamed();
    expect(before.split(" ").length).toBeGreaterThanOrEqual(4);
    await h.clickStop();
    await h.clock.advance(100 * CHUNK_DELAY_MS);
    await done;
    const after = h.streamed();
    expect(after.length).toBeLessThan(before.length + 20);
    expect(after).not.toMatch(/deterministic/);
    expect(controlEdits(h)).toEqual([notices.stopped]);
    // The next question is answered in full again: a stop applies to one answer.
    const next = h.send("and now?", "m2");
    await h.clock.advance(200 * CHUNK_DELAY_MS);
    expect(await next).toEqual({ outcome: "handled" });
    expect(h.adapter.postedTo(T1).at(-1)).toMatch(/You asked: "and now\?".*deterministic/);
  });

  it("keeps the thread's lock through an answer longer than the lock TTL, and answers a message sent meanwhile afterwards (queue)", async () => {
    const h = await createAgentHarness();
    const first = h.send("@agent explain at length", "m1");
    await h.clock.advance(2 * CHUNK_DELAY_MS);
    const lock = await h.state.inspectLock(`thread:${T1}`);
    expect(lock).not.toBeNull();
    const second = h.send("also, one more thing", "m2");
    // 45 s of streaming: past the 30 s lock TTL, renewed by the lease keeper all along.
    await h.clock.advance(45_000);
    expect(await h.state.inspectLock(`thread:${T1}`)).toMatchObject({ fence: lock?.fence });
    expect(h.adapter.callsOf("stream")).toHaveLength(1);
    await h.clock.advance(400 * CHUNK_DELAY_MS);
    expect(await first).toEqual({ outcome: "handled" });
    expect(await second).toMatchObject({ outcome: "handled" });
    const answers = h.adapter.callsOf("stream").map((call) => (call.args[1] as string[]).join(""));
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/You asked: "@agent explain at length"/);
    expect(answers[1]).toMatch(/You asked: "also, one more thing"/);
  });

  it("under debounce, answers a burst of messages once, after the quiet period", async () => {
    const h = await createAgentHarness({ strategy: "debounce" });
    const a = h.send("@agent hi", "m1");
    await h.clock.advance(500);
    const b = h.send("I have a question about invoices", "m2");
    await h.clock.advance(300 * CHUNK_DELAY_MS);
    const outcomes = [(await a).outcome, (await b).outcome].sort();
    expect(outcomes).toEqual(["handled", "skipped"]);
    const answers = h.adapter.callsOf("stream").map((call) => (call.args[1] as string[]).join(""));
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatch(/You asked: "I have a question about invoices"/);
  });

  it("streams by post and edit on a platform without native streaming", async () => {
    const h = await createAgentHarness({ streaming: "edit" });
    const done = h.send("@agent hello", "m1");
    await h.clock.advance(300 * CHUNK_DELAY_MS);
    expect(await done).toEqual({ outcome: "handled" });
    expect(h.adapter.callsOf("stream")).toHaveLength(0);
    const edits = h.adapter.callsOf("editMessage").map((call) => call.args[2]);
    expect(edits.some((body) => /tests are deterministic/.test(JSON.stringify(body)))).toBe(true);
    expect(edits.at(-1)).toBe(notices.answered);
  });
});

describe("the agent bot on two instances sharing one State", () => {
  it("stops an answer streaming on one instance from the other, within one poll", async () => {
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    const make = async () => {
      const adapter = createMockAdapter("mock", { userName: "agent" });
      const bot = createAgentBot({
        state,
        adapters: { mock: adapter },
        model: createLocalModel({ clock, chunkDelayMs: CHUNK_DELAY_MS }),
        clock,
        logger: "silent",
      });
      await bot.chat.initialize();
      return { adapter, bot };
    };
    const [a, b] = [await make(), await make()];
    const message = createTestMessage({ id: "m1", text: "@agent go on", threadId: T1 });
    const done = a.bot.chat.processMessage(a.adapter, T1, message);
    await clock.advance(6 * CHUNK_DELAY_MS);
    expect(await b.bot.stop(T1)).toBe(true);
    await clock.advance(STOP_POLL_MS + 10);
    const read = () => (a.adapter.callsOf("stream")[0]?.args[1] as string[]).join("");
    const atStop = read();
    expect(atStop).toMatch(/^I read the last/);
    await clock.advance(100 * CHUNK_DELAY_MS);
    expect(await done).toEqual({ outcome: "handled" });
    expect(read()).toBe(atStop);
    expect(read()).not.toMatch(/deterministic/);
    expect(a.adapter.callsOf("editMessage").map((call) => call.args[2])).toEqual([notices.stopped]);
    // Nothing streams any more anywhere.
    expect(await b.bot.stop(T1)).toBe(false);
  });
});
