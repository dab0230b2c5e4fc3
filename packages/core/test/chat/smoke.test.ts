import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

describe("Chat smoke", () => {
  it("should call onNewMention handler when bot is mentioned", async () => {
    const h = await createChatHarness();
    const seen: string[] = [];
    h.chat.onNewMention(async (thread, message, context) => {
      seen.push(`${message.text}|${context.totalSinceLastHandler}`);
      await thread.post(`hi ${message.author.userName}`);
    });
    const { done } = h.send("@bot hello");
    expect(await done).toEqual({ outcome: "handled" });
    expect(seen).toEqual(["@bot hello|1"]);
    expect(h.adapter.postedTo("mock:C1:T1")).toEqual(["hi user"]);
  });
});
