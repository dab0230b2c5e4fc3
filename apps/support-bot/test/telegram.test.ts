import { createTelegramAdapter } from "@baton/adapter-telegram";
import {
  createTelegramWebhookRequest,
  type FakeTelegram,
  startFakeTelegram,
  TelegramUpdateBuilder,
} from "@baton/adapter-telegram/testing";
import { platformsFromEnv, TELEGRAM_PATH } from "@baton/bot-env";
import { createMemoryState } from "@baton/state-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantAnswer, replies } from "../src/replies.js";
import { type SupportServer, startSupportServer } from "../src/server.js";

const SECRET = "support-secret";
const CUSTOMER_CHAT = 7527593;

/** Waits (real time: the bot answers after the webhook, over a real socket) for `predicate`. */
async function eventually<T>(read: () => T, predicate: (value: T) => boolean): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 10) {
    const value = read();
    if (predicate(value)) return value;
    if (waitedMs > 15_000) throw new Error(`gave up waiting; last seen ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the support bot on Telegram (offline fake Bot API)", () => {
  let fake: FakeTelegram;
  let server: SupportServer;
  let updates: TelegramUpdateBuilder;

  beforeAll(async () => {
    fake = await startFakeTelegram();
    updates = new TelegramUpdateBuilder(fake.botUserName);
    const telegram = createTelegramAdapter({
      botToken: fake.token,
      secretToken: SECRET,
      userName: fake.botUserName,
      apiUrl: fake.url,
      mode: "webhook",
    });
    server = await startSupportServer({
      state: createMemoryState(),
      agentIds: ["sam"],
      port: 0,
      logger: "silent",
      platforms: [{ adapter: telegram, path: TELEGRAM_PATH, description: "Telegram (fake)" }],
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const send = async (text: string, secretToken: string | null = SECRET) => {
    const request = createTelegramWebhookRequest({ update: updates.message(text), secretToken });
    return fetch(`${server.url}${TELEGRAM_PATH}`, {
      method: "POST",
      headers: request.headers,
      body: await request.text(),
    });
  };

  it("answers a customer's private message on Telegram", async () => {
    expect((await send("where is my parcel?")).status).toBe(200);
    const texts = await eventually(
      () => fake.sentTo(CUSTOMER_CHAT).map((message) => message.text),
      (seen) => seen.length >= 2,
    );
    expect(texts).toEqual([replies.welcome, assistantAnswer("where is my parcel?", 1)]);
  });

  it("refuses a Telegram webhook without the secret token", async () => {
    expect((await send("hi", "forged")).status).toBe(401);
  });

  it("runs on Telegram when TELEGRAM_BOT_TOKEN is set, polling unless told otherwise", () => {
    const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent } as never;
    const [polling] = platformsFromEnv({ TELEGRAM_BOT_TOKEN: "1:token" }, silent);
    expect(polling?.description).toBe("Telegram (polling)");
    const [hooked] = platformsFromEnv(
      { TELEGRAM_BOT_TOKEN: "1:token", TELEGRAM_MODE: "webhook" },
      silent,
    );
    expect(hooked?.description).toBe("Telegram (webhook)");
    expect(platformsFromEnv({}, silent)).toEqual([]);
  });
});
