import { describe, expect, it, vi } from "vitest";
import type { MessageSubject } from "../../src/index.js";
import { createChatHarness } from "./chat-harness.js";

const SUBJECT: MessageSubject = { type: "issue", id: "ENG-1", title: "Fix bug", raw: {} };

describe("Chat", () => {
  it("should wire adapter on message for subject access", async () => {
    const { chat, adapter, send } = await createChatHarness({ dispatch: "sync" });
    const fetchSubject = vi.fn(async () => SUBJECT);
    Object.assign(adapter, { fetchSubject });
    const seen: Array<MessageSubject | null> = [];
    chat.onNewMention(async (_thread, message) => {
      seen.push(await message.subject);
    });
    await send("@bot what is this about?", { isMention: true }).done;
    expect(seen).toEqual([SUBJECT]);
    expect(fetchSubject).toHaveBeenCalledWith("mock:C1:T1");
  });

  describe("concurrency: queue subject rehydration", () => {
    it("should wire adapter on queued message so fetchSubject works after JSON roundtrip", async () => {
      const { chat, adapter, state, send } = await createChatHarness({
        concurrency: "queue",
        dispatch: "sync",
      });
      const fetchSubject = vi.fn(async () => SUBJECT);
      Object.assign(adapter, { fetchSubject });
      let release: () => void = () => {};
      const blocked = new Promise<void>((resolve) => {
        release = resolve;
      });
      const subjects: Array<{ text: string; subject: MessageSubject | null }> = [];
      chat.onNewMention(async (_thread, message) => {
        if (message.text.endsWith("first")) await blocked;
        subjects.push({ text: message.text, subject: await message.subject });
      });
      const first = send("@bot first", { isMention: true });
      const second = send("@bot second", { isMention: true });
      // The second message waits in the State queue, as JSON, while the first handler runs.
      await vi.waitFor(async () => expect(await state.pendingQueueKeys()).toHaveLength(1));
      release();
      await Promise.all([first.done, second.done]);
      expect(subjects.map((entry) => entry.text)).toEqual(["@bot first", "@bot second"]);
      expect(subjects[1]?.subject).toEqual(SUBJECT);
      expect(fetchSubject).toHaveBeenCalledTimes(2);
    });
  });
});
