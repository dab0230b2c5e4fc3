import { randomBytes } from "node:crypto";
import { Chat, ConfigError, type JsonValue } from "@baton/core";
import type { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createSlackAdapter,
  INSTALLATION_CACHE_TTL_MS,
  isEncryptedTokenData,
  type SlackAdapterConfig,
  type SlackInstallation,
} from "../src/index.js";
import type { FakeSlackWorkspace } from "../src/testing/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const A: FakeSlackWorkspace = {
  teamId: "T0AAAAAAA1",
  botToken: "xoxb-team-a",
  botUserId: "U0BOTA0001",
};
const B: FakeSlackWorkspace = {
  teamId: "T0BBBBBBB1",
  botToken: "xoxb-team-b",
  botUserId: "U0BOTB0001",
};
const CLIENT = { clientId: "fake-client-id", clientSecret: "fake-client-secret" };

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A multi-workspace app (no botToken) against the fake, which knows workspaces A and B. */
async function multi(config: Partial<SlackAdapterConfig> = {}) {
  const h = await createSlackHarness({ botToken: undefined, ...CLIENT, ...config });
  h.fake.addWorkspace(A);
  h.fake.addWorkspace(B);
  harnesses.push(h);
  return h;
}

function install(workspace: FakeSlackWorkspace): SlackInstallation {
  return { botToken: workspace.botToken, botUserId: workspace.botUserId as string };
}

let tsCount = 0;
/** An app_mention of the bot in `channel`, delivered for `workspace`. */
function mention(
  h: SlackHarness,
  workspace: FakeSlackWorkspace,
  channel: string,
  extra: Record<string, unknown> = {},
) {
  tsCount += 1;
  const ts = `1700000000.${String(tsCount).padStart(6, "0")}`;
  return h.envelope(
    {
      type: "app_mention",
      user: "U0HUMAN001",
      text: `<@${workspace.botUserId}> hello`,
      ts,
      channel,
      team: workspace.teamId,
    },
    { team_id: workspace.teamId, ...extra },
  );
}

function tokensOf(h: SlackHarness, method: string): Array<string | undefined> {
  return h.fake.callsOf(method).map((call) => call.token);
}

/** The token of the WebClient `adapter.client` hands out here. */
function clientToken(h: SlackHarness): string | undefined {
  return (h.adapter.client as WebClient).token;
}

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
    const h = await createSlackHarness(
      { botToken: undefined, ...CLIENT },
      { dispatch: "deferred" },
    );
    harnesses.push(h);
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

function callback(query: string): Request {
  return new Request(`https://bot.example/slack/oauth/callback?${query}`);
}

const ORG: FakeSlackWorkspace = {
  teamId: "T0GRID0001",
  botToken: "xoxb-org-wide",
  botUserId: "U0BOTORG01",
  enterpriseId: "E0ORG00001",
  isEnterpriseInstall: true,
};

