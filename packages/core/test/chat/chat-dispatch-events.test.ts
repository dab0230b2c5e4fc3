import { type DispatchEvent, sleep } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

describe("dispatch events (for development tools)", () => {
  it("reports every step of each delivery in order, with its lock key and skipped keys", async () => {
    const events: DispatchEvent[] = [];
    const h = await createChatHarness({
      concurrency: "queue",
      observer: { onDispatchEvent: (event) => events.push(event) },
    });
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text === "@bot first") await sleep(h.clock, 500);
    });
    const sent = [
      h.send("@bot first", { id: "a" }),
      h.send("@bot second", { id: "b" }),
      h.send("@bot third", { id: "c" }),
    ];
    await h.clock.advance(500);
    await Promise.all(sent.map((entry) => entry.done));
    const stepsOf = (key: string) =>
      events
        .filter((event) => event.deliveryKey === key)
        .map((event) =>
          [event.kind, event.outcome ?? event.skippedKeys?.join(",") ?? ""].join(" ").trim(),
        );
    expect(stepsOf("mock:a")).toEqual([
      "accepted",
      "run-started",
      "run-finished",
      "settled handled",
    ]);
    expect(stepsOf("mock:b")).toEqual(["accepted", "queued", "settled skipped"]);
    expect(stepsOf("mock:c")).toEqual([
      "accepted",
      "queued",
      "run-started mock:b",
      "run-finished mock:b",
      "settled handled",
    ]);
    const kinds = events.map((event) => `${event.kind} ${event.deliveryKey}`);
    expect(kinds.indexOf("settled mock:a")).toBeLessThan(kinds.indexOf("run-started mock:c"));
    expect(events.find((event) => event.kind === "queued")?.lockKey).toBe("thread:mock:C1:T1");
    expect(events.find((event) => event.kind === "run-started")?.lockKey).toBe("thread:mock:C1:T1");
    const finished = events.find((event) => event.kind === "run-finished");
    const started = events.find((event) => event.kind === "run-started");
    expect((finished?.atMs ?? 0) - (started?.atMs ?? 0)).toBe(500);
  });
});
