import { parseHoldHandle } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { assistantAnswer, desk, replies } from "../src/replies.js";
import { holdRecordKey } from "../src/takeover.js";
import { AGENT, createSupportCluster, DESK, OTHER_AGENT, T1 } from "./support-harness.js";

const MINUTE = 60_000;

describe("the support bot's human takeover", () => {
  let cluster: Awaited<ReturnType<typeof createSupportCluster>>;
  afterEach(() => cluster.shutdown());

  it("goes quiet while an agent holds the conversation, and answers what waited in one run after the hand-back", async () => {
    cluster = await createSupportCluster();
    const { clock, first: bot, outcomes } = cluster;

    // The customer asks; the assistant welcomes them and answers.
    expect(await bot.send("@support where is my order?", { id: "ask" })).toEqual({
      outcome: "handled",
    });
    expect(bot.adapter.postedTo(T1)).toEqual([
      replies.welcome,
      assistantAnswer("@support where is my order?", 1),
    ]);

    // Sam, an agent, takes the conversation over from inside it.
    expect(await bot.send("/agent take", { from: AGENT, id: "take" })).toEqual({
      outcome: "handled",
    });
    expect(bot.adapter.postedTo(T1).at(-1)).toBe(replies.agentJoined("Sam"));
    const record = await bot.bot.takeover.record(T1);
    expect(parseHoldHandle(record?.hold, "test")).toMatchObject({
      key: `thread:${T1}`,
      threadId: T1,
      owner: AGENT.userId,
    });
    // The handle lives under the bot's own key, never in thread state.
    expect(await bot.bot.chat.thread(T1).state).toBeNull();

    // Three messages arrive over ten minutes; each waits in the queue and the bot says nothing.
    for (const [id, text] of [
      ["w1", "hello?"],
      ["w2", "anyone there?"],
      ["w3", "I would like a refund"],
    ] as const) {
      expect(await bot.send(text, { id })).toEqual({
        outcome: "queued",
        reason: "held by another instance",
      });
      await clock.advance(5 * MINUTE);
    }
    expect(bot.adapter.postedTo(T1)).toHaveLength(3);

    // Sam hands back from their own conversation with the bot (a message typed in the held
    // thread would wait behind the hold like the customer's).
    expect(await bot.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK })).toEqual({
      outcome: "handled",
    });
    await clock.advance(10);
    expect(bot.adapter.postedTo(T1).slice(3)).toEqual([
      replies.assistantBack,
      assistantAnswer("I would like a refund", 3),
    ]);
    expect(bot.adapter.postedTo(DESK)).toEqual([desk.handedBack(T1)]);
    expect(["w1", "w2", "w3"].map((id) => outcomes.get(id))).toEqual([
      "skipped",
      "skipped",
      "handled",
    ]);
    expect(await bot.bot.takeover.record(T1)).toBeNull();

    // The conversation is the assistant's again: the next message is answered at once.
    expect(await bot.send("thanks!")).toEqual({ outcome: "handled" });
    expect(bot.adapter.postedTo(T1).at(-1)).toBe(assistantAnswer("thanks!", 1));
  });

  it("refuses a customer's /agent take politely and stays in charge of the conversation", async () => {
    cluster = await createSupportCluster();
    const { first: bot } = cluster;
    expect(await bot.send("@support /agent take")).toEqual({ outcome: "handled" });
    expect(bot.adapter.postedTo(T1)).toEqual([replies.notAnAgent]);
    expect(await bot.bot.takeover.record(T1)).toBeNull();
    expect(await bot.send("ok, where is my order then?")).toEqual({ outcome: "handled" });
    expect(bot.adapter.postedTo(T1).slice(1)).toEqual([
      replies.welcome,
      assistantAnswer("ok, where is my order then?", 1),
    ]);
  });

  it("hands the conversation back by itself when the agent's hold lapses: the sweeper answers what waited", async () => {
    cluster = await createSupportCluster({ holdTtlMs: 30 * MINUTE });
    const { clock, first: bot, state } = cluster;
    await bot.send("@support my parcel is lost");
    await bot.send("/agent take", { from: AGENT });
    await bot.send("is someone looking?", { id: "q1" });
    await bot.send("hello??", { id: "q2" });
    const before = bot.adapter.postedTo(T1).length;

    // Sam's page died: nobody extends or releases. Up to the hold's expiry, silence.
    await clock.advance(29 * MINUTE);
    expect(bot.adapter.postedTo(T1)).toHaveLength(before);

    // The hold lapses at 30 min; the next sweep (every lockTtlMs, 30 s) drains the queue.
    await clock.advance(2 * MINUTE);
    expect(bot.adapter.postedTo(T1).slice(before)).toEqual([
      replies.holdLapsed,
      assistantAnswer("hello??", 2),
    ]);
    expect(await state.get(holdRecordKey(T1))).toBeNull();
    expect(cluster.outcomes.get("q2")).toBe("handled");

    // A late hand-back finds nothing to release and tells the agent so.
    await bot.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK });
    expect(bot.adapter.postedTo(DESK)).toEqual([desk.notHeld(T1)]);
  });

  it("keeps the assistant quiet past the first term when the agent extends the hold", async () => {
    cluster = await createSupportCluster({ holdTtlMs: 30 * MINUTE });
    const { clock, first: bot } = cluster;
    await bot.send("@support help");
    await bot.send(`/agent take ${T1}`, { from: AGENT, threadId: DESK });
    await clock.advance(20 * MINUTE);
    await bot.send(`/agent extend ${T1}`, { from: AGENT, threadId: DESK });
    expect(bot.adapter.postedTo(DESK).at(-1)).toBe(
      desk.extended(T1, new Date(clock.now() + 30 * MINUTE).toISOString()),
    );
    await clock.advance(20 * MINUTE); // 40 min: past the first term, within the second
    expect(await bot.send("still there?", { id: "late" })).toMatchObject({ outcome: "queued" });
    await clock.advance(2 * MINUTE);
    expect(bot.adapter.postedTo(T1).at(-1)).toBe(replies.agentJoined("Sam"));

    await bot.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK });
    await clock.advance(10);
    expect(bot.adapter.postedTo(T1).slice(-2)).toEqual([
      replies.assistantBack,
      assistantAnswer("still there?", 1),
    ]);
  });

  it("lets an agent work from their own conversation: take, talk, and find a conversation already held", async () => {
    cluster = await createSupportCluster();
    const { first: bot } = cluster;
    await bot.send("@support I was charged twice");

    await bot.send(`/agent take ${T1}`, { from: AGENT, threadId: DESK });
    await bot.send(`/agent say ${T1} Sorry about that, refunding now.`, {
      from: AGENT,
      threadId: DESK,
    });
    expect(bot.adapter.postedTo(T1).slice(-2)).toEqual([
      replies.agentJoined("Sam"),
      desk.agentSays("Sam", "Sorry about that, refunding now."),
    ]);
    expect(bot.adapter.postedTo(DESK)).toEqual([
      expect.stringMatching(new RegExp(`^You hold ${T1} until `)),
    ]);

    const robinsDesk = "mock:DROBIN:desk";
    await bot.send(`/agent take ${T1}`, { from: OTHER_AGENT, threadId: robinsDesk });
    expect(bot.adapter.postedTo(robinsDesk)).toEqual([desk.heldBy(T1, "Sam")]);

    await bot.send("/agent take", { from: AGENT, threadId: DESK });
    await bot.send("/agent take mock", { from: AGENT, threadId: DESK });
    await bot.send("/agent dance", { from: AGENT, threadId: DESK });
    expect(bot.adapter.postedTo(DESK).slice(1)).toEqual([
      desk.ownConversation,
      desk.noSuchConversation("mock"),
      desk.usage,
    ]);
  });

  it("answers only what the customer wrote after the agent's last message in the thread", async () => {
    cluster = await createSupportCluster();
    const { clock, first: bot } = cluster;
    await bot.send("@support can I change my address?");
    await bot.send("/agent take", { from: AGENT });
    await bot.send("the new one is 1 Main St", { id: "c1" });
    await bot.send("Done, it is changed.", { from: AGENT, id: "a1" });
    await bot.send("great, and the invoice?", { id: "c2" });
    await bot.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK });
    await clock.advance(10);
    expect(bot.adapter.postedTo(T1).slice(-2)).toEqual([
      replies.assistantBack,
      assistantAnswer("great, and the invoice?", 1),
    ]);
    expect(cluster.outcomes.get("c1")).toBe("skipped");
    expect(cluster.outcomes.get("a1")).toBe("skipped");
  });

  it("tells the agent when a hand-back comes after the hold lapsed, and the sweeper still answers", async () => {
    cluster = await createSupportCluster({ holdTtlMs: 30 * MINUTE });
    const { clock, first: bot } = cluster;
    await bot.send("@support hi");
    // Sweeps run every 30 s from start; taking at 10 s makes the hold lapse between two sweeps.
    await clock.advance(10_000);
    await bot.send("/agent take", { from: AGENT });
    await bot.send("hello?");
    const before = bot.adapter.postedTo(T1).length;
    await clock.advance(30 * MINUTE); // lapsed at 30:10; the next sweep comes at 30:30

    await bot.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK });
    expect(bot.adapter.postedTo(DESK)).toEqual([desk.alreadyEnded(T1)]);
    await clock.advance(30_000);
    expect(bot.adapter.postedTo(T1).slice(before)).toEqual([
      replies.assistantBack,
      assistantAnswer("hello?", 1),
    ]);
  });

  it("still hands back and answers when the platform refuses the 'assistant is back' notice", async () => {
    cluster = await createSupportCluster();
    const { clock, first: bot } = cluster;
    await bot.send("@support hi");
    await bot.send("/agent take", { from: AGENT });
    await bot.send("hello?", { id: "h" });
    bot.adapter.failNext("postMessage"); // the next post is the notice
    await bot.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK });
    await clock.advance(10);
    expect(bot.adapter.postedTo(T1).at(-1)).toBe(assistantAnswer("hello?", 1));
    expect(bot.adapter.postedTo(T1)).not.toContain(replies.assistantBack);
    expect(cluster.outcomes.get("h")).toBe("handled");
  });
});
