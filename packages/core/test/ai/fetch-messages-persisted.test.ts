import { createMemoryState } from "@baton/state-memory";
import { createMockAdapter, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatTools } from "../../src/ai/index.js";
import { Chat } from "../../src/index.js";
import { TOOL_OPTIONS } from "./tools-harness.js";

const THREAD = "sms:+15550000001:+15550000002";

/**
 * A platform like SMS: no history API (no `history` capability, `fetchMessages` refuses), so
 * the runtime keeps the thread's history in the State (`persistThreadHistory`).
 */
async function smsChat() {
  const adapter = Object.assign(createMockAdapter("sms", { capabilities: { history: false } }), {
    persistThreadHistory: true,
  });
  const chat = new Chat({
    userName: "bot",
    adapters: { sms: adapter },
    state: createMemoryState(),
    logger: "silent",
    dispatch: "sync",
  });
  chat.onNewMention(async () => {});
  await chat.initialize();
  for (let i = 1; i <= 5; i += 1) {
    const message = createTestMessage({ id: `m${i}`, threadId: THREAD, text: `@bot ${i}` });
    await chat.processMessage(adapter, THREAD, message);
  }
  const fetch = async (input: Record<string, unknown>) =>
    (await createChatTools({ chat }).fetchMessages?.execute?.(
      { threadId: THREAD, ...input },
      TOOL_OPTIONS,
    )) as { messages: Array<{ id: string }>; nextCursor: string | undefined };
  return { adapter, fetch };
}

describe("createChatTools fetchMessages on a platform whose history the runtime keeps", () => {
  it("reads the persisted history, newest page first, oldest first within the page", async () => {
    const { adapter, fetch } = await smsChat();

    const first = await fetch({ limit: 2, direction: "backward" });
    const second = await fetch({ limit: 2, direction: "backward", cursor: first.nextCursor });
    const last = await fetch({ limit: 2, direction: "backward", cursor: second.nextCursor });

    expect(first.messages.map((m) => m.id)).toEqual(["m4", "m5"]);
    expect(second.messages.map((m) => m.id)).toEqual(["m2", "m3"]);
    expect(last.messages.map((m) => m.id)).toEqual(["m1"]);
    expect(last.nextCursor).toBeUndefined();
    // The platform was never asked: it has no history to give.
    expect(adapter.callsOf("fetchMessages")).toEqual([]);
  });

  it("walks forward from the oldest message", async () => {
    const { fetch } = await smsChat();

    const page = await fetch({ limit: 3, direction: "forward" });

    expect(page.messages.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
    expect(page.nextCursor).toBe("3");
  });

  it("refuses a cursor it did not hand out, naming it", async () => {
    const { fetch } = await smsChat();

    await expect(fetch({ limit: 2, cursor: "not-a-cursor" })).rejects.toThrow(
      /cursor.*not-a-cursor/,
    );
  });
});
