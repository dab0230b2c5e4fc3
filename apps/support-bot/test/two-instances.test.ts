import { afterEach, describe, expect, it } from "vitest";
import { assistantAnswer, desk, replies } from "../src/replies.js";
import { holdRecordKey } from "../src/takeover.js";
import { AGENT, createSupportCluster, DESK, T1 } from "./support-harness.js";

describe("the support bot on two instances sharing one State", () => {
  let cluster: Awaited<ReturnType<typeof createSupportCluster>>;
  afterEach(() => cluster.shutdown());

  it("is taken over on one instance and handed back on the other, from the serialized handle", async () => {
    cluster = await createSupportCluster({ instances: 2 });
    const { clock, state, outcomes } = cluster;
    const [a, b] = cluster.instances as [typeof cluster.first, typeof cluster.first];

    // Instance A answers the customer, then takes Sam's /agent take.
    await a.send("@support where is my order?");
    await a.send("/agent take", { from: AGENT });
    expect(a.adapter.postedTo(T1)).toEqual([
      replies.welcome,
      assistantAnswer("@support where is my order?", 1),
      replies.agentJoined("Sam"),
    ]);

    // The platform's load balancer sends the next messages to B: they wait behind A's hold.
    for (const [id, text] of [
      ["w1", "hello?"],
      ["w2", "anyone there?"],
      ["w3", "I would like a refund"],
    ] as const) {
      expect(await b.send(text, { id })).toEqual({
        outcome: "queued",
        reason: "held by another instance",
      });
    }
    await clock.advance(60_000);
    expect(b.adapter.posted).toEqual([]);

    // B never saw the take: all it has is the JSON record A left in the shared State.
    const record = (await state.get(holdRecordKey(T1))) as { hold: string };
    expect(typeof record.hold).toBe("string");
    expect(await b.send(`/agent release ${T1}`, { from: AGENT, threadId: DESK })).toEqual({
      outcome: "handled",
    });
    await clock.advance(10);

    // B released the hold and drained the queue itself: one run, the latest with two skipped.
    expect(b.adapter.postedTo(T1)).toEqual([
      replies.assistantBack,
      assistantAnswer("I would like a refund", 3),
    ]);
    expect(b.adapter.postedTo(DESK)).toEqual([desk.handedBack(T1)]);
    expect(a.adapter.postedTo(T1)).toHaveLength(3);
    expect(["w1", "w2", "w3"].map((id) => outcomes.get(id))).toEqual([
      "skipped",
      "skipped",
      "handled",
    ]);
    expect(await state.inspectLock(`thread:${T1}`)).toBeNull();
  });

  it("sends the welcome once when two instances greet the same new conversation at the same moment", async () => {
    cluster = await createSupportCluster({ instances: 2 });
    const [a, b] = cluster.instances as [typeof cluster.first, typeof cluster.first];
    const T2 = "mock:C1:T2";

    // Two tabs opening the chat on two instances, and a first message on each, all at once.
    const greeted = await Promise.all([
      a.bot.greet(T2),
      b.bot.greet(T2),
      a.send("@support hi", { threadId: T2 }),
      b.send("@support hello", { threadId: T2 }),
    ]);
    await cluster.clock.advance(10);

    const everything = [...a.adapter.postedTo(T2), ...b.adapter.postedTo(T2)];
    expect(everything.filter((text) => text === replies.welcome)).toHaveLength(1);
    expect(greeted.slice(0, 2).filter((ran) => ran === true).length).toBeLessThanOrEqual(1);
    // Both messages reached a final disposition: one run answered them, or one run each.
    expect(greeted.slice(2)).toEqual(expect.arrayContaining([{ outcome: "handled" }]));
    expect([...cluster.outcomes.values()].every((o) => ["handled", "skipped"].includes(o))).toBe(
      true,
    );
    expect(everything.some((text) => text.startsWith("Assistant:"))).toBe(true);
  });

  it("tells the customer once when two instances hand the same conversation back at the same moment", async () => {
    cluster = await createSupportCluster({ instances: 2 });
    const [a, b] = cluster.instances as [typeof cluster.first, typeof cluster.first];
    await a.send("@support hi");
    await a.send("/agent take", { from: AGENT });
    await a.send("anyone?");

    // A dashboard button clicked twice, the clicks landing on two instances.
    const results = await Promise.all([a.bot.takeover.handBack(T1), b.bot.takeover.handBack(T1)]);
    await cluster.clock.advance(10);

    expect([...results].sort()).toEqual(["already-ended", "handed-back"]);
    const everything = [...a.adapter.postedTo(T1), ...b.adapter.postedTo(T1)];
    expect(everything.filter((text) => text === replies.assistantBack)).toHaveLength(1);
    expect(everything.filter((text) => text === assistantAnswer("anyone?", 1))).toHaveLength(1);
  });
});
