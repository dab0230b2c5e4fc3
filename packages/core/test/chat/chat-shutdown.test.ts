import { sleep } from "@baton/core";
import { createMockWebhookRequest, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

const THREADS = 40;

describe("shutdown (DESIGN §8)", () => {
  it("during 200 in-flight deferred deliveries: starts no handler, aborts every running one, releases every lock and refuses later deliveries", async () => {
    const h = await createChatHarness({ concurrency: "queue", maxDetached: 1_000 });
    let shutdownBegan = false;
    let startedAfterShutdown = 0;
    const signals: AbortSignal[] = [];
    h.chat.onNewMention(async (_thread, _message, context) => {
      if (shutdownBegan) startedAfterShutdown += 1;
      signals.push(context.signal);
      await sleep(h.clock, 60_000, context.signal).catch(() => {});
    });
    const detached: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i += 1) {
      const response = await h.chat.webhooks.mock?.(
        createMockWebhookRequest({
          threadId: `mock:C1:T${i % THREADS}`,
          message: { id: `m${i}`, text: "@bot long job" },
        }),
        { waitUntil: (task) => detached.push(task) },
      );
      expect(response?.status).toBe(200);
    }
    await h.clock.advance(10);
    expect(signals).toHaveLength(THREADS);

    const locksAtDisconnect: unknown[] = [];
    const disconnect = h.state.disconnect.bind(h.state);
    h.state.disconnect = async () => {
      for (let t = 0; t < THREADS; t += 1) {
        locksAtDisconnect.push(await h.state.inspectLock(`thread:mock:C1:T${t}`));
      }
      return disconnect();
    };
    const order: string[] = [];
    shutdownBegan = true;
    const first = h.chat.shutdown({ timeoutMs: 5_000 }).then(() => order.push("first"));
    const second = h.chat.shutdown().then(() => order.push("second"));
    const late = await h.chat.webhooks.mock?.(
      createMockWebhookRequest({
        threadId: "mock:C1:late",
        message: { id: "late", text: "@bot hi" },
      }),
    );
    await Promise.all([first, second, ...detached]);

    expect(late?.status).toBe(503);
    expect(startedAfterShutdown).toBe(0);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(locksAtDisconnect).toHaveLength(THREADS);
    expect(locksAtDisconnect.every((lock) => lock === null)).toBe(true);
    expect(order).toEqual(["first", "second"]);
    await expect(
      h.chat.processMessage(h.adapter, "mock:C1:T1", createTestMessage()),
    ).rejects.toMatchObject({ code: "ADMISSION_REJECTED" });
  });

  it("disconnects adapters before the State, and continues when an adapter's disconnect fails", async () => {
    const h = await createChatHarness();
    const order: string[] = [];
    Object.assign(h.adapter, {
      disconnect: async () => {
        order.push("adapter");
        throw new Error("socket already closed");
      },
    });
    const disconnect = h.state.disconnect.bind(h.state);
    h.state.disconnect = async () => {
      order.push("state");
      return disconnect();
    };
    await h.chat.shutdown();
    expect(order).toEqual(["adapter", "state"]);
  });

  it("parks a message accepted just before shutdown in the queue instead of starting its handler", async () => {
    const h = await createChatHarness({ concurrency: "queue" });
    let started = 0;
    h.chat.onNewMention(async () => {
      started += 1;
    });
    const acquire = h.state.acquireLock.bind(h.state);
    let shutdown: Promise<void> | undefined;
    h.state.acquireLock = async (key, ttlMs) => {
      const lock = await acquire(key, ttlMs);
      shutdown ??= h.chat.shutdown();
      return lock;
    };
    const queueDepths: number[] = [];
    const disconnect = h.state.disconnect.bind(h.state);
    h.state.disconnect = async () => {
      queueDepths.push(await h.state.queueDepth("thread:mock:C1:T1"));
      return disconnect();
    };
    const result = await h.send("@bot racing shutdown").done;
    await shutdown;
    expect(started).toBe(0);
    expect(result).toEqual({ outcome: "queued", reason: "parked at shutdown" });
    expect(queueDepths).toEqual([1]);
  });
});

describe("events during shutdown", () => {
  it("refuses actions and reactions once shutdown began, so none runs against a closing State", async () => {
    const h = await createChatHarness({ retryAfterMs: 3_000 });
    let ran = 0;
    h.chat.onAction(() => {
      ran += 1;
    });
    await h.chat.shutdown();
    const action = {
      actionId: "approve",
      user: { userId: "U1", userName: "u", fullName: "U", isBot: false, isMe: false },
      messageId: "m1",
      threadId: "mock:C1:T1",
    } as const;
    await expect(h.chat.processAction(h.adapter, action)).rejects.toMatchObject({
      code: "ADMISSION_REJECTED",
      retryAfterMs: 3_000,
    });
    expect(ran).toBe(0);
  });
});
