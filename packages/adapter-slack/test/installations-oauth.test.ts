import { describe, expect, it } from "vitest";
import {
  A,
  B,
  CLIENT,
  callback,
  closeHarnessesAfterEach,
  mention,
  multi,
  ORG,
  tokensOf,
} from "./installs-fixtures.js";

closeHarnessesAfterEach();

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
