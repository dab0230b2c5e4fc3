import { createFakeClock, createMockAdapter, createTestState } from "@baton/testing";
import { describe, expect, it, vi } from "vitest";
import { Card } from "../../src/content/cards/card-builders.js";
import { Card as JsxCard } from "../../src/content/jsx/components.js";
import { jsx } from "../../src/content/jsx/jsx-element.js";
import type { AdapterCapabilities } from "../../src/contracts/capabilities.js";
import type { ScheduledMessage } from "../../src/contracts/thread-surface-types.js";
import {
  AdapterError,
  NotImplementedError,
  NotSupportedError,
  ValidationError,
} from "../../src/errors/index.js";
import { ThreadImpl } from "../../src/runtime/thread.js";

const THREAD_ID = "mock:C123:T1";
const futureDate = new Date("2030-01-01T00:00:00Z");

async function setup(capabilities: Partial<AdapterCapabilities> = {}) {
  const clock = createFakeClock();
  const state = await createTestState({ clock });
  const adapter = createMockAdapter("mock", { clock, capabilities });
  const thread = new ThreadImpl({ adapter, state, threadId: THREAD_ID });
  return { clock, state, adapter, thread };
}

function mockScheduleResult(overrides?: Partial<ScheduledMessage>): ScheduledMessage {
  return {
    scheduledMessageId: "Q123",
    channelId: "C123",
    postAt: futureDate,
    raw: { ok: true },
    cancel: vi.fn().mockResolvedValue(undefined),
    ...overrides,
  };
}

