import { sleep } from "@baton/core";
import { createMockWebhookRequest, createTestMessage } from "@baton/testing";
import { describe, expect, it } from "vitest";
import { createChatHarness } from "./chat-harness.js";

type Harness = Awaited<ReturnType<typeof createChatHarness>>;

/** Posts a mock webhook; collects what the runtime hands to `waitUntil`. */
function webhook(h: Harness, detached: Promise<unknown>[]) {
  return (id: string, options: { threadId?: string; tenantId?: string; text?: string } = {}) =>
    h.chat.webhooks.mock?.(
      createMockWebhookRequest({
        threadId: options.threadId ?? `mock:C1:${id}`,
        message: { id, text: options.text ?? "@bot work" },
        ...(options.tenantId ? { tenantId: options.tenantId } : {}),
      }),
      { waitUntil: (task) => detached.push(task) },
    ) ?? Promise.reject(new Error("no webhook"));
}

describe("admission bound (DESIGN §7.1)", () => {
  it("rejects at the cap with 503 before writing anything, and handles the same id once capacity frees", async () => {
    const h = await createChatHarness({ maxDetached: 2, retryAfterMs: 2_500 });
    const handled: string[] = [];
    h.chat.onNewMention(async (_thread, message) => {
      await sleep(h.clock, 1_000);
      handled.push(message.id);
    });
    const detached: Promise<unknown>[] = [];
    const post = webhook(h, detached);
    expect((await post("e1")).status).toBe(200);
    expect((await post("e2")).status).toBe(200);
    const rejected = await post("e3");
    expect(rejected.status).toBe(503);
    expect(rejected.headers.get("retry-after")).toBe("3");
    expect(await h.state.get("dedupe:mock:e3")).toBeNull();
    expect(h.chat.admission.inUse).toBe(2);

    await h.clock.advance(1_000);
    await Promise.all(detached);
    expect(h.chat.admission.inUse).toBe(0);
    expect((await post("e3")).status).toBe(200);
    await h.clock.advance(1_000);
    await Promise.all(detached);
    expect(handled.sort()).toEqual(["e1", "e2", "e3"]);
  });

  it("rejects one tenant at its own cap while another tenant is admitted", async () => {
    const h = await createChatHarness({ maxDetachedPerTenant: 1 });
    h.chat.onNewMention(async () => {
      await sleep(h.clock, 1_000);
    });
    const detached: Promise<unknown>[] = [];
    const post = webhook(h, detached);
    expect((await post("a1", { tenantId: "T-A" })).status).toBe(200);
    expect((await post("a2", { tenantId: "T-A" })).status).toBe(503);
    expect((await post("b1", { tenantId: "T-B" })).status).toBe(200);
    expect(h.chat.admission.activeTenants).toBe(2);
    await h.clock.advance(1_000);
    await Promise.all(detached);
    expect(h.chat.admission.activeTenants).toBe(0);
  });

  it("counts queued waiters until their run ends, and returns to 0 after 5 000 deliveries with random outcomes", async () => {
    const h = await createChatHarness({
      concurrency: { strategy: "queue", maxQueueSize: 3, queueEntryTtlMs: 400 },
      maxDetached: 10_000,
    });
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    h.chat.onNewMention(async (_thread, message) => {
      if (message.text.includes("slow")) await sleep(h.clock, 300);
      if (message.text.includes("fail")) throw new Error("handler failed on purpose");
    });
    const deliveries: Promise<unknown>[] = [];
    let peak = 0;
    for (let i = 0; i < 5_000; i += 1) {
      const roll = random();
      const id = roll < 0.1 && i > 0 ? `d${i - 1}` : `d${i}`;
      const text =
        roll < 0.3
          ? "@bot slow"
          : roll < 0.4
            ? "@bot fail"
            : roll < 0.45
              ? "no mention"
              : "@bot hi";
      const author = roll > 0.97 ? { isMe: true } : {};
      const threadId = `mock:C1:T${i % 7}`;
      const message = createTestMessage({ id, text, threadId, author });
      deliveries.push(h.chat.processMessage(h.adapter, threadId, message).catch(() => undefined));
      peak = Math.max(peak, h.chat.admission.inUse);
      if (i % 50 === 0) await h.clock.advance(100);
    }
    await h.clock.advance(10_000);
    await Promise.all(deliveries);
    expect(peak).toBeGreaterThan(1);
    expect(h.chat.admission.inUse).toBe(0);
    expect(h.chat.admission.activeTenants).toBe(0);
  }, 120_000);
});
