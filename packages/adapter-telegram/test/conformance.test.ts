import { describeAdapter } from "@baton/conformance";
import type { Adapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import {
  createTelegramAdapter,
  type TelegramAdapter,
  type TelegramThreadData,
} from "../src/index.js";
import {
  createTelegramWebhookRequest,
  type FakeTelegram,
  startFakeTelegram,
  TelegramUpdateBuilder,
} from "../src/testing/index.js";
import { SECRET } from "./telegram-harness.js";

const fakes = new WeakMap<Adapter<TelegramThreadData>, FakeTelegram>();
const builder = new TelegramUpdateBuilder();

/** Delivers a webhook with a message from `from` in the thread, as Telegram would. */
async function deliver(
  adapter: Adapter<TelegramThreadData>,
  threadId: string,
  text: string,
  from: { id: number; is_bot: boolean; first_name: string; username?: string },
) {
  const { chatId, messageThreadId } = adapter.decodeThreadId(threadId);
  const id = Number(chatId);
  const chat =
    id > 0
      ? { id, type: "private" as const, first_name: "Test" }
      : {
          id,
          type: "supergroup" as const,
          title: "Group",
          ...(messageThreadId ? { is_forum: true } : {}),
        };
  const update = builder.message(text, {
    chat,
    from,
    ...(messageThreadId === undefined ? {} : { topicId: messageThreadId }),
  });
  const response = await adapter.handleWebhook(
    createTelegramWebhookRequest({ update, secretToken: SECRET }),
  );
  if (!response.ok)
    throw new Error(`the webhook answered ${response.status}: ${await response.text()}`);
  return response;
}

describeAdapter<TelegramThreadData>("telegram", {
  create: async (): Promise<TelegramAdapter> => {
    const fake = await startFakeTelegram();
    const adapter = createTelegramAdapter({
      botToken: fake.token,
      secretToken: SECRET,
      userName: fake.botUserName,
      apiUrl: fake.url,
      mode: "webhook",
    });
    fakes.set(adapter, fake);
    return adapter;
  },
  createState: () => createMemoryState(),
  threads: [
    { chatId: "7527593" },
    { chatId: "-1001234567890" },
    { chatId: "-1009876543210", messageThreadId: 42 },
  ],
  deliverUserMessage: (adapter, threadId, text) =>
    deliver(adapter, threadId, text, {
      id: 7527593,
      is_bot: false,
      first_name: "Test",
      username: "test_user",
    }),
  deliverSelfMessage: (adapter, threadId, text) => {
    const fake = fakes.get(adapter);
    if (fake === undefined) throw new Error("no fake Telegram for this adapter");
    return deliver(adapter, threadId, text, {
      id: fake.botId,
      is_bot: true,
      first_name: "Bot",
      username: fake.botUserName,
    });
  },
  userIn: (adapter, threadId) => {
    const { chatId } = adapter.decodeThreadId(threadId);
    return Number(chatId) > 0 ? chatId : "7527593";
  },
  dispose: async (adapter) => {
    await fakes.get(adapter)?.close();
  },
});
