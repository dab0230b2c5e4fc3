import { createMentionMessage, createMockAdapter, createTestState } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { Chat } from "../../src/runtime/chat.js";
import { Plan } from "../../src/runtime/plan.js";

/** The examples of docs/posting.md and packages/core/README.md ("Posting and capabilities"), run. */
describe("docs/posting.md examples", () => {
  async function botWith(handler: Parameters<Chat["onNewMention"]>[0], capabilities = {}) {
    const mock = createMockAdapter("mock", { capabilities });
    const bot = new Chat({ userName: "bot", adapters: { mock }, state: await createTestState() });
    bot.onNewMention(handler);
    const message = createMentionMessage("@bot help", { threadId: "mock:C1:T1" });
    const result = await bot.processMessage(mock, message.threadId, message);
    await bot.shutdown();
    return { mock, result };
  }

  it("the README example posts, sends an ephemeral message, schedules, edits and cancels", async () => {
    const { mock, result } = await botWith(async (thread, message) => {
      const sent = await thread.post({ markdown: "Working on **it**" });
      await thread.postEphemeral(message.author, "Only you see this", { fallbackToDM: true });
      const reminder = await thread.schedule("Still there?", {
        postAt: new Date(Date.now() + 3_600_000),
      });
      await sent.edit("Done");
      await reminder.cancel();
    });
    expect(result.outcome).toBe("handled");
    expect(mock.calls.map((call) => call.method)).toEqual([
      "postMessage",
      "postEphemeral",
      "scheduleMessage",
      "editMessage",
    ]);
    expect(mock.scheduled).toEqual([]);
  });

  it("the ephemeral example falls back to the DM where the platform has no ephemeral messages", async () => {
    let shown: unknown;
    const { mock } = await botWith(
      async (thread, message) => {
        shown = await thread.postEphemeral(message.author, "Only you can see this", {
          fallbackToDM: true,
        });
      },
      { ephemeral: false },
    );
    expect(shown).toMatchObject({ usedFallback: true, threadId: "mock:DU_USER:dm" });
    expect(mock.postedTo("mock:DU_USER:dm")).toEqual(["Only you can see this"]);
  });

  it("the plan example posts the plan as text and edits it as tasks progress", async () => {
    const { mock } = await botWith(async (thread) => {
      const plan = await thread.post(new Plan({ initialMessage: "Looking into it" }));
      await plan.addTask({ title: "Search the docs" });
      await plan.updateTask("3 matches");
      await plan.complete({ completeMessage: "Done" });
    });
    expect(mock.posted).toEqual(["📋 Looking into it\n🔄 Looking into it"]);
    expect(mock.callsOf("editMessage").at(-1)?.args[2]).toBe(
      "📋 Done\n✅ Looking into it\n✅ Search the docs",
    );
  });
});
