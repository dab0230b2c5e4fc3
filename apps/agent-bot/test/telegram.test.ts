import { createTelegramAdapter } from "@baton/adapter-telegram";
import {
  createTelegramWebhookRequest,
  type FakeTelegram,
  startFakeTelegram,
  TelegramUpdateBuilder,
} from "@baton/adapter-telegram/testing";
import { TELEGRAM_PATH } from "@baton/bot-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices } from "../src/bot.js";
import type { AgentServer } from "../src/server.js";
import { type DrivenModel, eventually, startAgentOn } from "./platform-harness.js";

const SECRET = "agent-secret";
const CHAT = 7527593;

describe("the agent bot on Telegram (offline fake Bot API)", () => {
  let fake: FakeTelegram;
  let server: AgentServer;
  let model: DrivenModel;
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
    ({ server, ...model } = await startAgentOn(telegram, TELEGRAM_PATH));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const deliver = async (update: unknown) => {
    const request = createTelegramWebhookRequest({ update, secretToken: SECRET } as never);
    const response = await fetch(`${server.url}${TELEGRAM_PATH}`, {
      method: "POST",
      headers: request.headers,
      body: await request.text(),
    });
    expect(response.status).toBe(200);
  };
  const texts = () => fake.sentTo(CHAT).map((message) => message.text ?? "");

  it("streams an answer that read the conversation into a private chat, by post and edit", async () => {
    await deliver(updates.message("what is Baton?"));
    await eventually(texts, (seen) => seen.some((text) => text.startsWith("Answering")));
    await model.finish();
    const seen = await eventually(texts, (all) => all.some((t) => /deterministic/.test(t)));
    const answer = seen.find((text) => /deterministic/.test(text));
    expect(answer).toMatch(/^I read the last [1-9]\d* messages.*You asked: "what is Baton\?"/s);
    await eventually(texts, (all) => all.includes(notices.answered));
  });

  it("stops an answer mid-stream when the Stop button is tapped", async () => {
    const before = fake.sentTo(CHAT).length;
    await deliver(updates.message("tell me everything"));
    const control = await eventually(
      () =>
        fake
          .sentTo(CHAT)
          .slice(before)
          .find((m) => m.text?.startsWith("Answering")),
      (found) => found !== undefined,
    );
    await model.write(8);
    const markup = control?.reply_markup as {
      inline_keyboard: Array<Array<{ callback_data: string }>>;
    };
    const data = markup.inline_keyboard[0]?.[0]?.callback_data;
    expect(data).toBeDefined();
    await deliver(
      updates.callbackQuery(data, {
        message_id: control?.message_id,
        chat: { id: CHAT, type: "private" },
        date: 1_767_225_600,
        text: control?.text,
      }),
    );
    // The stop ends the stream with no further word: wait for it in real time, then let the
    // model's clock run on to show that nothing more is said.
    const seen = await eventually(texts, (all) => all.slice(before).includes(notices.stopped));
    await model.tick(100);
    const answer = seen.slice(before).find((text) => text.startsWith("I read the last"));
    expect(answer).toBeDefined();
    expect(answer).not.toMatch(/deterministic/);
  });
});