describe("handleOAuthCallback", () => {
  it("exchanges code for token and saves installation", async () => {
    const h = await multi();
    h.fake.grantInstall("code-a", { ...A, teamName: "Team A" });
    const result = await h.adapter.handleOAuthCallback(callback("code=code-a&state=s1"));
    expect(result.teamId).toBe(A.teamId);
    expect(result.isEnterpriseInstall).toBe(false);
    const [exchange] = h.fake.callsOf("oauth.v2.access");
    expect(exchange?.args).toMatchObject({ ...{ client_id: CLIENT.clientId }, code: "code-a" });
    expect(await h.adapter.getInstallation(A.teamId)).toEqual({
      botToken: A.botToken,
      botUserId: A.botUserId,
      isEnterpriseInstall: false,
      teamName: "Team A",
    });
  });

  it("keys org-wide installs by enterprise ID (team is null)", async () => {
    const h = await multi();
    h.fake.grantInstall("code-org", ORG);
    const result = await h.adapter.handleOAuthCallback(callback("code=code-org"));
    expect(result).toMatchObject({ teamId: "E0ORG00001", isEnterpriseInstall: true });
    expect((await h.adapter.getInstallation("E0ORG00001"))?.botToken).toBe(ORG.botToken);
    expect(await h.adapter.getInstallation(ORG.teamId)).toBeNull();
  });

  it("records the enterprise ID on workspace installs within a Grid org", async () => {
    const h = await multi();
    h.fake.grantInstall("code-grid", { ...A, enterpriseId: "E0ORG00001" });
    const result = await h.adapter.handleOAuthCallback(callback("code=code-grid"));
    expect(result).toMatchObject({
      teamId: A.teamId,
      enterpriseId: "E0ORG00001",
      isEnterpriseInstall: false,
    });
    expect((await h.adapter.getInstallation(A.teamId))?.enterpriseId).toBe("E0ORG00001");
  });

  it("throws when an org-wide install response is missing enterprise.id", async () => {
    const h = await multi();
    h.fake.answerNext("oauth.v2.access", {
      ok: true,
      access_token: "xoxb-org-wide",
      bot_user_id: "U0BOTORG01",
      team: null,
      enterprise: null,
      is_enterprise_install: true,
    });
    await expect(h.adapter.handleOAuthCallback(callback("code=any"))).rejects.toThrow(
      /enterprise\.id/,
    );
  });

  it("org-wide OAuth install round-trips with org-wide event webhooks", async () => {
    const h = await multi();
    h.fake.grantInstall("code-org", ORG);
    await h.adapter.handleOAuthCallback(callback("code=code-org"));
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi org");
    });
    await h.deliver(
      mention(h, ORG, "C0GRID0001", {
        enterprise_id: "E0ORG00001",
        is_enterprise_install: true,
        authorizations: [
          { enterprise_id: "E0ORG00001", team_id: null, is_enterprise_install: true },
        ],
      }),
    );
    await h.settle();
    expect(tokensOf(h, "chat.postMessage")).toEqual([ORG.botToken]);
  });

  it("forwards redirect_uri from callback options", async () => {
    const h = await multi();
    h.fake.grantInstall("code-a", A);
    await h.adapter.handleOAuthCallback(callback("code=code-a"), {
      redirectUri: "https://bot.example/slack/oauth/callback",
    });
    expect(h.fake.callsOf("oauth.v2.access")[0]?.args.redirect_uri).toBe(
      "https://bot.example/slack/oauth/callback",
    );
  });

  it("prefers callback options redirect_uri over the query param", async () => {
    const h = await multi();
    h.fake.grantInstall("code-a", A);
    await h.adapter.handleOAuthCallback(
      callback("code=code-a&redirect_uri=https%3A%2F%2Fquery.example%2Fcb"),
      { redirectUri: "https://options.example/cb" },
    );
    expect(h.fake.callsOf("oauth.v2.access")[0]?.args.redirect_uri).toBe(
      "https://options.example/cb",
    );
  });

  it("falls back to redirect_uri from the callback query param", async () => {
    const h = await multi();
    h.fake.grantInstall("code-a", A);
    await h.adapter.handleOAuthCallback(
      callback("code=code-a&redirect_uri=https%3A%2F%2Fquery.example%2Fcb"),
    );
    expect(h.fake.callsOf("oauth.v2.access")[0]?.args.redirect_uri).toBe(
      "https://query.example/cb",
    );
  });

  it("throws when the callback code is missing", async () => {
    const h = await multi();
    await expect(h.adapter.handleOAuthCallback(callback("state=s1"))).rejects.toThrow(/code/);
    expect(h.fake.callsOf("oauth.v2.access")).toEqual([]);
  });

  it("throws without clientId and clientSecret", async () => {
    const h = await multi({ clientId: undefined, clientSecret: undefined, botToken: "xoxb-one" });
    await expect(h.adapter.handleOAuthCallback(callback("code=code-a"))).rejects.toThrow(
      /clientId and clientSecret/,
    );
  });
});

describe("multi-workspace installs (Baton): OAuth", () => {
  it("an OAuth code is exchanged once: a replayed callback fails and saves nothing new", async () => {
    const h = await multi();
    h.fake.grantInstall("code-a", A);
    await h.adapter.handleOAuthCallback(callback("code=code-a"));
    await h.adapter.deleteInstallation(A.teamId);
    await expect(h.adapter.handleOAuthCallback(callback("code=code-a"))).rejects.toThrow(
      /invalid_code/,
    );
    expect(await h.adapter.getInstallation(A.teamId)).toBeNull();
  });

  it("a workspace installed through OAuth gets its own token on its next delivery", async () => {
    const h = await multi();
    h.fake.grantInstall("code-b", B);
    await h.adapter.handleOAuthCallback(callback("code=code-b"));
    h.chat.onNewMention(async (thread) => {
      await thread.post("hi B");
    });
    await h.deliver(mention(h, B, "C0BBB00001"));
    await h.settle();
    expect(tokensOf(h, "chat.postMessage")).toEqual([B.botToken]);
  });
});

