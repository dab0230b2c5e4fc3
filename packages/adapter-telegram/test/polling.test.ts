import { ConfigError } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTelegramAdapter, pollOffsetKey } from "../src/index.js";
import { startFakeTelegram, TelegramUpdateBuilder } from "../src/testing/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const POLLING = { timeout: 0, retryDelayMs: 100, leaseTtlMs: 3_000 };

async function harness(
  ...args: Parameters<typeof createTelegramHarness>
): Promise<TelegramHarness> {
  const h = await createTelegramHarness(...args);
  cleanups.push(h.close);
  return h;
}

/** Advances the fake clock in poll-sized steps until `done()` holds. */
async function pollUntil(
  h: { clock: { advance(ms: number): Promise<void> } },
  done: () => boolean,
) {
  for (let step = 0; step < 200 && !done(); step += 1) {
    await h.clock.advance(100);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(done()).toBe(true);
}

describe("TelegramAdapter", () => {
  it("throws when polling starts before initialize", async () => {
    const fake = await startFakeTelegram();
    cleanups.push(() => fake.close());
    const adapter = createTelegramAdapter({
      botToken: fake.token,
      apiUrl: fake.url,
      mode: "webhook",
    });
    await expect(adapter.listen()).rejects.toThrow(ConfigError);
    expect(fake.requests).toEqual([]);
  });

  it("can reset webhook explicitly", async () => {
    const h = await harness();
    await h.adapter.setWebhook("https://bot.example.com/api/telegram", {
      allowedUpdates: ["message"],
    });
    expect(h.fake.webhookUrl).toBe("https://bot.example.com/api/telegram");
    expect(h.fake.calls("setWebhook")[0]?.params).toMatchObject({
      secret_token: "test-secret_token",
      allowed_updates: ["message"],
    });
    await h.adapter.resetWebhook({ dropPendingUpdates: true });
    expect(h.fake.webhookUrl).toBe("");
    expect(h.fake.calls("deleteWebhook")[0]?.params).toEqual({ drop_pending_updates: true });
  });

  it("starts polling, advances offset, and stops cleanly", async () => {
    const h = await harness({ mode: "polling", longPolling: POLLING });
    const seen: string[] = [];
    h.chat.onDirectMessage((_t, m) => {
      seen.push(m.text);
    });
    const first = h.updates.message("one");
    h.fake.enqueueUpdate(first);
    h.fake.enqueueUpdate(h.updates.message("two"));
    await pollUntil(h, () => seen.length === 2);
    expect(seen).toEqual(["one", "two"]);
    expect(await h.state.get(pollOffsetKey(String(h.fake.botId)))).toBe(first.update_id + 2);
    await h.adapter.stopPolling();
    expect(h.adapter.isPolling).toBe(false);
    const calls = h.fake.calls("getUpdates").length;
    h.fake.enqueueUpdate(h.updates.message("after stop"));
    await h.clock.advance(1_000);
    expect(h.fake.calls("getUpdates").length).toBe(calls);
    expect(seen).toEqual(["one", "two"]);
  });

  it("mode polling starts polling during initialize", async () => {
    const h = await harness({ mode: "polling", longPolling: POLLING });
    await expect.poll(() => h.fake.calls("getUpdates").length).toBeGreaterThan(0);
    expect(h.fake.calls("deleteWebhook")).toHaveLength(1);
    expect(h.adapter.isPolling).toBe(true);
  });

  it("auto mode starts polling when webhook URL is missing", async () => {
    const h = await harness({ mode: "auto", longPolling: POLLING });
    expect(h.fake.calls("getWebhookInfo")).toHaveLength(1);
    await expect.poll(() => h.fake.calls("getUpdates").length).toBeGreaterThan(0);
  });

  it("defaults to auto mode and uses default long polling settings", () => {
    const adapter = createTelegramAdapter({ botToken: "1:a" });
    expect(adapter.options.mode).toBe("auto");
    expect(adapter.options.longPolling).toMatchObject({
      timeout: 30,
      limit: 100,
      deleteWebhook: true,
    });
  });

  it("auto mode stays in webhook mode when webhook URL exists", async () => {
    const fake = await startFakeTelegram();
    fake.webhookUrl = "https://bot.example.com/api/telegram";
    cleanups.push(() => fake.close());
    const h = await harness({ mode: "auto", longPolling: POLLING }, {}, { fake });
    expect(h.fake.calls("getWebhookInfo")).toHaveLength(1);
    expect(h.fake.calls("getUpdates")).toHaveLength(0);
    expect(h.adapter.isPolling).toBe(false);
  });

  it("auto mode stays in webhook mode on serverless runtime", async () => {
    vi.stubEnv("VERCEL", "1");
    const h = await harness({ mode: "auto", longPolling: POLLING });
    expect(h.fake.calls("getWebhookInfo")).toHaveLength(0);
    expect(h.fake.calls("getUpdates")).toHaveLength(0);
  });

  it("auto mode stays in webhook mode when getWebhookInfo fails", async () => {
    const fake = await startFakeTelegram();
    fake.failNext("getWebhookInfo", { error_code: 500, description: "Internal Server Error" });
    cleanups.push(() => fake.close());
    const h = await harness({ mode: "auto", longPolling: POLLING }, {}, { fake });
    expect(h.fake.calls("getUpdates")).toHaveLength(0);
  });
});

describe("long polling on several instances", () => {
  async function cluster(count: number) {
    const fake = await startFakeTelegram();
    cleanups.push(() => fake.close());
    const clock = createFakeClock();
    const state = createMemoryState({ clock });
    const handled: string[] = [];
    const instances: TelegramHarness[] = [];
    for (let index = 0; index < count; index += 1) {
      const h = await harness(
        { mode: "polling", longPolling: POLLING },
        {},
        { fake, state, clock },
      );
      h.chat.onDirectMessage((_t, m) => {
        handled.push(`${index}:${m.text}`);
      });
      instances.push(h);
    }
    return {
      fake,
      clock,
      state,
      handled,
      instances,
      updates: new TelegramUpdateBuilder(fake.botUserName),
    };
  }

  it("lets exactly one instance poll at a time, the others standing by", async () => {
    const c = await cluster(3);
    for (const text of ["a", "b", "c", "d"]) c.fake.enqueueUpdate(c.updates.message(text));
    await pollUntil(c, () => c.handled.length === 4);
    const pollers = c.instances.filter((h) => h.adapter.isPolling);
    expect(pollers).toHaveLength(1);
    const holder = c.instances.indexOf(pollers[0] as TelegramHarness);
    expect(c.handled).toEqual(["a", "b", "c", "d"].map((text) => `${holder}:${text}`));
    expect(c.fake.pollConflicts).toBe(0);
  });

  it("hands polling over within one lease TTL when the holder dies, nothing lost or repeated", async () => {
    const c = await cluster(2);
    c.fake.enqueueUpdate(c.updates.message("before"));
    await pollUntil(c, () => c.handled.length === 1);
    const holder = c.instances.findIndex((h) => h.adapter.isPolling);
    const successor = 1 - holder;
    // The holder dies: it stops without releasing its lease, as a killed process would.
    await c.instances[holder]?.adapter.stopPolling({ releaseLease: false });
    c.fake.enqueueUpdate(c.updates.message("during"));
    c.fake.enqueueUpdate(c.updates.message("after"));
    const diedAt = c.clock.now();
    await pollUntil(c, () => c.handled.length === 3);
    expect(c.clock.now() - diedAt).toBeLessThanOrEqual(
      POLLING.leaseTtlMs + 2 * POLLING.retryDelayMs + 1_000,
    );
    expect(c.instances[successor]?.adapter.isPolling).toBe(true);
    expect(c.handled).toEqual([`${holder}:before`, `${successor}:during`, `${successor}:after`]);
  });

  it("keeps the offset in the State, so an update accepted before a crash is not fetched again", async () => {
    const c = await cluster(1);
    const first = c.updates.message("first");
    c.fake.enqueueUpdate(first);
    await pollUntil(c, () => c.handled.length === 1);
    const offset = await c.state.get(pollOffsetKey(String(c.fake.botId)));
    expect(offset).toBe(first.update_id + 1);
    await c.instances[0]?.adapter.stopPolling({ releaseLease: false });
    // A new instance after the crash continues from the stored offset.
    const next = await harness(
      { mode: "polling", longPolling: POLLING },
      {},
      { fake: c.fake, state: c.state, clock: c.clock },
    );
    const seen: string[] = [];
    next.chat.onDirectMessage((_t, m) => {
      seen.push(m.text);
    });
    c.fake.enqueueUpdate(c.updates.message("second"));
    await pollUntil(c, () => seen.length === 1);
    expect(seen).toEqual(["second"]);
    const offsets = c.fake
      .calls("getUpdates")
      .map((call) => call.params.offset)
      .filter((o) => o !== undefined);
    expect(offsets.every((o) => Number(o) >= first.update_id + 1)).toBe(true);
  });

  it("does not advance the offset past an update the Chat did not accept", async () => {
    const c = await cluster(1);
    const h = c.instances[0] as TelegramHarness;
    const update = c.updates.message("retry me");
    c.fake.failNext("sendChatAction", { error_code: 500, description: "Internal Server Error" });
    // The State refuses the claim once: the update is not accepted, so polling fetches it again.
    const original = c.state.setIfNotExists.bind(c.state);
    let refused = false;
    c.state.setIfNotExists = async (...args) => {
      if (!refused) {
        refused = true;
        throw new Error("state unreachable");
      }
      return original(...args);
    };
    c.fake.enqueueUpdate(update);
    await pollUntil(c, () => c.handled.length === 1);
    expect(c.handled).toEqual(["0:retry me"]);
    expect(
      h.fake.calls("getUpdates").filter((call) => call.params.offset === undefined).length,
    ).toBeGreaterThanOrEqual(2);
  });
});

describe("an update claimed by an instance that died before accepting it", () => {
  it("is not lost: the poller keeps its offset until the pending claim expires, then runs it once", async () => {
    const h = await harness({ mode: "polling", longPolling: POLLING });
    const seen: string[] = [];
    h.chat.onDirectMessage((_t, m) => {
      seen.push(m.text);
    });
    const update = h.updates.message("orphaned");
    // What a process killed between claiming and accepting leaves behind.
    await h.state.setIfNotExists(
      `telegram:update:${h.fake.botId}:${update.update_id}`,
      "pending",
      60_000,
    );
    h.fake.enqueueUpdate(update);
    for (let step = 0; step < 10; step += 1) {
      await h.clock.advance(100);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(seen).toEqual([]);
    expect(await h.state.get(pollOffsetKey(String(h.fake.botId)))).toBeNull();
    await h.clock.advance(60_000);
    await pollUntil(h, () => seen.length === 1);
    expect(seen).toEqual(["orphaned"]);
    await h.clock.advance(1_000);
    expect(seen).toEqual(["orphaned"]);
  });

  it("answers a webhook for it 503, so Telegram delivers it again later", async () => {
    const h = await harness();
    const update = h.updates.message("in flight elsewhere");
    await h.state.setIfNotExists(
      `telegram:update:${h.fake.botId}:${update.update_id}`,
      "pending",
      60_000,
    );
    const response = await h.deliver(update);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
  });
});
