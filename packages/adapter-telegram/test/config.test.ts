import { ConfigError, ValidationError } from "@baton/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTelegramAdapter, resolveTelegramOptions } from "../src/index.js";
import {
  createTelegramWebhookRequest,
  type FakeTelegram,
  startFakeTelegram,
} from "../src/testing/index.js";
import { createTelegramHarness, SECRET, type TelegramHarness } from "./telegram-harness.js";

const ENV = [
  "TELEGRAM_BOT_TOKEN",
  "TELEGRAM_WEBHOOK_SECRET_TOKEN",
  "TELEGRAM_BOT_USERNAME",
  "TELEGRAM_API_BASE_URL",
  "TELEGRAM_ALLOWED_USER_IDS",
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function clearEnv() {
  for (const name of ENV) vi.stubEnv(name, "");
}

async function harness(
  config: Parameters<typeof createTelegramHarness>[0],
): Promise<TelegramHarness> {
  const h = await createTelegramHarness(config);
  cleanups.push(h.close);
  return h;
}

async function fake(): Promise<FakeTelegram> {
  const started = await startFakeTelegram();
  cleanups.push(() => started.close());
  return started;
}

describe("createTelegramAdapter", () => {
  it("throws when bot token is missing", () => {
    clearEnv();
    expect(() => createTelegramAdapter({})).toThrow(ConfigError);
    expect(() => createTelegramAdapter({})).toThrow(/botToken/);
  });

  it("uses env vars when config is omitted", () => {
    clearEnv();
    vi.stubEnv("TELEGRAM_BOT_TOKEN", "123:env-token");
    vi.stubEnv("TELEGRAM_BOT_USERNAME", "env_bot");
    const adapter = createTelegramAdapter();
    expect(adapter.options.botToken).toBe("123:env-token");
    expect(adapter.userName).toBe("env_bot");
    expect(adapter.botUserId).toBe("123");
  });

  it("accepts an async bot token resolver", async () => {
    const h = await harness({});
    const adapter = createTelegramAdapter({
      botToken: async () => h.fake.token,
      apiUrl: h.fake.url,
      mode: "webhook",
    });
    await adapter.initialize(h.chat as never);
    await adapter.postMessage("telegram:7527593", "hello");
    expect(h.fake.sentTo(7527593).map((m) => m.text)).toEqual(["hello"]);
  });
});

describe("constructor env var resolution", () => {
  it("should throw when botToken is missing and env var not set", () => {
    expect(() => resolveTelegramOptions({}, {})).toThrow(ConfigError);
  });

  it("should resolve botToken from TELEGRAM_BOT_TOKEN env var", () => {
    expect(resolveTelegramOptions({}, { TELEGRAM_BOT_TOKEN: "1:a" }).botToken).toBe("1:a");
  });

  it("should resolve secretToken from TELEGRAM_WEBHOOK_SECRET_TOKEN env var", () => {
    const options = resolveTelegramOptions(
      {},
      { TELEGRAM_BOT_TOKEN: "1:a", TELEGRAM_WEBHOOK_SECRET_TOKEN: "s3cret" },
    );
    expect(options.secretToken).toBe("s3cret");
  });

  it("should resolve userName from TELEGRAM_BOT_USERNAME env var", () => {
    const options = resolveTelegramOptions(
      {},
      { TELEGRAM_BOT_TOKEN: "1:a", TELEGRAM_BOT_USERNAME: "my_bot" },
    );
    expect(options.userName).toBe("my_bot");
  });

  it("should resolve apiBaseUrl from TELEGRAM_API_BASE_URL env var", () => {
    const options = resolveTelegramOptions(
      {},
      { TELEGRAM_BOT_TOKEN: "1:a", TELEGRAM_API_BASE_URL: "http://127.0.0.1:8081/" },
    );
    expect(options.apiUrl).toBe("http://127.0.0.1:8081");
  });

  it("should resolve allowedUserIds from TELEGRAM_ALLOWED_USER_IDS env var", () => {
    const options = resolveTelegramOptions(
      {},
      { TELEGRAM_BOT_TOKEN: "1:a", TELEGRAM_ALLOWED_USER_IDS: "11, 22" },
    );
    expect([...(options.allowedUserIds ?? [])]).toEqual(["11", "22"]);
  });

  it("should allow all users when TELEGRAM_ALLOWED_USER_IDS is empty", () => {
    const options = resolveTelegramOptions(
      {},
      { TELEGRAM_BOT_TOKEN: "1:a", TELEGRAM_ALLOWED_USER_IDS: "" },
    );
    expect(options.allowedUserIds).toBeUndefined();
  });

  it("should accept apiUrl config and prefer it over apiBaseUrl", () => {
    const options = resolveTelegramOptions(
      { botToken: "1:a", apiUrl: "http://a.example", apiBaseUrl: "http://b.example" },
      {},
    );
    expect(options.apiUrl).toBe("http://a.example");
  });

  it("should fall back to apiBaseUrl when apiUrl is not set", () => {
    expect(
      resolveTelegramOptions({ botToken: "1:a", apiBaseUrl: "http://b.example" }, {}).apiUrl,
    ).toBe("http://b.example");
  });

  it("should default logger when not provided", async () => {
    const h = await harness({});
    expect(h.adapter.options.logger).toBeUndefined();
    // Without a logger of its own the adapter logs through the Chat's; posting works either way.
    await expect(h.adapter.postMessage("telegram:7527593", "hi")).resolves.toMatchObject({
      threadId: "telegram:7527593",
    });
  });

  it("should prefer config values over env vars", () => {
    const options = resolveTelegramOptions(
      { botToken: "1:config", secretToken: "config", userName: "config_bot" },
      {
        TELEGRAM_BOT_TOKEN: "1:env",
        TELEGRAM_WEBHOOK_SECRET_TOKEN: "env",
        TELEGRAM_BOT_USERNAME: "env_bot",
      },
    );
    expect([options.botToken, options.secretToken, options.userName]).toEqual([
      "1:config",
      "config",
      "config_bot",
    ]);
  });

  it("names every bad field in one ConfigError", () => {
    const attempt = () =>
      resolveTelegramOptions(
        {
          botToken: "1:a",
          mode: "sometimes" as never,
          apiUrl: "ftp://x",
          streamingEditIntervalMs: -1,
          allowedUserIds: ["abc"],
        },
        {},
      );
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join("\n");
      for (const field of ["mode", "apiUrl", "streamingEditIntervalMs", "allowedUserIds"]) {
        expect(problems).toContain(field);
      }
    }
  });
});