describe("ThreadImpl", () => {
  describe("schedule()", () => {
    // ---- Error handling: adapter without scheduling support ----

    it("should throw NotImplementedError when adapter has no scheduleMessage", async () => {
      const { thread } = await setup({ scheduling: false });
      await expect(thread.schedule("Hello", { postAt: futureDate })).rejects.toThrow(
        NotImplementedError,
      );
    });

    it("should include 'scheduling' as the feature in NotImplementedError", async () => {
      const { thread } = await setup({ scheduling: false });
      const error = await thread.schedule("Hello", { postAt: futureDate }).catch((e) => e);
      expect(error).toBeInstanceOf(NotImplementedError);
      expect((error as NotImplementedError).feature).toBe("scheduling");
      // Baton's subclass also names the adapter and carries its own code.
      expect(error).toBeInstanceOf(NotSupportedError);
      expect((error as NotSupportedError).adapter).toBe("mock");
      expect((error as NotSupportedError).code).toBe("NOT_SUPPORTED");
    });

    it("should include descriptive message in NotImplementedError", async () => {
      const { thread, adapter } = await setup({ scheduling: false });
      await expect(thread.schedule("Hello", { postAt: futureDate })).rejects.toThrow(
        "Scheduled messages are not supported by this adapter",
      );
      // Refused before the platform: the adapter saw no call at all.
      expect(adapter.calls).toEqual([]);
    });

    // ---- Basic delegation ----

    it("should delegate to adapter.scheduleMessage with correct threadId", async () => {
      const { thread, adapter } = await setup();
      const spy = vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(mockScheduleResult());
      await thread.schedule("Hello", { postAt: futureDate });
      expect(spy).toHaveBeenCalledWith(THREAD_ID, "Hello", { postAt: futureDate });
    });

    it("should return the ScheduledMessage from adapter", async () => {
      const { thread, adapter } = await setup();
      const expected = mockScheduleResult();
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(expected);
      const result = await thread.schedule("Hello", { postAt: futureDate });
      expect(result).toBe(expected);
    });

    // ---- Return value shape ----

    it("should return scheduledMessageId from adapter", async () => {
      const { thread, adapter } = await setup();
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(
        mockScheduleResult({ scheduledMessageId: "Q999" }),
      );
      const result = await thread.schedule("Hello", { postAt: futureDate });
      expect(result.scheduledMessageId).toBe("Q999");
    });

    it("should return channelId from adapter", async () => {
      const { thread, adapter } = await setup();
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(
        mockScheduleResult({ channelId: "C456" }),
      );
      const result = await thread.schedule("Hello", { postAt: futureDate });
      expect(result.channelId).toBe("C456");
    });

    it("should return postAt from adapter", async () => {
      const { thread, adapter } = await setup();
      const customDate = new Date("2035-06-15T12:00:00Z");
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(
        mockScheduleResult({ postAt: customDate }),
      );
      const result = await thread.schedule("Hello", { postAt: futureDate });
      expect(result.postAt).toBe(customDate);
    });

    it("should return raw platform response from adapter", async () => {
      const { thread, adapter } = await setup();
      const rawResponse = { ok: true, scheduled_message_id: "Q123", post_at: 123 };
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(
        mockScheduleResult({ raw: rawResponse }),
      );
      const result = await thread.schedule("Hello", { postAt: futureDate });
      expect(result.raw).toBe(rawResponse);
    });

    it("should return a cancel function", async () => {
      const { thread } = await setup();
      // The mock's own scheduling, not a stub: its ScheduledMessage carries a working cancel.
      const result = await thread.schedule("Hello", { postAt: futureDate });
      expect(typeof result.cancel).toBe("function");
    });

    // ---- cancel() ----

    it("should invoke cancel without errors", async () => {
      const { thread, adapter } = await setup();
      const cancelFn = vi.fn().mockResolvedValue(undefined);
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(
        mockScheduleResult({ cancel: cancelFn }),
      );
      const result = await thread.schedule("Hello", { postAt: futureDate });
      await result.cancel();
      expect(cancelFn).toHaveBeenCalledOnce();
    });

    it("should propagate errors from cancel", async () => {
      const { thread, adapter } = await setup();
      const cancelFn = vi.fn().mockRejectedValue(new Error("already sent"));
      vi.spyOn(adapter, "scheduleMessage").mockResolvedValue(
        mockScheduleResult({ cancel: cancelFn }),
      );
      const result = await thread.schedule("Hello", { postAt: futureDate });
      await expect(result.cancel()).rejects.toThrow("already sent");
    });

    // ---- Different message formats ----

    it("should pass string messages through directly", async () => {
      const { thread, adapter } = await setup();
      await thread.schedule("Plain text", { postAt: futureDate });
      expect(adapter.callsOf("scheduleMessage")[0]?.args).toEqual([
        THREAD_ID,
        "Plain text",
        { postAt: futureDate },
      ]);
    });

    it("should pass raw message objects through", async () => {
      const { thread, adapter } = await setup();
      const rawMsg = { raw: "raw text" };
      await thread.schedule(rawMsg, { postAt: futureDate });
      expect(adapter.callsOf("scheduleMessage")[0]?.args[1]).toEqual(rawMsg);
    });

    it("should pass markdown message objects through", async () => {
      const { thread, adapter } = await setup();
      const mdMsg = { markdown: "**bold** text" };
      await thread.schedule(mdMsg, { postAt: futureDate });
      expect(adapter.callsOf("scheduleMessage")[0]?.args[1]).toEqual(mdMsg);
    });

    it("should pass AST message objects through", async () => {
      const { thread, adapter } = await setup();
      const astMsg = { ast: { type: "root" as const, children: [] } };
      await thread.schedule(astMsg, { postAt: futureDate });
      expect(adapter.callsOf("scheduleMessage")[0]?.args[1]).toEqual(astMsg);
    });

    // ---- JSX / CardElement conversion ----

    it("should convert JSX Card elements to CardElement before passing to adapter", async () => {
      const { thread, adapter } = await setup();
      const spy = vi.spyOn(adapter, "scheduleMessage");
      await thread.schedule(jsx(JsxCard, { title: "Reminder" }), { postAt: futureDate });
      const passedMessage = spy.mock.calls[0]?.[1];
      // A plain CardElement, not the JSX element.
      expect(passedMessage).toHaveProperty("type", "card");
      expect(passedMessage).toHaveProperty("title", "Reminder");
      expect(passedMessage).not.toHaveProperty("$$typeof");
    });

    it("should convert Card JSX with children to CardElement", async () => {
      const { thread, adapter } = await setup();
      const spy = vi.spyOn(adapter, "scheduleMessage");
      await thread.schedule(jsx(JsxCard, { title: "With Subtitle", subtitle: "Sub" }), {
        postAt: futureDate,
      });
      const passedMessage = spy.mock.calls[0]?.[1];
      expect(passedMessage).toHaveProperty("type", "card");
      expect(passedMessage).toHaveProperty("title", "With Subtitle");
      expect(passedMessage).toHaveProperty("subtitle", "Sub");
    });

    // ---- postAt variations ----

    it("should pass the exact Date object to adapter", async () => {
      const { thread, adapter } = await setup();
      const spy = vi.spyOn(adapter, "scheduleMessage");
      const specificDate = new Date("2028-12-25T08:00:00Z");
      await thread.schedule("Merry Christmas!", { postAt: specificDate });
      expect(spy).toHaveBeenCalledWith(expect.any(String), "Merry Christmas!", {
        postAt: specificDate,
      });
      expect(spy.mock.calls[0]?.[2].postAt).toBe(specificDate);
    });

    // ---- Adapter error propagation ----

    it("should propagate errors thrown by adapter.scheduleMessage", async () => {
      const { thread, adapter } = await setup();
      vi.spyOn(adapter, "scheduleMessage").mockRejectedValue(new Error("Slack API error"));
      const error = await thread.schedule("Hello", { postAt: futureDate }).catch((e) => e);
      expect(error).toBeInstanceOf(AdapterError);
      expect((error as Error).message).toContain("Slack API error");
      expect((error as AdapterError).step).toBe(`schedule message in ${THREAD_ID}`);
    });

    it("should not call adapter.postMessage when scheduling", async () => {
      const { thread, adapter } = await setup();
      await thread.schedule("Hello", { postAt: futureDate });
      expect(adapter.callsOf("postMessage")).toEqual([]);
      expect(adapter.scheduled.map((post) => post.message)).toEqual(["Hello"]);
    });

    // ---- Different thread IDs ----

    it("should use the thread's own ID for scheduling", async () => {
      const { adapter, state } = await setup();
      const otherThread = new ThreadImpl({ adapter, state, threadId: "mock:C999:9999.0000" });
      await otherThread.schedule("Hello", { postAt: futureDate });
      expect(adapter.callsOf("scheduleMessage")[0]?.args).toEqual([
        "mock:C999:9999.0000",
        "Hello",
        { postAt: futureDate },
      ]);
    });

    // ---- Multiple schedules ----

    it("should allow scheduling multiple messages on the same thread", async () => {
      const { thread, adapter } = await setup();
      const s1 = await thread.schedule("First", { postAt: futureDate });
      const s2 = await thread.schedule("Second", { postAt: futureDate });
      const s3 = await thread.schedule("Third", { postAt: futureDate });
      expect([s1, s2, s3].map((s) => s.scheduledMessageId)).toEqual([
        "mock-scheduled-1",
        "mock-scheduled-2",
        "mock-scheduled-3",
      ]);
      expect(adapter.callsOf("scheduleMessage")).toHaveLength(3);
    });

    it("should cancel individual messages independently", async () => {
      const { thread, adapter } = await setup();
      const s1 = await thread.schedule("First", { postAt: futureDate });
      await thread.schedule("Second", { postAt: futureDate });
      await s1.cancel();
      expect(adapter.scheduled.map((post) => post.message)).toEqual(["Second"]);
      // A second cancel of the same post is the platform's error, not a silent success.
      await expect(s1.cancel()).rejects.toBeInstanceOf(AdapterError);
    });

    it("refuses a postAt that is not a valid Date, and a stream, before any platform call", async () => {
      const { thread, adapter } = await setup();
      await expect(
        thread.schedule("Hello", { postAt: new Date("not a date") }),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(
        thread.schedule("Hello", { postAt: "2030-01-01" as unknown as Date }),
      ).rejects.toThrow(/postAt must be a valid Date/);
      async function* stream() {
        yield "x";
      }
      await expect(
        thread.schedule(stream() as never, { postAt: futureDate }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(adapter.calls).toEqual([]);
    });

    it("schedules a card as its text where the adapter has no cards", async () => {
      const { thread, adapter } = await setup({ cards: false });
      await thread.schedule(Card({ title: "Standup" }), { postAt: futureDate });
      expect(adapter.scheduled[0]?.message).toEqual({ markdown: "**Standup**" });
    });
  });
});
