import { randomUUID } from "node:crypto";
import { Chat, type Logger, type Observer } from "@baton/core";
import { createRedisState } from "@baton/state-redis";
import { createMockAdapter, createTestMessage } from "@baton/testing";
import { createClient } from "redis";
import { afterEach, describe, expect, it } from "vitest";
import { REDIS_URL } from "../src/backends.js";
import { waitFor } from "../src/cluster.js";

/**
 * A State failure after a deferred ack (ADR 0015) on a real Redis: the bot connects as its own
 * ACL user, and the test revokes that user's right to run EXISTS (the subscription check done
 * before a handler runs) and later grants it back. Redis itself answers NOPERM meanwhile, so the
 * runtime sees a real server error on a real connection, for exactly as long as the test says.
 */
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  cleanup = [];
});

async function botUserOnRedis() {
  const admin = createClient({ url: REDIS_URL });
  await admin.connect();
  const user = `baton-retry-${randomUUID().slice(0, 8)}`;
  await admin.sendCommand(["ACL", "SETUSER", user, "on", "nopass", "~*", "&*", "+@all"]);
  cleanup.push(async () => {
    await admin.sendCommand(["ACL", "DELUSER", user]);
    await admin.quit();
  });
  const url = new URL(REDIS_URL);
  url.username = user;
  url.password = "unused";
  return {
    url: url.toString(),
    deny: () => admin.sendCommand(["ACL", "SETUSER", user, "-exists"]),
    allow: () => admin.sendCommand(["ACL", "SETUSER", user, "+exists"]),
    /** The bot's dedupe marks of message `id`, read with the admin connection. */
    dedupeMarks: async (keyPrefix: string, id: string) =>
      (await admin.keys(`${keyPrefix}*`)).filter(
        (key) => key.includes("dedupe") && key.includes(id),
      ),
  };
}

async function botOn(url: string, budgetMs: number) {
  const keyPrefix = `retry-${randomUUID().slice(0, 8)}`;
  const state = createRedisState({ url, keyPrefix, timeoutMs: 2_000 });
  const settled = new Map<string, string | undefined>();
  const observer: Observer = {
    onDispatchEvent: (event) => {
      if (event.kind === "settled") settled.set(event.deliveryKey, event.outcome);
    },
  };
  const retries: string[] = [];
  const quiet = () => {};
  const logger: Logger = {
    debug: quiet,
    info: quiet,
    warn: (message) => {
      if (message.includes("retrying")) retries.push(message);
    },
    error: quiet,
    child: () => logger,
  };
  const adapter = createMockAdapter("mock");
  const chat = new Chat({
    userName: "bot",
    adapters: { mock: adapter },
    state,
    logger,
    observer,
    concurrency: "concurrent",
    stateRetry: { initialDelayMs: 50, maxDelayMs: 200, budgetMs },
  });
  const handled: string[] = [];
  chat.onNewMention((_thread, message) => {
    handled.push(message.id);
  });
  await chat.initialize();
  cleanup.push(() => chat.shutdown());
  const receive = (id: string) => {
    const message = createTestMessage({ id, threadId: "mock:C1:T1", text: "@bot help" });
    return chat.receiveMessage(adapter, message.threadId, message);
  };
  return { receive, handled, settled, retries, keyPrefix };
}

describe("a State failure after a deferred ack, on a real Redis (ADR 0015)", () => {
  it("retries while Redis refuses the subscription check, and handles the message once it recovers", async () => {
    const redis = await botUserOnRedis();
    const bot = await botOn(redis.url, 60_000);
    await redis.deny();

    expect(await bot.receive("m1")).toEqual({ outcome: "accepted" });
    await waitFor("two retries against the refusing Redis", () => bot.retries.length >= 2, 20_000);
    expect(bot.handled).toEqual([]);
    expect(bot.settled.has("mock:m1")).toBe(false);

    await redis.allow();
    await waitFor("the message to settle", () => bot.settled.has("mock:m1"), 20_000);
    expect(bot.settled.get("mock:m1")).toBe("handled");
    expect(bot.handled).toEqual(["m1"]);
    // Handled: its mark stays, so a late redelivery is a duplicate.
    expect(await redis.dedupeMarks(bot.keyPrefix, "m1")).toHaveLength(1);
  }, 60_000);

  it("ends the message error, with its record and no dedupe mark, when Redis refuses past the budget", async () => {
    const redis = await botUserOnRedis();
    const bot = await botOn(redis.url, 1_000);
    await redis.deny();

    await bot.receive("m2");
    await waitFor("the message to settle", () => bot.settled.has("mock:m2"), 20_000);

    expect(bot.settled.get("mock:m2")).toBe("error");
    expect(bot.retries.length).toBeGreaterThanOrEqual(2);
    expect(bot.handled).toEqual([]);
    expect(await redis.dedupeMarks(bot.keyPrefix, "m2")).toEqual([]);
  }, 60_000);
});
