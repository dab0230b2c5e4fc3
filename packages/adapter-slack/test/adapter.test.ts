import { ConfigError, ValidationError } from "@baton/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSlackAdapter, resolveSlackOptions, SlackAdapter } from "../src/index.js";

const base = { botToken: "xoxb-test-token", signingSecret: "test-secret" };

function adapter(extra: Record<string, unknown> = {}) {
  return createSlackAdapter({
    botToken: "xoxb-test-token",
    signingSecret: "test-secret",
    ...extra,
  });
}

describe("createSlackAdapter", () => {
  it("creates a SlackAdapter instance", () => {
    const created = adapter();
    expect(created).toBeInstanceOf(SlackAdapter);
    expect(created.name).toBe("slack");
  });

  it("sets default userName to 'bot'", () => {
    expect(adapter().userName).toBe("bot");
  });

  it("uses provided userName", () => {
    expect(adapter({ userName: "custombot" }).userName).toBe("custombot");
  });

  it("stores botUserId when provided", () => {
    expect(adapter({ botUserId: "U12345" }).botUserId).toBe("U12345");
  });
});

describe("constructor env var resolution", () => {
  const saved = { ...process.env };
  beforeEach(() => {
    for (const key of Object.keys(process.env))
      if (key.startsWith("SLACK_")) delete process.env[key];
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  it("should throw when signingSecret is missing and env var not set", () => {
    expect(() => createSlackAdapter({})).toThrow("signingSecret is required");
    expect(() => createSlackAdapter({})).toThrow(ConfigError);
  });

  it("should resolve signingSecret from SLACK_SIGNING_SECRET env var", () => {
    process.env.SLACK_SIGNING_SECRET = "env-signing-secret";
    const created = createSlackAdapter();
    expect(created).toBeInstanceOf(SlackAdapter);
    expect(created.options.signingSecret).toBe("env-signing-secret");
  });

  it("should resolve botToken from SLACK_BOT_TOKEN in zero-config mode", () => {
    process.env.SLACK_SIGNING_SECRET = "env-signing-secret";
    process.env.SLACK_BOT_TOKEN = "xoxb-env-token";
    expect(createSlackAdapter().options.botToken).toBe("xoxb-env-token");
  });

  it("keeps SLACK_BOT_TOKEN env fallback when only non-auth config is passed", () => {
    process.env.SLACK_SIGNING_SECRET = "env-signing-secret";
    process.env.SLACK_BOT_TOKEN = "xoxb-env-token";
    expect(createSlackAdapter({ userName: "mybot" }).options.botToken).toBe("xoxb-env-token");
  });

  it("disables SLACK_BOT_TOKEN env fallback when another auth field is passed", async () => {
    process.env.SLACK_BOT_TOKEN = "xoxb-env-token";
    const created = createSlackAdapter({
      signingSecret: "config-secret",
      clientId: "client-id",
      clientSecret: "client-secret",
    });
    expect(created.options.botToken).toBeUndefined();
    expect(created.isMultiWorkspace).toBe(true);
    // Outside a delivery a multi-workspace app has no token: the env token is never used.
    await expect(created.openDM("U123")).rejects.toThrow(
      /no bot token to call conversations\.open/,
    );
  });

  it("disables SLACK_BOT_TOKEN env fallback for a signingSecret-only config (multi-workspace)", async () => {
    process.env.SLACK_BOT_TOKEN = "xoxb-env-token";
    const created = createSlackAdapter({ signingSecret: "config-secret" });
    expect(created.options.botToken).toBeUndefined();
    expect(created.isMultiWorkspace).toBe(true);
    await expect(created.openDM("U123")).rejects.toThrow(/give botToken for a single workspace/);
  });

  it("reads SLACK_BOT_TOKEN when no auth field is configured, in socket mode too", () => {
    process.env.SLACK_SIGNING_SECRET = "env-signing-secret";
    process.env.SLACK_APP_TOKEN = "xapp-env";
    process.env.SLACK_BOT_TOKEN = "xoxb-env-token";
    expect(createSlackAdapter({ userName: "mybot" }).isMultiWorkspace).toBe(false);
    const socket = createSlackAdapter({ mode: "socket", appToken: "xapp-config" });
    expect(socket.options.botToken).toBe("xoxb-env-token");
    expect(socket.isMultiWorkspace).toBe(false);
  });

  it("should default logger when not provided", () => {
    process.env.SLACK_SIGNING_SECRET = "env-signing-secret";
    const created = createSlackAdapter();
    expect(created.options.logger).toBeUndefined();
    expect(created).toBeInstanceOf(SlackAdapter);
  });

  it("should prefer config values over env vars", () => {
    process.env.SLACK_SIGNING_SECRET = "env-secret";
    process.env.SLACK_BOT_TOKEN = "xoxb-env";
    const created = createSlackAdapter({ signingSecret: "config-secret", botToken: "xoxb-config" });
    expect(created.options.signingSecret).toBe("config-secret");
    expect(created.options.botToken).toBe("xoxb-config");
  });

  it("should resolve apiUrl from SLACK_API_URL env var", () => {
    process.env.SLACK_SIGNING_SECRET = "env-secret";
    process.env.SLACK_API_URL = "https://custom-slack.example.com/api/";
    const created = createSlackAdapter();
    expect(created.options.apiUrl).toBe("https://custom-slack.example.com/api/");
    expect(created.client.slackApiUrl).toBe("https://custom-slack.example.com/api/");
  });

  it("should accept apiUrl config value", () => {
    const created = adapter({ apiUrl: "https://config-slack.example.com/api" });
    expect(created.client.slackApiUrl).toBe("https://config-slack.example.com/api/");
  });

  it("reads SLACK_APP_TOKEN for socket mode and refuses socket mode without one", () => {
    expect(() => createSlackAdapter({ mode: "socket" })).toThrow(/appToken is required/);
    process.env.SLACK_APP_TOKEN = "xapp-1-env";
    const created = createSlackAdapter({ mode: "socket" });
    expect(created.options).toMatchObject({ mode: "socket", appToken: "xapp-1-env" });
    expect(created.options.signingSecret).toBeUndefined();
  });
});

describe("Slack config errors", () => {
  it("names every bad field in one ConfigError", () => {
    let error: unknown;
    try {
      resolveSlackOptions(
        {
          signingSecret: "s",
          botToken: "not-a-token",
          appToken: "xoxb-wrong",
          botUserId: "bot",
          apiUrl: "ftp://x",
          clientId: "123",
          encryptionKey: "short",
          interactionDeadlineMs: 5_000,
          mode: "polling" as never,
        },
        {},
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const field of [
      "botToken",
      "appToken",
      "botUserId",
      "apiUrl",
      "clientId and clientSecret",
      "encryptionKey",
      "interactionDeadlineMs",
      "mode",
    ]) {
      expect(problems).toContain(field);
    }
  });

  it("accepts a 32-byte encryption key as base64 or hex", () => {
    const hex = "ab".repeat(32);
    const b64 = Buffer.alloc(32, 7).toString("base64");
    expect(resolveSlackOptions({ ...base, encryptionKey: hex }, {}).encryptionKey).toBe(hex);
    expect(resolveSlackOptions({ ...base, encryptionKey: b64 }, {}).encryptionKey).toBe(b64);
  });

  it("names the missing bot token at the first Web API call", async () => {
    const options = resolveSlackOptions({}, { SLACK_SIGNING_SECRET: "s" });
    const created = new SlackAdapter(options);
    await expect(created.openDM("U123")).rejects.toThrow(
      /botToken is required to call conversations.open/,
    );
  });
});

describe("encodeThreadId", () => {
  it("encodes channel and threadTs correctly", () => {
    expect(adapter().encodeThreadId({ channel: "C12345", threadTs: "1234567890.123456" })).toBe(
      "slack:C12345:1234567890.123456",
    );
  });

  it("handles empty threadTs", () => {
    expect(adapter().encodeThreadId({ channel: "C12345", threadTs: "" })).toBe("slack:C12345:");
  });
});

describe("decodeThreadId edge cases", () => {
  it("decodes channel-only ID (no threadTs)", () => {
    expect(adapter().decodeThreadId("slack:C12345")).toEqual({ channel: "C12345", threadTs: "" });
  });

  it("throws on invalid thread ID format", () => {
    const a = adapter();
    expect(() => a.decodeThreadId("invalid")).toThrow(ValidationError);
    expect(() => a.decodeThreadId("slack")).toThrow(ValidationError);
    expect(() => a.decodeThreadId("teams:C12345:123")).toThrow(ValidationError);
    expect(() => a.decodeThreadId("slack:A:B:C:D")).toThrow(ValidationError);
  });
});

describe("isDM edge cases", () => {
  it("returns false for private channels (G prefix)", () => {
    const a = adapter();
    expect(a.isDM("slack:G12345:1234567890.123456")).toBe(false);
    expect(a.isDM("slack:D12345:1234567890.123456")).toBe(true);
    expect(a.isDM("slack:C12345:1234567890.123456")).toBe(false);
  });
});

describe("channelIdFromThreadId", () => {
  it("extracts channel ID from thread ID", () => {
    expect(adapter().channelIdFromThreadId("slack:C12345:1234567890.123456")).toBe("slack:C12345");
  });

  it("works with empty threadTs", () => {
    expect(adapter().channelIdFromThreadId("slack:C12345:")).toBe("slack:C12345");
  });
});

describe("Slack message ids", () => {
  it("accept a bare ts or Baton's team:channel:ts form, and nothing else", async () => {
    const { encodeSlackMessageId, slackTsOfMessageId } = await import("../src/index.js");
    const id = encodeSlackMessageId("T1", "C1", "1234567890.123456");
    expect(id).toBe("T1:C1:1234567890.123456");
    expect(slackTsOfMessageId(id)).toBe("1234567890.123456");
    expect(slackTsOfMessageId("1234567890.123456")).toBe("1234567890.123456");
    expect(() => slackTsOfMessageId("T1:C1:nope")).toThrow(ValidationError);
  });
});
