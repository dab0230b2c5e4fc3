import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createAnonymousAttachmentFetchData,
  createTeamsAttachment,
  rehydrateTeamsAttachment,
  type TeamsAttachmentFetchers,
} from "../src/index.js";

const CONNECTOR_URL = "https://smba.trafficmanager.net/teams/";

function createFetchers(
  fetchAuthenticated: TeamsAttachmentFetchers["fetchAuthenticated"],
  transfer?: (url: string) => Promise<Uint8Array>,
): TeamsAttachmentFetchers {
  return {
    createAnonymousFetchData: transfer
      ? (url) => () => transfer(url)
      : createAnonymousAttachmentFetchData,
    fetchAuthenticated,
  };
}

/** A file-download card for `fileType`, as Teams sends one for an uploaded file. */
function fileCard(fileType: string) {
  return {
    contentType: "application/vnd.microsoft.teams.file.download.info",
    content: { downloadUrl: "https://files.example.com/download", fileType },
    name: `report${fileType}`,
  };
}

// Ported from upstream packages/adapter-teams/src/attachments.test.ts (titles verbatim).
describe("Teams attachments", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("downloads file cards anonymously and infers their MIME type", async () => {
    const fetchAuthenticated = vi.fn();
    const transfer = vi.fn(async () => new TextEncoder().encode("file contents"));
    const url = "https://contoso-my.sharepoint.com/personal/user/file.png";
    const attachment = createTeamsAttachment(
      {
        contentType: "application/vnd.microsoft.teams.file.download.info",
        content: { downloadUrl: url, fileType: ".png" },
        name: "diagram.png",
      },
      CONNECTOR_URL,
      createFetchers(fetchAuthenticated, transfer),
    );
    expect(attachment).toMatchObject({
      type: "image",
      url,
      name: "diagram.png",
      mimeType: "image/png",
      fetchMetadata: { url },
    });
    await expect(attachment?.fetchData?.()).resolves.toEqual(
      new TextEncoder().encode("file contents"),
    );
    expect(transfer).toHaveBeenCalledWith(url);
    expect(fetchAuthenticated).not.toHaveBeenCalled();
  });

  it("infers the MIME type for .pdf file cards", () => {
    const attachment = createTeamsAttachment(
      fileCard(".pdf"),
      CONNECTOR_URL,
      createFetchers(vi.fn()),
    );
    expect(attachment).toMatchObject({ type: "file", mimeType: "application/pdf" });
  });

  it("infers the MIME type for .xls file cards", () => {
    const attachment = createTeamsAttachment(
      fileCard(".xls"),
      CONNECTOR_URL,
      createFetchers(vi.fn()),
    );
    expect(attachment).toMatchObject({ type: "file", mimeType: "application/vnd.ms-excel" });
  });

  it("infers the MIME type for .xlsx file cards", () => {
    const attachment = createTeamsAttachment(
      fileCard(".xlsx"),
      CONNECTOR_URL,
      createFetchers(vi.fn()),
    );
    expect(attachment).toMatchObject({
      type: "file",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    });
  });

  it("keeps cross-origin and HTTP inline attachments compatible and anonymous", async () => {
    const fetchAuthenticated = vi.fn();
    const anonymousFetch = vi.fn(async () => new Response("public image"));
    vi.stubGlobal("fetch", anonymousFetch);
    const urls = [
      "https://files.example.com/image.png",
      "http://smba.trafficmanager.net/teams/image.png",
    ];
    const attachments = urls.map((contentUrl) =>
      createTeamsAttachment(
        { contentType: "image/png", contentUrl, name: "image.png" },
        CONNECTOR_URL,
        createFetchers(fetchAuthenticated),
      ),
    );
    expect(attachments).toMatchObject(
      urls.map((url) => ({
        type: "image",
        url,
        name: "image.png",
        mimeType: "image/png",
        fetchMetadata: { url },
      })),
    );
    await Promise.all(attachments.map((attachment) => attachment?.fetchData?.()));
    expect(anonymousFetch).toHaveBeenCalledTimes(2);
    expect(fetchAuthenticated).not.toHaveBeenCalled();
  });

  it("rehydrates both retrieval modes and revalidates bot destinations", async () => {
    const fetchAuthenticated = vi.fn(async () => new TextEncoder().encode("rehydrated image"));
    const transfer = vi.fn(async () => new TextEncoder().encode("anonymous file"));
    const fetchers = createFetchers(fetchAuthenticated, transfer);
    const url = "https://smba.trafficmanager.net/teams/v3/attachments/image/views/original";
    const serialized = JSON.parse(
      JSON.stringify({
        type: "image",
        url,
        fetchMetadata: { url, auth: "bot", connectorOrigin: "https://smba.trafficmanager.net" },
      }),
    );
    const rehydrated = rehydrateTeamsAttachment(serialized, fetchers);
    await expect(rehydrated.fetchData?.()).resolves.toEqual(
      new TextEncoder().encode("rehydrated image"),
    );

    for (const untrusted of [
      {
        url: "https://files.example.com/image.png",
        connectorOrigin: "https://smba.trafficmanager.net",
      },
      {
        url: "http://smba.trafficmanager.net/teams/image.png",
        connectorOrigin: "https://smba.trafficmanager.net",
      },
      { url, connectorOrigin: undefined },
    ]) {
      const attachment = rehydrateTeamsAttachment(
        {
          type: "image",
          url: untrusted.url,
          fetchMetadata: {
            url: untrusted.url,
            auth: "bot",
            ...(untrusted.connectorOrigin ? { connectorOrigin: untrusted.connectorOrigin } : {}),
          },
        },
        fetchers,
      );
      await expect(attachment.fetchData?.()).rejects.toThrow(
        "Refusing to send a bot token to an untrusted attachment URL",
      );
    }

    const anonymousUrl = "https://contoso-my.sharepoint.com/personal/user/report.pdf";
    const anonymous = rehydrateTeamsAttachment(
      JSON.parse(
        JSON.stringify({
          type: "file",
          url: anonymousUrl,
          mimeType: "application/pdf",
          fetchMetadata: { url: anonymousUrl },
        }),
      ),
      fetchers,
    );
    await expect(anonymous.fetchData?.()).resolves.toEqual(
      new TextEncoder().encode("anonymous file"),
    );
    expect(fetchAuthenticated).toHaveBeenCalledTimes(1);
    expect(transfer).toHaveBeenCalledWith(anonymousUrl);
  });

  for (const url of [
    "http://169.254.169.254/latest/meta-data",
    "https://127.0.0.1/private",
    "https://2130706433/private",
    "https://[::1]/private",
  ]) {
    it(`refuses the internal anonymous URL ${url} after rehydration (Baton)`, async () => {
      const attachment = rehydrateTeamsAttachment(
        { type: "file", url, fetchMetadata: { url } },
        createFetchers(vi.fn()),
      );
      await expect(attachment.fetchData?.()).rejects.toThrow(
        "Refusing to fetch an internal attachment URL",
      );
    });
  }
});
