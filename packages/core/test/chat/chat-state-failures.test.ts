import { StateError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

describe("State failures after a delivery ended", () => {
  it("keeps the dedupe mark of a handled message when the State fails while draining after it", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    h.chat.onNewMention(async () => {});
    const dequeue = h.state.dequeue.bind(h.state);
    h.state.dequeue = async () => {
      throw new StateError("unavailable", "server unreachable", { step: "dequeue" });
    };
    const result = await h.send("@bot hi", { id: "m1" }).done;
    h.state.dequeue = dequeue;
    expect(result).toEqual({ outcome: "handled" });
    expect(await h.state.get("dedupe:mock:m1")).toBe(1);
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
    expect(await h.send("@bot hi", { id: "m1" }).done).toMatchObject({ outcome: "duplicate" });
  });
});
