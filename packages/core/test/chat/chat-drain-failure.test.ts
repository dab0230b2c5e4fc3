import { StateError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

describe("a drain the State fails", () => {
  it("answers a message waiting for a local holder whose drain fails, as handed off", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
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
});
