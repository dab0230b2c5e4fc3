import { randomBytes } from "node:crypto";
import { Chat, ConfigError, type JsonValue } from "@baton/core";
import { describe, expect, it } from "vitest";
import {
  createSlackAdapter,
  INSTALLATION_CACHE_TTL_MS,
  isEncryptedTokenData,
} from "../src/index.js";
import {
  A,
  B,
  CLIENT,
  clientToken,
  closeHarnessesAfterEach,
  install,
  mention,
  multi,
  tokensOf,
  tracked,
} from "./installs-fixtures.js";

closeHarnessesAfterEach();

describe("multi-workspace mode", () => {
  it("creates adapter without botToken", () => {
    const adapter = createSlackAdapter({ signingSecret: "secret", ...CLIENT });
    expect(adapter.isMultiWorkspace).toBe(true);
    expect(adapter.botUserId).toBeUndefined();
  });

  it("setInstallation throws before initialize", async () => {
    const adapter = createSlackAdapter({ signingSecret: "secret", ...CLIENT });
    await expect(adapter.setInstallation(A.teamId, install(A))).rejects.toThrow(ConfigError);
  });

  it("setInstallation / getInstallation round-trip", async () => {
    const h = await multi();
    const saved = { ...install(A), teamName: "Team A", enterpriseId: "E0ORG00001" };
    await h.adapter.setInstallation(A.teamId, saved);
    expect(await h.adapter.getInstallation(A.teamId)).toEqual(saved);
  });

  it("getInstallation returns null for unknown team", async () => {
    const h = await multi();
    expect(await h.adapter.getInstallation("T0UNKNOWN1")).toBeNull();
  });

  it("deleteInstallation removes data", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.adapter.deleteInstallation(A.teamId);
    expect(await h.adapter.getInstallation(A.teamId)).toBeNull();
    expect(await h.state.get(`slack:installation:${A.teamId}`)).toBeNull();
  });

  it("handleWebhook resolves token from state for event_callback", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi A");
    });
    const response = await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(response.status).toBe(200);
    expect(tokensOf(h, "chat.postMessage")).toEqual([A.botToken]);
  });

  it("handleWebhook resolves token for interactive payloads", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    const seen: Array<string | undefined> = [];
    h.chat.onAction("approve_btn", () => {
      seen.push(clientToken(h));
    });
    const response = await h.deliverForm({
      payload: JSON.stringify({
        type: "block_actions",
        team: { id: A.teamId },
        user: { id: "U0HUMAN001" },
        channel: { id: "C0AAA00001" },
        container: { type: "message", message_ts: "1700000000.000001", channel_id: "C0AAA00001" },
        message: { ts: "1700000000.000001" },
        trigger_id: "trigger-1",
        actions: [{ type: "button", action_id: "approve_btn", value: "yes" }],
      }),
    });
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([A.botToken]);
  });

  it("handleWebhook resolves token for block_suggestion payloads", async () => {
    const h = await multi();
    await h.adapter.setInstallation(B.teamId, install(B));
    const seen: Array<string | undefined> = [];
    h.chat.onOptionsLoad("assignee", () => {
      seen.push(clientToken(h));
      return [{ label: "Ada", value: "u1" }];
    });
    const response = await h.deliverForm({
      payload: JSON.stringify({
        type: "block_suggestion",
        team: { id: B.teamId },
        user: { id: "U0HUMAN001" },
        action_id: "assignee",
        value: "ad",
      }),
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual([B.botToken]);
  });

  it("URL verification works without token", async () => {
    const h = await multi();
    const response = await h.deliver({ type: "url_verification", challenge: "c-123" });
    expect(await response.json()).toEqual({ challenge: "c-123" });
    expect(h.fake.calls).toEqual([]);
  });
});

describe("initialize", () => {
  it("skips auth.test in multi-workspace mode", async () => {
    const h = await multi();
    expect(h.fake.callsOf("auth.test")).toEqual([]);
  });
});

