import { Chat, type ChatConfig, type StateAdapter, type WebhookOptions } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock, type FakeClock } from "@baton/testing";
import { createTelegramAdapter, type TelegramAdapterConfig } from "../src/index.js";
import {
  createTelegramWebhookRequest,
  type FakeTelegram,
  startFakeTelegram,
  TelegramUpdateBuilder,
} from "../src/testing/index.js";

/** The secret token the harness's webhook is set up with. */
export const SECRET = "test-secret_token";

/**
 * A Chat with the Telegram adapter against the offline fake Bot API, on the real memory State
 * and a fake clock, webhook mode. `deliver(update)` posts a webhook exactly as Telegram would;
 * detached event handlers are collected and awaited by `settle()`.
 */
export async function createTelegramHarness(
  config:
    | Partial<TelegramAdapterConfig>
    | ((fake: FakeTelegram) => Partial<TelegramAdapterConfig>) = {},
  chatOptions: Partial<Omit<ChatConfig, "adapters" | "state">> = {},
  shared: { fake?: FakeTelegram; state?: StateAdapter; clock?: FakeClock } = {},
) {
  const fake = shared.fake ?? (await startFakeTelegram());
  const clock = shared.clock ?? createFakeClock();
  const adapter = createTelegramAdapter({
    botToken: fake.token,
    secretToken: SECRET,
    userName: fake.botUserName,
    apiUrl: fake.url,
    mode: "webhook",
    clock,
    ...(typeof config === "function" ? config(fake) : config),
  });
  const state = shared.state ?? createMemoryState({ clock });
  const chat = new Chat({
    userName: fake.botUserName,
    adapters: { telegram: adapter },
    state,
    logger: "silent",
    clock,
    dispatch: "sync",
    ...chatOptions,
  });
  await chat.initialize();
  const entry = chat.webhooks.telegram;
  if (entry === undefined) throw new Error("the Chat has no telegram webhook");
  const tasks: Promise<unknown>[] = [];
  const options: WebhookOptions = { waitUntil: (task) => tasks.push(task) };
  const updates = new TelegramUpdateBuilder(fake.botUserName);
  return {
    fake,
    adapter,
    chat,
    state,
    clock,
    updates,
    webhook: (request: Request) => entry(request, options),
    deliver: (update: unknown, secretToken: string | null = SECRET) =>
      entry(createTelegramWebhookRequest({ update, secretToken }), options),
    /** Waits for every detached handler started so far. */
    settle: async () => {
      while (tasks.length > 0) await Promise.all(tasks.splice(0));
    },
    close: async () => {
      await chat.shutdown();
      if (shared.fake === undefined) await fake.close();
    },
  };
}

export type TelegramHarness = Awaited<ReturnType<typeof createTelegramHarness>>;
