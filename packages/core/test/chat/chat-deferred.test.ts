import { DetachTimeoutError, StateError, sleep } from "@baton/core";
import { createMockWebhookRequest } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

function request(id: string, text = "@bot think hard") {
  return createMockWebhookRequest({ threadId: "mock:C1:T1", message: { id, text } });
}

describe("dispatch modes", () => {
  it("answers a deferred webhook before a 5 s handler finishes, and hands waitUntil a promise that never rejects", async () => {
    const h = await createChatHarness();
    const events: string[] = [];
    h.chat.onNewMention(async () => {
      events.push("handler started");
      await sleep(h.clock, 5_000);
      events.push("handler finished");
      throw new Error("the handler fails after answering");
    });
    const detached: Promise<unknown>[] = [];
    const response = await h.chat.webhooks.mock?.(request("m1"), {
      waitUntil: (task) => detached.push(task),
    });
    events.push(`webhook answered ${response?.status}`);
    expect(events).not.toContain("handler finished");
    expect(await response?.json()).toMatchObject({ outcome: "accepted" });
    expect(detached).toHaveLength(1);
    await h.clock.advance(5_000);
    await expect(detached[0]).resolves.toBeUndefined();
    expect(events).toHaveLength(3);
    expect(events.at(-1)).toBe("handler finished");
    expect(events.indexOf("webhook answered 200")).toBeLessThan(events.indexOf("handler finished"));
  });

  it("answers every webhook of a burst before any deferred run takes its lock, then runs them all", async () => {
    const h = await createChatHarness();
    const events: string[] = [];
    const acquireLock = h.state.acquireLock.bind(h.state);
    h.state.acquireLock = (key, ttlMs) => {
      events.push("lock");
      return acquireLock(key, ttlMs);
    };
    h.chat.onNewMention(async (_thread, message) => {
      events.push(`handler ${message.id}`);
    });
    const detached: Promise<unknown>[] = [];
    const ids = Array.from({ length: 20 }, (_, index) => `m${index}`);
    await Promise.all(
      ids.map(async (id, index) => {
        const webhook = createMockWebhookRequest({
          threadId: `mock:C1:T${index}`,
          message: { id, text: "@bot hello" },
        });
        const response = await h.chat.webhooks.mock?.(webhook, {
          waitUntil: (task) => detached.push(task),
        });
        events.push(`answered ${response?.status}`);
      }),
    );
    await Promise.all(detached);
    // A run's work (lock, handler) interleaved with the answers would hold every answer back.
    expect(events.slice(0, 20)).toEqual(ids.map(() => "answered 200"));
    expect(events.filter((event) => event === "lock")).toHaveLength(20);
    expect(events.filter((event) => event.startsWith("handler")).sort()).toEqual(
      ids.map((id) => `handler ${id}`).sort(),
    );
  });

  it("tracks detached work without waitUntil, so shutdown still waits for it", async () => {
    const h = await createChatHarness();
    let finished = false;
    h.chat.onNewMention(async (_thread, _message, context) => {
      await sleep(h.clock, 1_000).catch(() => {});
      finished = !context.signal.aborted;
    });
    expect((await h.chat.webhooks.mock?.(request("m1")))?.status).toBe(200);
    await h.clock.advance(1_000);
    await h.chat.shutdown();
    expect(finished).toBe(true);
  });

  it("answers a sync webhook only after the handler finished", async () => {
    const h = await createChatHarness({ dispatch: "sync" });
    const events: string[] = [];
    h.chat.onNewMention(async () => {
      await sleep(h.clock, 2_000);
      events.push("handler finished");
    });
    const answered = h.chat.webhooks.mock?.(request("m1")).then((response) => {
      events.push(`webhook answered ${response.status}`);
      return response.json();
    });
    await h.clock.advance(2_000);
    expect(await answered).toMatchObject({ outcome: "handled" });
    expect(events).toEqual(["handler finished", "webhook answered 200"]);
  });

  it("aborts a detached handler's signal with DetachTimeoutError after detachTimeoutMs", async () => {
    const h = await createChatHarness({ detachTimeoutMs: 3_000 });
    let reason: unknown;
    h.chat.onNewMention(async (_thread, _message, context) => {
      await sleep(h.clock, 10_000, context.signal).catch(() => {});
      reason = context.signal.reason;
    });
    const detached: Promise<unknown>[] = [];
    await h.chat.webhooks.mock?.(request("m1"), { waitUntil: (task) => detached.push(task) });
    await h.clock.advance(3_000);
    await Promise.all(detached);
    expect(reason).toBeInstanceOf(DetachTimeoutError);
    expect(await h.state.inspectLock("thread:mock:C1:T1")).toBeNull();
  });

  it("answers 503 and leaves no dedupe mark when the State is down at acceptance", async () => {
    const h = await createChatHarness();
    const setIfNotExists = h.state.setIfNotExists.bind(h.state);
    h.state.setIfNotExists = async () => {
      throw new StateError("unavailable", "server unreachable", { step: "accept message" });
    };
    const response = await h.chat.webhooks.mock?.(request("m1"));
    expect(response?.status).toBe(503);
    h.state.setIfNotExists = setIfNotExists;
    expect(await h.state.get("dedupe:mock:m1")).toBeNull();
  });
});