describe("withBotToken", () => {
  it("sets token for duration of callback", async () => {
    const h = await multi();
    const inside = await h.adapter.withBotToken(A.botToken, async () => {
      await h.adapter.postMessage("slack:C0AAA00001:", "from a job");
      return clientToken(h);
    });
    expect(inside).toBe(A.botToken);
    expect(tokensOf(h, "chat.postMessage")).toEqual([A.botToken]);
    expect(() => h.adapter.client).toThrow(/withBotToken/);
  });

  it("concurrent calls with different tokens are isolated", async () => {
    const h = await multi();
    let releaseA: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    const jobA = h.adapter.withBotToken(A.botToken, async () => {
      await gate;
      await h.adapter.postMessage("slack:C0AAA00001:", "A");
    });
    const jobB = h.adapter.withBotToken(B.botToken, async () => {
      await h.adapter.postMessage("slack:C0BBB00001:", "B");
      releaseA();
    });
    await Promise.all([jobA, jobB]);
    const posts = h.fake.callsOf("chat.postMessage").map((call) => [call.args.channel, call.token]);
    expect(posts).toEqual([
      ["C0BBB00001", B.botToken],
      ["C0AAA00001", A.botToken],
    ]);
  });
});

describe("direct WebClient access via adapter.client", () => {
  it("returns a WebClient bound to the static botToken in single-workspace mode", async () => {
    const h = await createSlackHarness();
    harnesses.push(h);
    expect(clientToken(h)).toBe(h.fake.botToken);
  });

  it("caches the WebClient for repeated access with the same token", async () => {
    const h = await createSlackHarness();
    harnesses.push(h);
    expect(h.adapter.client).toBe(h.adapter.client);
  });

  it("returns a WebClient bound to the context token under withBotToken", async () => {
    const h = await multi();
    expect(h.adapter.withBotToken(A.botToken, () => clientToken(h))).toBe(A.botToken);
  });

  it("prefers the context token over the default in single-workspace mode", async () => {
    const h = await createSlackHarness();
    harnesses.push(h);
    expect(h.adapter.withBotToken(A.botToken, () => clientToken(h))).toBe(A.botToken);
    expect(clientToken(h)).toBe(h.fake.botToken);
  });

  it("throws when no token is available (multi-workspace, outside context)", async () => {
    const h = await multi();
    expect(() => h.adapter.client).toThrow(ConfigError);
  });

  it("propagates apiUrl from createSlackAdapter to the bound WebClient", async () => {
    const h = await multi();
    const client = h.adapter.withBotToken(A.botToken, () => h.adapter.client);
    expect(client.slackApiUrl).toBe(h.fake.apiUrl);
  });

  it("picks up apiUrl from SLACK_API_URL env var", () => {
    vi.stubEnv("SLACK_API_URL", "http://127.0.0.1:9/api/");
    try {
      const adapter = createSlackAdapter({ signingSecret: "secret", botToken: "xoxb-env" });
      expect(adapter.client.slackApiUrl).toBe("http://127.0.0.1:9/api/");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("returns distinct WebClient instances for distinct tokens", async () => {
    const h = await multi();
    const a = h.adapter.withBotToken(A.botToken, () => h.adapter.client);
    const b = h.adapter.withBotToken(B.botToken, () => h.adapter.client);
    expect(a).not.toBe(b);
    expect(h.adapter.withBotToken(A.botToken, () => h.adapter.client)).toBe(a);
  });
});

describe("adapter.client end-to-end with multi-workspace webhook", () => {
  it("resolves the installation's bot token in the action handler context", async () => {
    const h = await multi();
    await h.adapter.setInstallation(A.teamId, install(A));
    h.chat.onAction("pin_btn", async () => {
      await h.adapter.client.apiCall("chat.postMessage", { channel: "C0AAA00001", text: "pin" });
    });
    await h.deliverForm({
      payload: JSON.stringify({
        type: "block_actions",
        team: { id: A.teamId },
        user: { id: "U0HUMAN001" },
        channel: { id: "C0AAA00001" },
        container: { type: "message", message_ts: "1700000000.000009", channel_id: "C0AAA00001" },
        message: { ts: "1700000000.000009" },
        trigger_id: "trigger-9",
        actions: [{ type: "button", action_id: "pin_btn", value: "x" }],
      }),
    });
    await h.settle();
    expect(tokensOf(h, "chat.postMessage")).toEqual([A.botToken]);
  });
});

/** A provider over a fixed table of installations, recording what it was asked. */
function provider(table: Record<string, FakeSlackWorkspace>) {
  const asked: Array<[string, boolean]> = [];
  return {
    asked,
    installationProvider: {
      getInstallation: async (installationId: string, isEnterpriseInstall: boolean) => {
        asked.push([installationId, isEnterpriseInstall]);
        const workspace = table[installationId];
        return workspace === undefined ? null : install(workspace);
      },
    },
  };
}

function gridCommand(workspace: FakeSlackWorkspace, enterprise: boolean) {
  return {
    command: "/deploy",
    text: "now",
    user_id: "U0HUMAN001",
    channel_id: "C0GRID0001",
    team_id: workspace.teamId,
    enterprise_id: "E0ORG00001",
    is_enterprise_install: String(enterprise),
    trigger_id: "trigger-3",
    response_url: "https://hooks.slack.com/commands/x",
  };
}

function gridAction(enterprise: boolean) {
  return {
    payload: JSON.stringify({
      type: "block_actions",
      team: { id: ORG.teamId },
      enterprise: { id: "E0ORG00001" },
      is_enterprise_install: enterprise,
      user: { id: "U0HUMAN001" },
      channel: { id: "C0GRID0001" },
      container: { type: "message", message_ts: "1700000000.000007", channel_id: "C0GRID0001" },
      message: { ts: "1700000000.000007" },
      trigger_id: "trigger-7",
      actions: [{ type: "button", action_id: "approve_btn", value: "yes" }],
    }),
  };
}

describe("installationProvider", () => {
  async function withProvider(table: Record<string, FakeSlackWorkspace>) {
    const p = provider(table);
    const h = await multi({ clientId: undefined, clientSecret: undefined, ...p });
    h.fake.addWorkspace(ORG);
    const tokens: Array<string | undefined> = [];
    h.chat.onNewMention(async (thread) => {
      tokens.push(clientToken(h));
      await thread.post("hi");
    });
    h.chat.onSlashCommand(() => {
      tokens.push(clientToken(h));
    });
    h.chat.onAction("approve_btn", () => {
      tokens.push(clientToken(h));
    });
    return { h, asked: p.asked, tokens };
  }

  it("uses installationProvider for token resolution in event_callback", async () => {
    const { h, asked } = await withProvider({ [A.teamId]: A });
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(asked).toEqual([[A.teamId, false]]);
    expect(tokensOf(h, "chat.postMessage")).toEqual([A.botToken]);
  });

  it("uses enterprise_id when is_enterprise_install is true", async () => {
    const { h, asked, tokens } = await withProvider({ E0ORG00001: ORG });
    await h.deliver(
      mention(h, ORG, "C0GRID0001", { enterprise_id: "E0ORG00001", is_enterprise_install: true }),
    );
    await h.settle();
    expect(asked).toEqual([["E0ORG00001", true]]);
    expect(tokens).toEqual([ORG.botToken]);
  });

  it("uses team_id when is_enterprise_install is false", async () => {
    const { h, asked } = await withProvider({ [A.teamId]: A });
    await h.deliver(
      mention(h, A, "C0AAA00001", { enterprise_id: "E0ORG00001", is_enterprise_install: false }),
    );
    await h.settle();
    expect(asked).toEqual([[A.teamId, false]]);
  });

  it("returns 200 ok when installationProvider returns null", async () => {
    const { h, tokens } = await withProvider({});
    const response = await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(tokens).toEqual([]);
  });

  it("uses installationProvider for slash commands", async () => {
    const { h, asked, tokens } = await withProvider({ [B.teamId]: B });
    await h.deliverForm({ ...gridCommand(B, false), enterprise_id: "" });
    await h.settle();
    expect(asked).toEqual([[B.teamId, false]]);
    expect(tokens).toEqual([B.botToken]);
  });

  it("uses enterprise_id for slash commands in Enterprise Grid", async () => {
    const { h, asked, tokens } = await withProvider({ E0ORG00001: ORG });
    await h.deliverForm(gridCommand(ORG, true));
    await h.settle();
    expect(asked).toEqual([["E0ORG00001", true]]);
    expect(tokens).toEqual([ORG.botToken]);
  });

  it("does not fall back to state when installationProvider is set", async () => {
    const { h, tokens } = await withProvider({});
    await h.adapter.setInstallation(A.teamId, install(A));
    await h.deliver(mention(h, A, "C0AAA00001"));
    await h.settle();
    expect(tokens).toEqual([]);
    expect(h.fake.callsOf("chat.postMessage")).toEqual([]);
  });

  it("uses installationProvider for interactive payloads (block_actions)", async () => {
    const { h, asked, tokens } = await withProvider({ [ORG.teamId]: ORG });
    await h.deliverForm(gridAction(false));
    await h.settle();
    expect(asked).toEqual([[ORG.teamId, false]]);
    expect(tokens).toEqual([ORG.botToken]);
  });

  it("uses enterprise_id for interactive payloads in Enterprise Grid", async () => {
    const { h, asked, tokens } = await withProvider({ E0ORG00001: ORG });
    await h.deliverForm(gridAction(true));
    await h.settle();
    expect(asked).toEqual([["E0ORG00001", true]]);
    expect(tokens).toEqual([ORG.botToken]);
  });
});

describe("event routing via authorizations[]", () => {
  it("prefers authorizations[0] over top-level fields for org installs", async () => {
    const p = provider({ E0ORG00001: ORG });
    const h = await multi({ clientId: undefined, clientSecret: undefined, ...p });
    await h.deliver(
      mention(h, ORG, "C0GRID0001", {
        is_enterprise_install: false,
        authorizations: [
          { enterprise_id: "E0ORG00001", team_id: ORG.teamId, is_enterprise_install: true },
        ],
      }),
    );
    await h.settle();
    expect(p.asked).toEqual([["E0ORG00001", true]]);
  });

  it("falls back to top-level fields when authorizations is absent", async () => {
    const p = provider({ E0ORG00001: ORG });
    const h = await multi({ clientId: undefined, clientSecret: undefined, ...p });
    await h.deliver(
      mention(h, ORG, "C0GRID0001", { enterprise_id: "E0ORG00001", is_enterprise_install: true }),
    );
    await h.settle();
    expect(p.asked).toEqual([["E0ORG00001", true]]);
  });

  it("uses the authorization's team over a Slack Connect top-level team", async () => {
    const p = provider({ [A.teamId]: A });
    const h = await multi({ clientId: undefined, clientSecret: undefined, ...p });
    await h.deliver(
      mention(h, B, "C0SHARED01", {
        authorizations: [{ enterprise_id: null, team_id: A.teamId, is_enterprise_install: false }],
      }),
    );
    await h.settle();
    expect(p.asked).toEqual([[A.teamId, false]]);
  });
});

describe("webClient getter", () => {
  it("returns the underlying WebClient bound to the static botToken", async () => {
    const h = await createSlackHarness();
    harnesses.push(h);
    expect(h.adapter.webClient.token).toBe(h.fake.botToken);
    expect(h.adapter.webClient).toBe(h.adapter.client);
  });

  it("exposes the same instance via the deprecated `client` alias", async () => {
    const h = await multi();
    h.adapter.withBotToken(A.botToken, () => {
      expect(h.adapter.client).toBe(h.adapter.webClient);
    });
  });

  it("returns the same instance across calls in single-workspace mode", async () => {
    const h = await createSlackHarness();
    harnesses.push(h);
    expect(h.adapter.webClient).toBe(h.adapter.webClient);
  });

  it("throws on both `webClient` and the `client` alias in multi-workspace mode without context", async () => {
    const h = await multi();
    expect(() => h.adapter.webClient).toThrow(ConfigError);
    expect(() => h.adapter.client).toThrow(ConfigError);
  });

  it("uses the request context token under withBotToken via `webClient`", async () => {
    const h = await multi();
    expect(h.adapter.withBotToken(B.botToken, () => h.adapter.webClient.token)).toBe(B.botToken);
  });
});
