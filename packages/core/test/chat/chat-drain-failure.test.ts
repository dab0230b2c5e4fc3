import { StateError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

describe("a drain the State fails", () => {
  it("answers a message waiting for a local holder whose drain fails, as handed off", async () => {
    // Entry by entry, as a drain takes them without durable turns (with them, `takeQueuedTurn`).
    const h = await createChatHarness({ concurrency: "queue", durableTurns: false });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    h.chat.onNewMention(async (_thread, message) => {
      if (message.id !== "m1") return;
      started();
      await gate;
    });
    const first = h.send("@bot one", { id: "m1" }).done;
    await running;
    // A contender on this instance: it queues and waits for the local holder's drain.
    const second = h.send("@bot two", { id: "m2" }).done;
    while ((await h.state.queueDepth("thread:mock:C1:T1")) === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The State goes away before the holder drains (e.g. a Redis failover).
    const dequeue = h.state.dequeue.bind(h.state);
    h.state.dequeue = async () => {
      throw new StateError("unavailable", "server unreachable", { step: "dequeue" });
    };
    finish();
    expect(await first).toEqual({ outcome: "handled" });
    // Answered, not left pending: its entry stays queued for a sweeper (here or elsewhere).
    expect(await second).toMatchObject({ outcome: "queued" });
    h.state.dequeue = dequeue;
    expect(await h.state.queueDepth("thread:mock:C1:T1")).toBe(1);
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
  });

  it("ends the finished turn when taking the next round fails before the State moved anything", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    const seen: string[] = [];
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    h.chat.onNewMention(async (_thread, message) => {
      seen.push(message.id);
      if (message.id === "m1") await gate;
    });
    const first = h.send("@bot one", { id: "m1" }).done;
    await h.clock.advance(10);
    const second = h.send("@bot two", { id: "m2" }).done;
    await h.clock.advance(10);
    const take = h.state.takeQueuedTurn;
    h.state.takeQueuedTurn = async () => {
      throw new StateError("unavailable", "server unreachable", { step: "take queued turn" });
    };
    finish();
    expect(await first).toEqual({ outcome: "handled" });
    expect(await second).toMatchObject({ outcome: "queued" });
    h.state.takeQueuedTurn = take;
    // Nothing was moved, so the finished turn's record is gone and only the queue waits.
    expect(await h.state.inspectTurn?.("thread:mock:C1:T1")).toBeNull();
    expect(await h.state.queueDepth("thread:mock:C1:T1")).toBe(1);
    await h.clock.advance(30_000);
    expect(seen).toEqual(["m1", "m2"]);
    await h.chat.shutdown();
  });
});
