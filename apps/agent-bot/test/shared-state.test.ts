import { randomUUID } from "node:crypto";
import { createTelegramAdapter } from "@baton/adapter-telegram";
import {
  createTelegramWebhookRequest,
  startFakeTelegram,
  TelegramUpdateBuilder,
} from "@baton/adapter-telegram/testing";
import { stateFromEnv, TELEGRAM_PATH } from "@baton/bot-env";
import { describe, expect, it } from "vitest";
import { notices } from "../src/bot.js";
import { eventually, startAgentOn } from "./platform-harness.js";

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent } as never;
const CHAT = 7527593;

describe.each([
  ["Redis", { BATON_REDIS_URL: "redis://127.0.0.1:6379" }, "redis"],
  ["Postgres", { BATON_POSTGRES_URL: "postgres://postgres@127.0.0.1:5432/test" }, "postgres"],
])("the agent bot on real %s State, chosen from the environment", (_name, env, kind) => {
  it("answers on Telegram through the shared State, and stops a running answer", async () => {
    const chosen = stateFromEnv(env, silent, `agent-bot-test-${randomUUID()}`);
    expect(chosen.kind).toBe(kind);
    const fake = await startFakeTelegram();
    const updates = new TelegramUpdateBuilder(fake.botUserName);
    const telegram = createTelegramAdapter({
      botToken: fake.token,
      secretToken: "s",
      userName: fake.botUserName,
      apiUrl: fake.url,
      mode: "webhook",
    });
    const { server, ...model } = await startAgentOn(telegram, TELEGRAM_PATH, chosen.state);
    try {
      const request = createTelegramWebhookRequest({
        update: updates.message("what is Baton?"),
        secretToken: "s",
      } as never);
      await fetch(`${server.url}${TELEGRAM_PATH}`, {
        method: "POST",
        headers: request.headers,
        body: await request.text(),
      });
      const texts = () => fake.sentTo(CHAT).map((message) => message.text ?? "");
      await eventually(texts, (seen) => seen.some((text) => text.startsWith("Answering")));
      await model.write(6);
      await eventually(texts, (seen) => seen.some((text) => text.startsWith("I read the last")));
      expect(await server.bot.stop(`telegram:${CHAT}`)).toBe(true);
      await eventually(texts, (all) => all.includes(notices.stopped));
      await model.tick(100);
      const answer = texts().find((text) => text.startsWith("I read the last"));
      expect(answer).toBeDefined();
      expect(answer).not.toMatch(/deterministic/);
    } finally {
      await server.close();
      await fake.close();
    }
  });
});