describe("handleWebhook - slash commands", () => {
  it("handles slash command in multi-workspace mode", async () => {
    const h = await multi();
    await h.adapter.setInstallation(B.teamId, install(B));
    const seen: Array<string | undefined> = [];
    h.chat.onSlashCommand("/deploy", () => {
      seen.push(clientToken(h));
    });
    const response = await h.deliverForm({
      command: "/deploy",
      text: "now",
      user_id: "U0HUMAN001",
      channel_id: "C0BBB00001",
      team_id: B.teamId,
      trigger_id: "trigger-2",
      response_url: "https://hooks.slack.com/commands/x",
    });
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([B.botToken]);
  });
});

describe("multi-workspace installs (Baton)", () => {
  it("uses each workspace's token for its own deliveries while both run at once", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.adapter.setInstallation(B.teamId, install(B));
    let entered = 0;
    let releaseBoth: () => void = () => undefined;
    const bothIn = new Promise<void>((resolve) => {
      releaseBoth = resolve;
    });
    h.chat.onNewMention(async (thread) => {
      entered += 1;
      if (entered === 2) releaseBoth();
      // Both handlers are in flight before either posts: the tokens cannot leak by ordering.
      await bothIn;
      await thread.post("hi");
    });
    await Promise.all([
      h.deliver(mention(h, A, "C0AAA00001")),
      h.deliver(mention(h, B, "C0BBB00001")),
    ]);
    await h.settle();
    const posts = h.fake.callsOf("chat.postMessage").map((call) => [call.args.channel, call.token]);
    expect(posts.sort()).toEqual([
      ["C0AAA00001", A.botToken],
      ["C0BBB00001", B.botToken],
    ]);
  });

  it("keeps the workspace's token in handlers the Chat runs detached after the answer", async () => {
    const h = await tracked({ botToken: undefined, ...CLIENT }, { dispatch: "deferred" });
    h.fake.addWorkspace(A);
    h.fake.addWorkspace(B);
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.adapter.setInstallation(B.teamId, install(B));
    h.chat.onNewMention(async (thread) => {
      await thread.post("later");
    });
    const answers = await Promise.all([
      h.deliver(mention(h, A, "C0AAA00001")),
      h.deliver(mention(h, B, "C0BBB00001")),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await h.settle();
    const posts = h.fake.callsOf("chat.postMessage").map((call) => [call.args.channel, call.token]);
    expect(posts.sort()).toEqual([
      ["C0AAA00001", A.botToken],
      ["C0BBB00001", B.botToken],
    ]);
  });

  it("encodes a streamed message's id with the workspace of the delivery that streamed it", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.adapter.setInstallation(B.teamId, install(B));
    const sentIds: string[] = [];
    h.chat.onNewMention(async (thread) => {
      const sent = await thread.post(
        (async function* () {
          yield "hi";
        })(),
      );
      sentIds.push(sent.id);
    });
    await Promise.all([
      h.deliver(mention(h, A, "C0AAA00001")),
      h.deliver(mention(h, B, "C0BBB00001")),
    ]);
    await h.settle();
    expect(sentIds.map((id) => id.split(":").slice(0, 2).join(":")).sort()).toEqual([
      `${A.teamId}:C0AAA00001`,
      `${B.teamId}:C0BBB00001`,
    ]);
  });

  it("drops a delivery for a workspace without an installation, answering 200", async () => {
    const h = await multi();
    const seen: string[] = [];
    h.chat.onNewMention((thread) => {
      seen.push(thread.id);
    });
    const response = await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(response.status).toBe(200);
    expect(seen).toEqual([]);
    expect(h.fake.calls).toEqual([]);
  });

  it("app_uninstalled deletes the workspace's installation after the answer", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.adapter.setInstallation(B.teamId, install(B));
    const response = await h.deliver(
      h.envelope({ type: "app_uninstalled" }, { team_id: A.teamId }),
    );
    await h.settle();
    expect(response.status).toBe(200);
    expect(await h.adapter.getInstallation(A.teamId)).toBeNull();
    expect(await h.adapter.getInstallation(B.teamId)).not.toBeNull();
  });

  it("tokens_revoked for the bot deletes the installation; a user-token revocation does not", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.deliver(
      h.envelope(
        { type: "tokens_revoked", tokens: { oauth: ["U0HUMAN001"] } },
        { team_id: A.teamId },
      ),
    );
    await h.settle();
    expect(await h.adapter.getInstallation(A.teamId)).not.toBeNull();
    await h.deliver(
      h.envelope({ type: "tokens_revoked", tokens: { bot: [A.botUserId] } }, { team_id: A.teamId }),
    );
    await h.settle();
    expect(await h.adapter.getInstallation(A.teamId)).toBeNull();
  });

  it("a workspace's next delivery after its uninstall is dropped", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi");
    });
    await h.deliver(h.envelope({ type: "app_uninstalled" }, { team_id: A.teamId }));
    await h.settle();
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
  });

  it("reads a workspace's installation from the State once per cache period, not per delivery", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    // A fresh process: the installation is in the State but not in this adapter's memory.
    const fresh = createSlackAdapter({
      ...CLIENT,
      signingSecret: h.fake.signingSecret,
      apiUrl: h.fake.apiUrl,
      clock: h.clock,
    });
    const reads: string[] = [];
    const get = h.state.get.bind(h.state);
    h.state.get = ((key: string) => {
      if (key.startsWith("slack:installation:")) reads.push(key);
      return get(key);
    }) as typeof h.state.get;
    const chat = new Chat({
      userName: "bot",
      adapters: { slack: fresh },
      state: h.state,
      logger: "silent",
      clock: h.clock,
      dispatch: "sync",
    });
    await chat.initialize();
    const posted: string[] = [];
    chat.onNewMention(async (thread) => {
      posted.push(thread.id);
      await thread.post("hi");
    });
    const deliver = (json: unknown) => fresh.handleWebhook(h.request({ json }));
    for (let i = 0; i < 3; i += 1) await deliver(mention(h, A, "C0AAA00001"));
    expect(reads).toEqual([`slack:installation:${A.teamId}`]);
    await h.clock.advance(INSTALLATION_CACHE_TTL_MS + 1);
    await deliver(mention(h, A, "C0AAA00001"));
    expect(reads).toHaveLength(2);
    expect(posted).toHaveLength(4);
    expect(new Set(tokensOf(h, "chat.postMessage"))).toEqual(new Set([A.botToken]));
    await chat.shutdown();
  });

  it("refuses an installationProvider in socket mode, naming the field", () => {
    expect(() =>
      createSlackAdapter({
        mode: "socket",
        appToken: "xapp-1-token",
        installationProvider: { getInstallation: async () => null },
      }),
    ).toThrow(/installationProvider .* cannot be used with mode "socket"/);
  });

  it("outside a delivery, Web API calls of a multi-workspace app fail naming withBotToken", async () => {
    const h = await multi();
    await expect(h.adapter.postMessage("slack:C0AAA00001:", "hi")).rejects.toThrow(/withBotToken/);
    expect(h.fake.calls).toEqual([]);
  });
});

