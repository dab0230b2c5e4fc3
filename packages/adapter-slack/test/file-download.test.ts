import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AdapterError, type Attachment, Message } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { isSlackFileUrl, type SlackInstallationProvider } from "../src/index.js";
import type { FakeSlackWorkspace } from "../src/testing/index.js";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
async function harness(...args: Parameters<typeof createSlackHarness>) {
  const h = await createSlackHarness(...args);
  harnesses.push(h);
  return h;
}

const CLIENT = { clientId: "fake-client-id", clientSecret: "fake-client-secret" };
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);

/**
 * Puts a private file on the fake at `/files/{name}`, downloadable with `token` only (any token
 * the fake knows when none is given), and returns its `url_private`.
 */
function shareFile(h: SlackHarness, name: string, content: string, token?: string): string {
  h.fake.store.downloads.set(`/files/${name}`, {
    bytes: bytes(content),
    mimeType: "application/octet-stream",
    ...(token === undefined ? {} : { token }),
  });
  return `${h.fake.url}/files/${name}`;
}

/** A server off Slack that records the requests it gets and answers `body`. */
async function startOutsider(body = "outside") {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { "content-type": "application/octet-stream" });
    response.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/file.bin`, seen };
}

/** A provider answering from `table`, recording what it was asked. */
function provider(table: Record<string, FakeSlackWorkspace>) {
  const asked: Array<[string, boolean]> = [];
  const installationProvider: SlackInstallationProvider = {
    getInstallation: async (installationId, isEnterpriseInstall) => {
      asked.push([installationId, isEnterpriseInstall]);
      const workspace = table[installationId];
      return workspace === undefined
        ? null
        : { botToken: workspace.botToken, botUserId: workspace.botUserId as string };
    },
  };
  return { asked, installationProvider };
}

function fileEvent(url: string) {
  return {
    type: "message",
    user: "U123",
    channel: "C456",
    text: "with file",
    ts: "1234567890.123456",
    files: [{ id: "F123", mimetype: "application/pdf", url_private: url, name: "doc.pdf" }],
  };
}

describe("Attachment.fetchData token resolution", () => {
  it("snapshots ctx token at attachment creation in multi-workspace mode", async () => {
    const h = await harness({ botToken: undefined, ...CLIENT });
    h.fake.addWorkspace({ teamId: "T0SNAP0001", botToken: "xoxb-team-snapshot" });
    const url = shareFile(h, "file.pdf", "pdf bytes", "xoxb-team-snapshot");
    const attachment = h.adapter.withBotToken(
      "xoxb-team-snapshot",
      () => h.adapter.parseMessage(fileEvent(url)).attachments[0],
    );
    expect(attachment).toBeDefined();
    // Called outside withBotToken: the token captured when the attachment was made is used.
    expect(text(await attachment?.fetchData?.())).toBe("pdf bytes");
  });
});

describe("reverse user lookup", () => {
  describe("rehydrateAttachment", () => {
    it("should resolve token from installation when teamId is present", async () => {
      const h = await harness({ botToken: undefined, ...CLIENT });
      h.fake.addWorkspace({ teamId: "T_MULTI_1", botToken: "xoxb-multi-workspace-token" });
      await h.adapter.setInstallation("T_MULTI_1", {
        botToken: "xoxb-multi-workspace-token",
        botUserId: "U_BOT_MULTI",
      });
      const url = shareFile(h, "img.png", "png bytes", "xoxb-multi-workspace-token");
      const rehydrated = h.adapter.rehydrateAttachment({
        type: "image",
        url,
        fetchMetadata: { url, teamId: "T_MULTI_1" },
      });
      expect(rehydrated.fetchData).toBeDefined();
      expect(text(await rehydrated.fetchData?.())).toBe("png bytes");
    });

    it("should fall back to getToken when no teamId in fetchMetadata", async () => {
      const h = await harness();
      const url = shareFile(h, "img.png", "png bytes", h.fake.botToken);
      const rehydrated = h.adapter.rehydrateAttachment({
        type: "image",
        url,
        fetchMetadata: { url },
      });
      expect(rehydrated.fetchData).toBeDefined();
      expect(text(await rehydrated.fetchData?.())).toBe("png bytes");
    });

    it("should return attachment unchanged when no url", async () => {
      const h = await harness();
      const attachment: Attachment = { type: "file", name: "test.bin" };
      const rehydrated = h.adapter.rehydrateAttachment(attachment);
      expect(rehydrated.fetchData).toBeUndefined();
      expect(rehydrated).toBe(attachment);
    });
  });
});

describe("installationProvider", () => {
  const REHYDRATE: FakeSlackWorkspace = { teamId: "T_REHYDRATE", botToken: "xoxb-rehydrate-token" };
  const ORG: FakeSlackWorkspace = {
    teamId: "T_WORKSPACE",
    botToken: "xoxb-ent-rehydrate-token",
    enterpriseId: "E_ORG",
    isEnterpriseInstall: true,
  };

  async function withProvider(table: Record<string, FakeSlackWorkspace>) {
    const p = provider(table);
    const h = await harness({ botToken: undefined, installationProvider: p.installationProvider });
    for (const workspace of Object.values(table)) h.fake.addWorkspace(workspace);
    return { h, asked: p.asked };
  }

  it("rehydrateAttachment uses installationProvider for token resolution", async () => {
    const { h, asked } = await withProvider({ T_REHYDRATE: REHYDRATE });
    const url = shareFile(h, "img.png", "png bytes", REHYDRATE.botToken);
    const rehydrated = h.adapter.rehydrateAttachment({
      type: "image",
      url,
      fetchMetadata: { url, teamId: "T_REHYDRATE" },
    });
    expect(rehydrated.fetchData).toBeDefined();
    expect(text(await rehydrated.fetchData?.())).toBe("png bytes");
    expect(asked).toEqual([["T_REHYDRATE", false]]);
  });

  it("rehydrateAttachment uses enterprise_id when isEnterpriseInstall is true", async () => {
    const { h, asked } = await withProvider({ E_ORG: ORG });
    const url = shareFile(h, "img.png", "org bytes", ORG.botToken);
    const rehydrated = h.adapter.rehydrateAttachment({
      type: "image",
      url,
      fetchMetadata: {
        url,
        teamId: "T_WORKSPACE",
        enterpriseId: "E_ORG",
        isEnterpriseInstall: "true",
      },
    });
    expect(text(await rehydrated.fetchData?.())).toBe("org bytes");
    expect(asked).toEqual([["E_ORG", true]]);
  });

  it("rehydrateAttachment throws when installationProvider returns null", async () => {
    const { h, asked } = await withProvider({});
    const url = shareFile(h, "img.png", "never served");
    const rehydrated = h.adapter.rehydrateAttachment({
      type: "image",
      url,
      fetchMetadata: { url, teamId: "T_MISSING" },
    });
    await expect(rehydrated.fetchData?.()).rejects.toThrow(
      "Installation not found for team T_MISSING",
    );
    expect(asked).toEqual([["T_MISSING", false]]);
  });

  it("event_callback with file attachment captures Enterprise Grid metadata", async () => {
    const ENT: FakeSlackWorkspace = {
      teamId: "T_ENT_WORKSPACE",
      botToken: "xoxb-ent-event-token",
      botUserId: "U_BOT_ENT_EVENT",
    };
    const { h, asked } = await withProvider({ E_ENT_FILE_ORG: ENT });
    const url = shareFile(h, "captured.png", "captured bytes", ENT.botToken);
    const seen: Attachment[] = [];
    h.chat.onNewMessage(/with file/, (_thread, message) => {
      seen.push(...message.attachments);
    });
    await h.deliver(
      h.envelope(
        {
          type: "message",
          channel: "C_TEST",
          user: "U_USER",
          username: "testuser",
          text: "with file",
          ts: "1234567890.123456",
          files: [{ id: "F1", mimetype: "image/png", url_private: url, name: "captured.png" }],
        },
        {
          team_id: "T_ENT_WORKSPACE",
          enterprise_id: "E_ENT_FILE_ORG",
          is_enterprise_install: true,
        },
      ),
    );
    await h.settle();
    const [attachment] = seen;
    expect(attachment?.fetchMetadata).toEqual(
      expect.objectContaining({
        url,
        teamId: "T_ENT_WORKSPACE",
        enterpriseId: "E_ENT_FILE_ORG",
        isEnterpriseInstall: "true",
      }),
    );
    // After the delivery, as a queued message would be: from JSON, through the org's install.
    const json = Message.fromJSON(
      JSON.parse(
        JSON.stringify(
          new Message({
            id: "m",
            threadId: "slack:C_TEST:1234567890.123456",
            text: "with file",
            author: { userId: "U_USER", userName: "u", fullName: "u", isBot: false, isMe: false },
            metadata: { dateSent: new Date(0), edited: false },
            attachments: seen,
          }).toJSON(),
        ),
      ),
    );
    const restored = h.adapter.rehydrateAttachment(json.attachments[0] as Attachment);
    expect(text(await restored.fetchData?.())).toBe("captured bytes");
    expect(asked.at(-1)).toEqual(["E_ENT_FILE_ORG", true]);
  });
});

describe("Slack file downloads (Baton)", () => {
  it("gives an inbound file a download with the bot token, from the handler", async () => {
    const h = await harness();
    const url = shareFile(h, "notes.txt", "meeting notes", h.fake.botToken);
    const downloaded: string[] = [];
    h.chat.onNewMessage(/notes/, async (_thread, message) => {
      const [file] = message.attachments;
      downloaded.push(text(await file?.fetchData?.()));
    });
    await h.deliver(
      h.envelope({
        type: "message",
        subtype: "file_share",
        channel: "C456",
        user: "U123",
        text: "the notes",
        ts: "1700000000.000200",
        files: [{ id: "F9", name: "notes.txt", mimetype: "text/plain", url_private: url }],
      }),
    );
    await h.settle();
    expect(downloaded).toEqual(["meeting notes"]);
  });

  it("never sends the bot token to a URL off Slack, whatever the metadata says", async () => {
    const h = await harness();
    const outsider = await startOutsider();
    for (const attachment of [
      h.adapter.parseMessage(fileEvent(outsider.url)).attachments[0] as Attachment,
      h.adapter.rehydrateAttachment({
        type: "file",
        fetchMetadata: { url: outsider.url, teamId: h.fake.teamId },
      }),
      h.adapter.rehydrateAttachment({ type: "file", url: "https://files.slack.com.evil.test/x" }),
    ]) {
      await expect(attachment.fetchData?.()).rejects.toThrow(/not a Slack file URL/);
    }
    expect(outsider.seen).toEqual([]);
  });

  it("follows a redirect off Slack without the token", async () => {
    const h = await harness();
    const outsider = await startOutsider("moved bytes");
    h.fake.store.downloads.set("/files/moved.bin", {
      bytes: new Uint8Array(0),
      mimeType: "application/octet-stream",
      token: h.fake.botToken,
      redirectTo: outsider.url,
    });
    const attachment = h.adapter.rehydrateAttachment({
      type: "file",
      url: `${h.fake.url}/files/moved.bin`,
    });
    expect(text(await attachment.fetchData?.())).toBe("moved bytes");
    expect(outsider.seen).toHaveLength(1);
    expect(outsider.seen[0]?.authorization).toBeUndefined();
  });

  it("fails with the HTTP status when Slack refuses the token", async () => {
    const h = await harness();
    const url = shareFile(h, "theirs.bin", "not yours", "xoxb-some-other-workspace");
    const attachment = h.adapter.rehydrateAttachment({ type: "file", url });
    const failure = attachment.fetchData?.();
    await expect(failure).rejects.toBeInstanceOf(AdapterError);
    await expect(failure).rejects.toThrow(/HTTP 403/);
  });

  it("refuses Slack's sign-in page instead of returning it as the file", async () => {
    const h = await harness();
    h.fake.store.downloads.set("/files/login.html", {
      bytes: bytes("<html>sign in</html>"),
      mimeType: "text/html; charset=utf-8",
    });
    const attachment = h.adapter.rehydrateAttachment({
      type: "file",
      url: `${h.fake.url}/files/login.html`,
    });
    await expect(attachment.fetchData?.()).rejects.toThrow(/files:read/);
  });

  it("treats Slack's https file hosts and the configured API origin as Slack", () => {
    const api = "http://127.0.0.1:4010/api/";
    expect(isSlackFileUrl("https://files.slack.com/files-pri/T1-F1/a.png", undefined)).toBe(true);
    expect(isSlackFileUrl("https://files.slack-gov.com/files-pri/T1-F1/a.png", undefined)).toBe(
      true,
    );
    expect(isSlackFileUrl("http://127.0.0.1:4010/files/a.png", api)).toBe(true);
    expect(isSlackFileUrl("http://files.slack.com/a.png", undefined)).toBe(false);
    expect(isSlackFileUrl("https://slack.com.evil.test/a.png", undefined)).toBe(false);
    expect(isSlackFileUrl("https://files.slack.com@evil.test/a.png", undefined)).toBe(false);
    expect(isSlackFileUrl("http://127.0.0.1:4011/files/a.png", api)).toBe(false);
    expect(isSlackFileUrl("not a url", api)).toBe(false);
  });
});
