import {
  createFakeClock,
  createMockAdapter,
  createTestMessage,
  createTestState,
} from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Card as JsxCard } from "../../src/content/jsx/components.js";
import { jsx } from "../../src/content/jsx/jsx-element.js";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import { NotImplementedError, NotSupportedError, ValidationError } from "../../src/errors/index.js";
import { ThreadImpl, type ThreadOptions } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";
const OTHER_THREAD_ID = "mock:C123:T2";

async function setup(
  capabilities: Partial<AdapterCapabilities> = {},
  options: Partial<ThreadOptions> = {},
) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID, ...options });
  return { clock, state, adapter, thread };
}

async function* chunks(...parts: string[]): AsyncIterable<string> {
  for (const part of parts) yield part;
}

describe("ThreadImpl", () => {
  describe("markAsRead", () => {
    it("marks the current message when no target is provided", async () => {
      const current = createTestMessage({ id: "m-current", threadId: THREAD_ID });
      const { thread, adapter } = await setup({}, { initialMessage: current });
      await thread.markAsRead();
      expect(adapter.callsOf("markAsRead")[0]?.args).toEqual([THREAD_ID, "m-current"]);
    });

    it("marks an explicit message id", async () => {
      const { thread, adapter } = await setup();
      await thread.markAsRead("m-7");
      expect(adapter.callsOf("markAsRead")[0]?.args).toEqual([THREAD_ID, "m-7"]);
    });

    it("marks an explicit message", async () => {
      const { thread, adapter } = await setup();
      const spy = vi.spyOn(adapter, "markAsRead");
      const message = createTestMessage({ id: "m-8", threadId: THREAD_ID });
      await thread.markAsRead(message);
      // The full message goes along, for platforms that need more than its id.
      expect(spy).toHaveBeenCalledWith(THREAD_ID, "m-8", message);
    });

    it("rejects a message from another thread", async () => {
      const { thread, adapter } = await setup();
      const foreign = createTestMessage({ id: "m-9", threadId: OTHER_THREAD_ID });
      const error = await thread.markAsRead(foreign).catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(/m-9 belongs to mock:C123:T2, not mock:C123:T1/);
      expect(adapter.calls).toEqual([]);
    });

    it("requires a target outside a message handler", async () => {
      const { thread, adapter } = await setup();
      await expect(thread.markAsRead()).rejects.toThrow(
        /a message \(or its id\) is required outside a message handler/,
      );
      expect(adapter.calls).toEqual([]);
    });

    it("throws when the adapter does not support read receipts", async () => {
      const current = createTestMessage({ id: "m-current", threadId: THREAD_ID });
      const { thread, adapter } = await setup({ readReceipts: false }, { initialMessage: current });
      const error = await thread.markAsRead().catch((e) => e);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect(error).toBeInstanceOf(NotSupportedError);
      expect((error as NotSupportedError).feature).toBe("readReceipts");
      expect((error as Error).message).toContain("Read receipts are not supported by this adapter");
      expect(adapter.calls).toEqual([]);
    });

    it("preserves the current message through serialization", async () => {
      const current = createTestMessage({ id: "m-current", threadId: THREAD_ID });
      const { thread, adapter } = await setup({}, { initialMessage: current });
      const revived = ThreadImpl.fromJSON(JSON.parse(JSON.stringify(thread.toJSON())), adapter);
      await revived.markAsRead();
      expect(adapter.callsOf("markAsRead")[0]?.args).toEqual([THREAD_ID, "m-current"]);
    });
  });

  describe("reply()", () => {
    it("throws when the adapter does not support replies", async () => {
      const { thread, adapter } = await setup({ replies: false });
      const error = await thread.reply("m-1", "Got it").catch((e) => e);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect((error as NotSupportedError).feature).toBe("replies");
      expect((error as Error).message).toContain(
        "Message replies are not supported by this adapter",
      );
      expect(adapter.calls).toEqual([]);
    });

    it("delegates a message id and content to the adapter", async () => {
      const { thread, adapter } = await setup();
      const sent = await thread.reply("m-1", "Got it");
      expect(adapter.callsOf("reply")[0]?.args).toEqual([THREAD_ID, "m-1", "Got it"]);
      expect(sent.id).toBe("mock-msg-1");
      expect(sent.text).toBe("Got it");
      expect(adapter.callsOf("postMessage")).toEqual([]);
    });

    it("accepts a Message and preserves it on the result", async () => {
      const { thread, adapter } = await setup();
      const target = createTestMessage({ id: "m-2", threadId: THREAD_ID, text: "question" });
      const sent = await thread.reply(target, { markdown: "**answer**" });
      expect(adapter.callsOf("reply")[0]?.args).toEqual([
        THREAD_ID,
        "m-2",
        { markdown: "**answer**" },
      ]);
      expect(sent.replyTo).toBe(target);
      expect(sent.text).toBe("answer");
    });

    it("rejects a Message from another thread", async () => {
      const { thread, adapter } = await setup();
      const foreign = createTestMessage({ id: "m-3", threadId: OTHER_THREAD_ID });
      const error = await thread.reply(foreign, "hi").catch((e) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(adapter.calls).toEqual([]);
    });

    it("converts JSX cards before delegating", async () => {
      const { thread, adapter } = await setup();
      const spy = vi.spyOn(adapter, "reply");
      await thread.reply("m-1", jsx(JsxCard, { title: "Ticket" }));
      const passed = spy.mock.calls[0]?.[2];
      expect(passed).toEqual({ type: "card", title: "Ticket", children: [] });
    });

    it("buffers streams into one markdown reply", async () => {
      const { thread, adapter } = await setup();
      const sent = await thread.reply("m-1", chunks("Hello", " ", "**World**"));
      expect(adapter.callsOf("reply")).toHaveLength(1);
      expect(adapter.callsOf("reply")[0]?.args[2]).toEqual({ markdown: "Hello **World**" });
      expect(adapter.callsOf("editMessage")).toEqual([]);
      expect(sent.text).toBe("Hello World");
    });

    it("falls back to a space when a stream produces no text", async () => {
      const { thread, adapter } = await setup();
      await thread.reply("m-1", chunks());
      expect(adapter.callsOf("reply")[0]?.args[2]).toEqual({ markdown: " " });
    });

    it("resolves a message id against messages the thread knows", async () => {
      const current = createTestMessage({ id: "m-current", threadId: THREAD_ID });
      const { thread } = await setup({}, { initialMessage: current });
      const known = createTestMessage({ id: "m-recent", threadId: THREAD_ID });
      thread.recentMessages = [known];
      expect((await thread.reply("m-current", "a")).replyTo).toBe(current);
      expect((await thread.reply("m-recent", "b")).replyTo).toBe(known);
    });

    it("leaves replyTo undefined for an unknown message id", async () => {
      const { thread, adapter } = await setup();
      const sent = await thread.reply("m-unknown", "c");
      expect(sent.replyTo).toBeUndefined();
      // Resolved without a fetch: the reply is sent, nothing else is asked of the platform.
      expect(adapter.calls.map((call) => call.method)).toEqual(["reply"]);
    });
  });
});
