import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ChatHost, ConfigError, type StateAdapter, ValidationError } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTeamsAdapter, TeamsAdapter } from "../src/index.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const TEAMS_PREFIX_PATTERN = /^teams:/;
const WHITESPACE_START_PATTERN = /^\s/;
const WHITESPACE_END_PATTERN = /\s$/;
const SERVICE_URL = "https://smba.trafficmanager.net/teams/";

/** A ChatHost for adapter-level tests: the real memory State, nothing else used. */
function hostWith(state: StateAdapter): ChatHost {
  return {
    getState: () => state,
    getUserName: () => "bot",
    getLogger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
  } as unknown as ChatHost;
}

// Ported from upstream packages/adapter-teams/src/index.test.ts (titles verbatim).
describe("ESM compatibility", () => {
  it("all subpath imports resolve in Node.js ESM (no bare directory imports)", {
    timeout: 60_000,
  }, () => {
    // Upstream checks its index.ts; Baton's package specifiers live in the modules it re-exports.
    const src = resolve(HERE, "../src");
    const specifiers = new Set<string>();
    for (const file of readdirSync(src).filter((name) => name.endsWith(".ts"))) {
      const source = readFileSync(join(src, file), "utf8");
      for (const [, specifier] of source.matchAll(/from\s+["']([^"'.][^"']*)["']/g)) {
        if (
          specifier !== undefined &&
          !specifier.startsWith("@baton/") &&
          !specifier.startsWith("node:") &&
          specifier !== "mdast"
        ) {
          specifiers.add(specifier);
        }
      }
    }
    expect([...specifiers].sort()).toEqual([
      "@microsoft/teams.api",
      "@microsoft/teams.apps",
      "@microsoft/teams.cards",
    ]);
    for (const specifier of specifiers) {
      const script = `await import(${JSON.stringify(specifier)})`;
      execSync(`node --input-type=module -e ${JSON.stringify(script)}`, {
        cwd: resolve(HERE, ".."),
        stdio: "pipe",
      });
    }
  });
});

describe("TeamsAdapter", () => {
  const savedEnv = { ...process.env };

  beforeEach(() => {
    for (const key of Object.keys(process.env)) {
      if (key.startsWith("TEAMS_") || ["CLIENT_ID", "CLIENT_SECRET", "TENANT_ID"].includes(key)) {
        delete process.env[key];
      }
    }
  });

  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it("should export createTeamsAdapter function", () => {
    expect(typeof createTeamsAdapter).toBe("function");
  });

  it("should create an adapter instance", () => {
    const adapter = createTeamsAdapter({ appId: "test-app-id", appPassword: "test-password" });
    expect(adapter).toBeInstanceOf(TeamsAdapter);
    expect(adapter.name).toBe("teams");
  });

  describe("thread ID encoding", () => {
    it("should throw ValidationError for invalid thread IDs", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      expect(() => adapter.decodeThreadId("invalid")).toThrow(ValidationError);
      expect(() => adapter.decodeThreadId("slack:abc:def")).toThrow(ValidationError);
      expect(() => adapter.decodeThreadId("teams")).toThrow(ValidationError);
    });

    it("encodes conversation and service URL as base64url, as upstream", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const original = {
        conversationId: "19:d441d38c655c47a085215b2726e76927@thread.tacv2;messageid=1767297849909",
        serviceUrl: "https://smba.trafficmanager.net/amer/?special=chars&foo=bar",
      };
      const encoded = adapter.encodeThreadId(original);
      expect(encoded).toMatch(TEAMS_PREFIX_PATTERN);
      expect(encoded).toBe(
        `teams:${Buffer.from(original.conversationId).toString("base64url")}:${Buffer.from(original.serviceUrl).toString("base64url")}`,
      );
      expect(adapter.decodeThreadId(encoded)).toEqual(original);
    });
  });

  describe("constructor", () => {
    it("should set default userName to 'bot'", () => {
      expect(createTeamsAdapter({ appId: "test", appPassword: "test" }).userName).toBe("bot");
    });

    it("should use provided userName", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test", userName: "mybot" });
      expect(adapter.userName).toBe("mybot");
    });

    it("should accept appTenantId config", () => {
      expect(
        () =>
          new TeamsAdapter({ appId: "test", appPassword: "test", appTenantId: "some-tenant-id" }),
      ).not.toThrow();
    });

    it("should have name 'teams'", () => {
      expect(new TeamsAdapter({ appId: "test", appPassword: "test" }).name).toBe("teams");
    });

    it("names every bad field in one ConfigError", () => {
      let caught: unknown;
      try {
        createTeamsAdapter({
          appType: "Sometimes" as never,
          certificate: { certificatePrivateKey: "PEM" },
          apiUrl: "not a url",
          maxRetries: -1,
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      const message = String((caught as Error).message);
      for (const field of ["appId", "appType", "certificate", "apiUrl", "maxRetries"]) {
        expect(message).toContain(field);
      }
    });
  });

  describe("constructor env var resolution", () => {
    it("should resolve appId from TEAMS_APP_ID env var", () => {
      process.env.TEAMS_APP_ID = "env-app-id";
      process.env.TEAMS_APP_PASSWORD = "env-password";
      const adapter = new TeamsAdapter();
      expect(adapter).toBeInstanceOf(TeamsAdapter);
      expect(adapter.options.appId).toBe("env-app-id");
    });

    it("should resolve appPassword from TEAMS_APP_PASSWORD env var", () => {
      process.env.TEAMS_APP_PASSWORD = "env-password";
      const adapter = new TeamsAdapter({ appId: "test" });
      expect(adapter.options.appPassword).toBe("env-password");
    });

    it("should resolve appTenantId from TEAMS_APP_TENANT_ID env var", () => {
      process.env.TEAMS_APP_TENANT_ID = "env-tenant";
      const adapter = new TeamsAdapter({ appId: "test", appPassword: "test" });
      expect(adapter.options.appTenantId).toBe("env-tenant");
    });

    it("should default logger when not provided", () => {
      process.env.TEAMS_APP_ID = "env-app-id";
      process.env.TEAMS_APP_PASSWORD = "env-password";
      const adapter = new TeamsAdapter();
      expect(adapter.options.logger).toBeUndefined();
    });

    it("should prefer config values over env vars", () => {
      process.env.TEAMS_APP_ID = "env-app-id";
      const adapter = new TeamsAdapter({ appId: "config-app-id", appPassword: "test" });
      expect(adapter.name).toBe("teams");
      expect(adapter.options.appId).toBe("config-app-id");
    });

    it("should resolve apiUrl from TEAMS_API_URL env var", () => {
      process.env.TEAMS_API_URL = "https://smba.infra.gcc.teams.microsoft.com/";
      const adapter = new TeamsAdapter({ appId: "test", appPassword: "test" });
      expect(adapter.options.apiUrl).toBe("https://smba.infra.gcc.teams.microsoft.com");
    });

    it("should accept apiUrl config", () => {
      const adapter = new TeamsAdapter({
        appId: "test",
        appPassword: "test",
        apiUrl: "https://smba.infra.gov.teams.microsoft.us",
      });
      expect(adapter.options.apiUrl).toBe("https://smba.infra.gov.teams.microsoft.us");
    });
  });

  describe("createTeamsAdapter factory", () => {
    it("should delegate to constructor", () => {
      expect(createTeamsAdapter({ appId: "test", appPassword: "test" })).toBeInstanceOf(
        TeamsAdapter,
      );
    });

    it("should create adapter with federated auth", () => {
      const adapter = createTeamsAdapter({
        appId: "test",
        federated: { clientId: "managed-identity-client-id" },
      });
      expect(adapter).toBeInstanceOf(TeamsAdapter);
      expect(adapter.options.managedIdentityClientId).toBe("managed-identity-client-id");
      expect(adapter.options.appPassword).toBeUndefined();
    });

    it("should create adapter with a custom token factory", () => {
      const token = async () => "custom-access-token";
      const adapter = createTeamsAdapter({ appId: "test", token });
      expect(adapter).toBeInstanceOf(TeamsAdapter);
      expect(adapter.options.token).toBe(token);
    });
  });

  describe("isMessageFromSelf (via parseMessage)", () => {
    const adapter = () => createTeamsAdapter({ appId: "abc123-def456", appPassword: "test" });
    const activity = (from: Record<string, unknown>) => ({
      type: "message",
      id: "msg-1",
      text: "Hello",
      from,
      conversation: { id: "19:abc@thread.tacv2" },
      serviceUrl: SERVICE_URL,
    });

    it("should detect exact match of appId", () => {
      expect(
        adapter().parseMessage(activity({ id: "abc123-def456", name: "Bot" })).author.isMe,
      ).toBe(true);
    });

    it("should detect Teams-prefixed bot ID (28:appId)", () => {
      expect(
        adapter().parseMessage(activity({ id: "28:abc123-def456", name: "Bot" })).author.isMe,
      ).toBe(true);
    });

    it("should not detect unrelated user as self", () => {
      expect(adapter().parseMessage(activity({ id: "user-xyz", name: "User" })).author.isMe).toBe(
        false,
      );
    });

    it("should return false when from.id is undefined", () => {
      expect(adapter().parseMessage(activity({ name: "Unknown" })).author.isMe).toBe(false);
    });
  });

  describe("parseMessage", () => {
    const adapter = () => createTeamsAdapter({ appId: "test-app", appPassword: "test" });
    const base = {
      type: "message",
      from: { id: "user-1", name: "Alice" },
      conversation: { id: "19:abc@thread.tacv2" },
      serviceUrl: SERVICE_URL,
    };

    it("should parse basic text message", () => {
      const message = adapter().parseMessage({
        ...base,
        id: "msg-100",
        text: "Hello world",
        from: { id: "user-1", name: "Alice", role: "user" },
        timestamp: "2024-01-01T00:00:00.000Z",
      });
      expect(message.id).toBe("msg-100");
      expect(message.text).toContain("Hello world");
      expect(message.author.userId).toBe("user-1");
      expect(message.author.userName).toBe("Alice");
      expect(message.author.isMe).toBe(false);
    });

    it("should handle missing text gracefully", () => {
      expect(adapter().parseMessage({ ...base, id: "msg-102" }).text).toBe("");
    });

    it("should handle missing from fields gracefully", () => {
      const { from: _from, ...rest } = base;
      const message = adapter().parseMessage({ ...rest, id: "msg-103", text: "test" });
      expect(message.author.userId).toBe("unknown");
      expect(message.author.userName).toBe("unknown");
    });

    it("should filter out adaptive card attachments", () => {
      const message = adapter().parseMessage({
        ...base,
        id: "msg-104",
        text: "test",
        attachments: [
          { contentType: "application/vnd.microsoft.card.adaptive", content: {} },
          {
            contentType: "image/png",
            contentUrl: "https://example.com/image.png",
            name: "screenshot.png",
          },
        ],
      });
      expect(message.attachments).toHaveLength(1);
      expect(message.attachments[0]?.type).toBe("image");
      expect(message.attachments[0]?.name).toBe("screenshot.png");
    });

    it("should filter out text/html attachments without contentUrl", () => {
      const message = adapter().parseMessage({
        ...base,
        id: "msg-105",
        text: "test",
        attachments: [{ contentType: "text/html", content: "<p>Formatted version</p>" }],
      });
      expect(message.attachments).toHaveLength(0);
    });

    it("should classify attachment types by contentType", () => {
      const message = adapter().parseMessage({
        ...base,
        id: "msg-106",
        text: "test",
        attachments: [
          {
            contentType: "image/jpeg",
            contentUrl: "https://example.com/photo.jpg",
            name: "photo.jpg",
          },
          {
            contentType: "video/mp4",
            contentUrl: "https://example.com/video.mp4",
            name: "video.mp4",
          },
          {
            contentType: "audio/mpeg",
            contentUrl: "https://example.com/audio.mp3",
            name: "audio.mp3",
          },
          {
            contentType: "application/pdf",
            contentUrl: "https://example.com/doc.pdf",
            name: "doc.pdf",
          },
        ],
      });
      expect(message.attachments.map((attachment) => attachment.type)).toEqual([
        "image",
        "video",
        "audio",
        "file",
      ]);
    });

    it("should set metadata.edited to false for new messages", () => {
      const message = adapter().parseMessage({
        ...base,
        id: "msg-107",
        text: "test",
        timestamp: "2024-06-01T12:00:00Z",
      });
      expect(message.metadata.edited).toBe(false);
      expect(message.metadata.dateSent).toEqual(new Date("2024-06-01T12:00:00Z"));
    });
  });

  describe("normalizeMentions (via parseMessage)", () => {
    it("should trim whitespace from text", () => {
      const adapter = createTeamsAdapter({ appId: "test-app", appPassword: "test" });
      const message = adapter.parseMessage({
        type: "message",
        id: "msg-200",
        text: "  Hello world  ",
        from: { id: "user-1", name: "Alice" },
        conversation: { id: "19:abc@thread.tacv2" },
        serviceUrl: SERVICE_URL,
      });
      expect(message.text).not.toMatch(WHITESPACE_START_PATTERN);
      expect(message.text).not.toMatch(WHITESPACE_END_PATTERN);
    });
  });

  describe("isDM", () => {
    it("should return false for channel threads with messageid", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const threadId = adapter.encodeThreadId({
        conversationId: "19:abc@thread.tacv2;messageid=1767297849909",
        serviceUrl: SERVICE_URL,
      });
      expect(adapter.isDM(threadId)).toBe(false);
      const personal = adapter.encodeThreadId({
        conversationId: "a:8orgid",
        serviceUrl: SERVICE_URL,
      });
      expect(adapter.isDM(personal)).toBe(true);
    });
  });

  describe("channelIdFromThreadId", () => {
    it("should strip messageid from thread ID", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const threadId = adapter.encodeThreadId({
        conversationId: "19:abc@thread.tacv2;messageid=1767297849909",
        serviceUrl: SERVICE_URL,
      });
      const decoded = adapter.decodeThreadId(adapter.channelIdFromThreadId(threadId));
      expect(decoded.conversationId).toBe("19:abc@thread.tacv2");
      expect(decoded.conversationId).not.toContain(";messageid=");
    });

    it("should return same ID when no messageid present", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const threadId = adapter.encodeThreadId({
        conversationId: "19:abc@thread.tacv2",
        serviceUrl: SERVICE_URL,
      });
      const decoded = adapter.decodeThreadId(adapter.channelIdFromThreadId(threadId));
      expect(decoded.conversationId).toBe("19:abc@thread.tacv2");
    });
  });

  describe("fetchThread", () => {
    it("should return basic thread info", async () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const threadId = adapter.encodeThreadId({
        conversationId: "19:abc@thread.tacv2",
        serviceUrl: SERVICE_URL,
      });
      const info = await adapter.fetchThread(threadId);
      expect(info.id).toBe(threadId);
      expect(info.channelId).toBe("19:abc@thread.tacv2");
      expect(info.metadata).toEqual({});
    });
  });

  describe("handleWebhook", () => {
    it("should return 400 for invalid JSON body", async () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const response = await adapter.handleWebhook(
        new Request("https://example.com/webhook", {
          method: "POST",
          body: "not valid json{{{",
          headers: { "content-type": "application/json" },
        }),
      );
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Invalid JSON");
    });
  });

  describe("initialize", () => {
    it("should store chat instance and initialize app", async () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const state = createMemoryState();
      await state.connect();
      await adapter.initialize(hostWith(state));
      expect(adapter.name).toBe("teams");
      // The stored Chat is what openDM reads references from.
      await expect(adapter.openDM("29:nobody")).rejects.toThrow(ValidationError);
    });
  });

  describe("renderFormatted", () => {
    it("should delegate to format converter", () => {
      const adapter = createTeamsAdapter({ appId: "test", appPassword: "test" });
      const result = adapter.renderFormatted({
        type: "root",
        children: [{ type: "paragraph", children: [{ type: "text", value: "Hello world" }] }],
      });
      expect(typeof result).toBe("string");
      expect(result).toContain("Hello world");
    });
  });

  describe("openDM", () => {
    it("should throw ValidationError when no tenantId available", async () => {
      // Baton reads the user's stored conversation reference (service URL, tenant); with none
      // there is no tenant to create the conversation in.
      const adapter = new TeamsAdapter({ appId: "test", appPassword: "test" });
      const state = createMemoryState();
      await state.connect();
      await adapter.initialize(hostWith(state));
      await expect(adapter.openDM("user-123")).rejects.toThrow(ValidationError);
    });
  });
});
