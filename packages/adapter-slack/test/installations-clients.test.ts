import { ConfigError } from "@baton/core";
import { describe, expect, it, vi } from "vitest";
import { createSlackAdapter } from "../src/index.js";
import type { FakeSlackWorkspace } from "../src/testing/index.js";
import {
  A,
  B,
  clientToken,
  closeHarnessesAfterEach,
  install,
  mention,
  multi,
  ORG,
  tokensOf,
  tracked,
} from "./installs-fixtures.js";

closeHarnessesAfterEach();

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
    const h = await tracked();
    expect(clientToken(h)).toBe(h.fake.botToken);
  });

  it("caches the WebClient for repeated access with the same token", async () => {
    const h = await tracked();
    expect(h.adapter.client).toBe(h.adapter.client);
  });

  it("returns a WebClient bound to the context token under withBotToken", async () => {
    const h = await multi();
    expect(h.adapter.withBotToken(A.botToken, () => clientToken(h))).toBe(A.botToken);
  });

  it("prefers the context token over the default in single-workspace mode", async () => {
    const h = await tracked();
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
    // Upstream answers "ok"; Baton acknowledges with an empty body (ADR 0028).
    expect(await response.text()).toBe("");
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
    const h = await tracked();
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
    const h = await tracked();
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