describe("bot token resolver", () => {
  it("resolves a fresh token for each Bot API request", async () => {
    const h = await harness({});
    let calls = 0;
    const adapter = createTelegramAdapter({
      botToken: () => {
        calls += 1;
        return h.fake.token;
      },
      apiUrl: h.fake.url,
      userName: h.fake.botUserName,
      mode: "webhook",
    });
    await adapter.initialize(h.chat as never);
    await adapter.postMessage("telegram:7527593", "one");
    await adapter.postMessage("telegram:7527593", "two");
    expect(calls).toBe(2);
  });

  it("rejects an empty resolved token before calling Telegram", async () => {
    const telegram = await fake();
    const adapter = createTelegramAdapter({
      botToken: async () => " ",
      apiUrl: telegram.url,
      mode: "webhook",
    });
    await expect(adapter.startTyping("telegram:7527593")).rejects.toThrow(ValidationError);
    expect(telegram.requests).toEqual([]);
  });

  it("resolves the token again when downloading a file", async () => {
    const h = await harness({});
    let calls = 0;
    const adapter = createTelegramAdapter({
      botToken: () => {
        calls += 1;
        return h.fake.token;
      },
      apiUrl: h.fake.url,
      mode: "webhook",
    });
    const fileId = h.fake.addFile("file bytes");
    const attachment = adapter.rehydrateAttachment({
      type: "file",
      fetchMetadata: { telegramFileId: fileId },
    });
    const data = await attachment.fetchData?.();
    expect(new TextDecoder().decode(data)).toBe("file bytes");
    // One resolution for getFile, one for the download URL.
    expect(calls).toBe(2);
  });

  it("scopes webhook deduplication with the stable bot identity", async () => {
    const h = await harness({});
    const update = h.updates.message("hi");
    await h.deliver(update);
    expect(await h.state.get(`telegram:update:${h.fake.botId}:${update.update_id}`)).toBe("done");
  });

  it("keeps the webhook scope stable across token rotation and instances", async () => {
    const h = await harness({});
    const runs: string[] = [];
    h.chat.onDirectMessage((_thread, message) => {
      runs.push(message.text);
    });
    // A second instance sharing the State gets its token from a resolver (a rotated secret) and
    // learns its id from getMe: the same bot, so the same claim scope.
    const other = await createTelegramHarness(
      (fake) => ({ botToken: async () => fake.token, userName: undefined }),
      {},
      { fake: h.fake, state: h.state, clock: h.clock },
    );
    cleanups.push(other.close);
    other.chat.onDirectMessage((_thread, message) => {
      runs.push(`other ${message.text}`);
    });
    const update = h.updates.message("once");
    expect((await h.deliver(update)).status).toBe(200);
    expect((await other.deliver(update)).status).toBe(200);
    expect(runs).toEqual(["once"]);
    expect(await h.state.get(`telegram:update:${h.fake.botId}:${update.update_id}`)).toBe("done");
  });

  it("retries bot identity resolution on a later webhook", async () => {
    const h = await harness((fake) => ({ botToken: async () => fake.token, userName: undefined }));
    h.fake.failNext("getMe", { error_code: 500, description: "Internal Server Error" });
    const update = h.updates.message("first");
    expect((await h.deliver(update)).status).toBe(500);
    expect((await h.deliver(update)).status).toBe(200);
    expect(h.fake.calls("getMe")).toHaveLength(2);
    expect(h.adapter.userName).toBe(h.fake.botUserName);
  });
});