describe("multi-workspace mode with encryption", () => {
  const encryptionKey = randomBytes(32).toString("base64");

  it("setInstallation encrypts token", async () => {
    const h = await multi({ encryptionKey });
    await h.adapter.setInstallation(A.teamId, install(A));
    const stored = await h.state.get<{ [key: string]: JsonValue }>(
      `slack:installation:${A.teamId}`,
    );
    expect(isEncryptedTokenData(stored?.botToken)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(A.botToken);
  });

  it("getInstallation decrypts token", async () => {
    const h = await multi({ encryptionKey });
    await h.adapter.setInstallation(A.teamId, install(A));
    expect((await h.adapter.getInstallation(A.teamId))?.botToken).toBe(A.botToken);
  });

  it("invalid encryption key throws at construction", () => {
    expect(() =>
      createSlackAdapter({ signingSecret: "secret", ...CLIENT, encryptionKey: "too-short" }),
    ).toThrow(ConfigError);
  });
});

describe("installationKeyPrefix", () => {
  it("uses custom installationKeyPrefix for storage key", async () => {
    const h = await multi({ installationKeyPrefix: "acme:slack" });
    await h.adapter.setInstallation(A.teamId, install(A));
    expect(await h.state.get(`acme:slack:${A.teamId}`)).not.toBeNull();
    expect(await h.state.get(`slack:installation:${A.teamId}`)).toBeNull();
  });

  it("uses default slack:installation prefix when installationKeyPrefix is omitted", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    expect(await h.state.get(`slack:installation:${A.teamId}`)).not.toBeNull();
  });
});
