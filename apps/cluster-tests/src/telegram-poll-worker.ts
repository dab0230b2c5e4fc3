import { createTelegramAdapter } from "@baton/adapter-telegram";
import { Chat } from "@baton/core";
import { createRedisState } from "@baton/state-redis";

// One Telegram bot instance in its own process, long polling the parent's fake Bot API through
// a Chat on the shared Redis; it reports every message its handler ran over IPC.

interface TelegramWorkerConfig {
  readonly name: string;
  readonly apiUrl: string;
  readonly botToken: string;
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly leaseTtlMs: number;
}

const raw = process.env.BATON_TELEGRAM_WORKER_CONFIG;
if (!raw) throw new Error("BATON_TELEGRAM_WORKER_CONFIG is not set");
const config = JSON.parse(raw) as TelegramWorkerConfig;

const telegram = createTelegramAdapter({
  botToken: config.botToken,
  apiUrl: config.apiUrl,
  userName: "baton_test_bot",
  mode: "polling",
  longPolling: { timeout: 1, retryDelayMs: 100, leaseTtlMs: config.leaseTtlMs },
});
const chat = new Chat({
  userName: "baton_test_bot",
  adapters: { telegram },
  state: createRedisState({ url: config.redisUrl, keyPrefix: config.keyPrefix, timeoutMs: 2_000 }),
  logger: "silent",
  dispatch: "sync",
});
chat.onDirectMessage((_thread, message) => {
  process.send?.({ type: "handled", worker: config.name, text: message.text });
});

process.on("message", async (message: { type: string }) => {
  if (message.type === "stop") {
    await chat.shutdown();
    process.exit(0);
  }
});

await chat.initialize();
process.send?.({ type: "ready", worker: config.name });
