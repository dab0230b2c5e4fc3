import { Card, CardText, NotSupportedError, ValidationError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  ADAPTIVE_CARD_CONTENT_TYPE,
  encodeTeamsThreadId,
  FILE_CONSENT_CONTENT_TYPE,
  FILE_CONSENT_INVOKE,
  FILE_INFO_CONTENT_TYPE,
  fileConsentKey,
  TEAMS_INLINE_IMAGE_MAX_BYTES,
} from "../src/index.js";
import { createTeamsActivityRequest } from "../src/testing/index.js";
import {
  CHANNEL,
  GROUP_CHAT,
  PERSONAL_CHAT,
  TENANT,
  type TeamsHarness,
  trackHarnesses,
} from "./teams-harness.js";

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

/** Eight bytes of PNG signature and a few more: Teams renders what the content type says. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PDF = new TextEncoder().encode("%PDF-1.7 quarterly report");
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

async function inConversation(conversationId: string, config = {}) {
  const h = await harnesses.open(config);
  const threadId = encodeTeamsThreadId({ conversationId, serviceUrl: h.fake.serviceUrl });
  return { h, threadId };
}

const channelReplyChain = `${CHANNEL};messageid=1767224924000`;

/** The body of the `index`-th activity the bot created. */
function created(h: TeamsHarness, index = 0): Record<string, unknown> | undefined {
  return h.fake.callsTo("activities.create")[index]?.body;
}

function attachmentsOf(body: Record<string, unknown> | undefined): Record<string, unknown>[] {
  return (body?.attachments as Record<string, unknown>[] | undefined) ?? [];
}

describe("Teams files on post: pictures inline (Baton)", () => {
  it("posts a PNG of up to 1 MB inline as a data: URI, in a channel, with the message text", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    await h.chat.thread(threadId).post({
      markdown: "The **chart**",
      files: [{ filename: "chart.png", data: PNG, mimeType: "image/png" }],
    });
    expect(created(h)).toMatchObject({ type: "message", text: "The **chart**" });
    expect(attachmentsOf(created(h))).toEqual([
      {
        contentType: "image/png",
        contentUrl: `data:image/png;base64,${base64(PNG)}`,
        name: "chart.png",
      },
    ]);
  });

  it("takes a picture of exactly 1 MB inline, in a group chat", async () => {
    const { h, threadId } = await inConversation(GROUP_CHAT);
    const bytes = new Uint8Array(TEAMS_INLINE_IMAGE_MAX_BYTES);
    await h.adapter.postMessage(threadId, {
      markdown: "big",
      files: [{ filename: "big.gif", data: bytes.buffer }],
    });
    expect(attachmentsOf(created(h))[0]).toMatchObject({
      contentType: "image/gif",
      name: "big.gif",
    });
  });

  it("guesses the picture's type from the file name, and reads Blob data", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    await h.adapter.postMessage(threadId, {
      markdown: "photo",
      files: [{ filename: "Holiday.JPG", data: new Blob([PNG]) }],
    });
    expect(attachmentsOf(created(h))[0]).toEqual({
      contentType: "image/jpeg",
      contentUrl: `data:image/jpeg;base64,${base64(PNG)}`,
      name: "Holiday.JPG",
    });
  });

  it("sends the files alone when the text is only whitespace", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    await h.adapter.postMessage(threadId, { raw: " ", files: [{ filename: "a.png", data: PNG }] });
    expect(created(h)?.text).toBeUndefined();
    expect(attachmentsOf(created(h))).toHaveLength(1);
  });

  it("shows an image attachment by its https URL, and one with fetchData by its bytes", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    await h.adapter.postMessage(threadId, {
      markdown: "two pictures",
      attachments: [
        { type: "image", url: "https://cdn.example.com/logo.png", name: "logo" },
        { type: "image", name: "fetched.gif", fetchData: async () => PNG },
      ],
    });
    expect(attachmentsOf(created(h))).toEqual([
      { contentType: "image/png", contentUrl: "https://cdn.example.com/logo.png", name: "logo" },
      {
        contentType: "image/gif",
        contentUrl: `data:image/gif;base64,${base64(PNG)}`,
        name: "fetched.gif",
      },
    ]);
  });

  it("puts pictures after the card of a card post", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    await h.chat.thread(threadId).post({
      card: Card({ title: "Report", children: [CardText("Numbers")] }),
      files: [{ filename: "chart.png", data: PNG }],
    });
    expect(attachmentsOf(created(h)).map((attachment) => attachment.contentType)).toEqual([
      ADAPTIVE_CARD_CONTENT_TYPE,
      "image/png",
    ]);
  });

  it("replaces a message's pictures in an edit", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    const sent = await h.adapter.postMessage(threadId, "before");
    await h.adapter.editMessage(threadId, sent.id, {
      markdown: "after",
      files: [{ filename: "new.png", data: PNG }],
    });
    const update = h.fake.callsTo("activities.update")[0];
    expect(update?.activityId).toBe(sent.id);
    expect(update?.body).toMatchObject({ text: "after" });
    expect(attachmentsOf(update?.body)).toEqual([
      {
        contentType: "image/png",
        contentUrl: `data:image/png;base64,${base64(PNG)}`,
        name: "new.png",
      },
    ]);
  });
});

describe("Teams files on post: what Teams does not take (Baton)", () => {
  it("refuses other files outside personal chats with a NotSupportedError naming the adapter and feature, before any call", async () => {
    for (const conversationId of [channelReplyChain, GROUP_CHAT]) {
      const { h, threadId } = await inConversation(conversationId);
      const post = h.chat.thread(threadId).post({
        markdown: "the report",
        files: [{ filename: "report.pdf", data: PDF }],
      });
      await expect(post).rejects.toBeInstanceOf(NotSupportedError);
      await expect(post).rejects.toMatchObject({ adapter: "teams", feature: "files" });
      await expect(post).rejects.toThrow(/outside personal chats/);
      expect(h.fake.calls).toEqual([]);
    }
  });

  it("refuses a picture over 1 MB outside personal chats", async () => {
    const { h, threadId } = await inConversation(GROUP_CHAT);
    const bytes = new Uint8Array(TEAMS_INLINE_IMAGE_MAX_BYTES + 1);
    await expect(
      h.adapter.postMessage(threadId, {
        markdown: "x",
        files: [{ filename: "big.png", data: bytes }],
      }),
    ).rejects.toMatchObject({ adapter: "teams", feature: "files" });
    expect(h.fake.calls).toEqual([]);
  });

  it("refuses a file that is not a picture in an edit, even in a personal chat", async () => {
    const { h, threadId } = await inConversation(PERSONAL_CHAT);
    const edit = h.adapter.editMessage(threadId, "m-1", {
      markdown: "x",
      files: [{ filename: "report.pdf", data: PDF }],
    });
    await expect(edit).rejects.toBeInstanceOf(NotSupportedError);
    await expect(edit).rejects.toThrow(/in an edit/);
    expect(h.fake.calls).toEqual([]);
  });

  it("refuses a file over fileConsentMaxBytes, and an empty file, with a ValidationError before anything is stored or sent", async () => {
    const { h, threadId } = await inConversation(PERSONAL_CHAT, { fileConsentMaxBytes: 10 });
    const tooLarge = h.adapter.postMessage(threadId, {
      markdown: "x",
      files: [{ filename: "report.pdf", data: PDF }],
    });
    await expect(tooLarge).rejects.toBeInstanceOf(ValidationError);
    await expect(tooLarge).rejects.toThrow(/fileConsentMaxBytes \(10\)/);
    const empty = h.adapter.postMessage(threadId, {
      markdown: "x",
      files: [{ filename: "empty.txt", data: new Uint8Array(0) }],
    });
    await expect(empty).rejects.toThrow(/empty/);
    expect(h.fake.calls).toEqual([]);
  });

  it("refuses an attachment it can neither read nor show, naming it", async () => {
    const { h, threadId } = await inConversation(channelReplyChain);
    await expect(
      h.adapter.postMessage(threadId, {
        markdown: "x",
        attachments: [{ type: "file", url: "https://example.com/report.pdf" }],
      }),
    ).rejects.toThrow(/attachments\[0\] needs data, fetchData/);
    expect(h.fake.calls).toEqual([]);
  });
});

/** The bot's file consent card in its first post, and the file id it carries. */
function consentCard(h: TeamsHarness, index = 0) {
  const card = attachmentsOf(created(h, index)).find(
    (attachment) => attachment.contentType === FILE_CONSENT_CONTENT_TYPE,
  );
  if (card === undefined) throw new Error("the bot posted no file consent card");
  const content = card.content as { acceptContext: { batonFileId: string } };
  return { card, fileId: content.acceptContext.batonFileId };
}

/** The `fileConsent/invoke` Teams sends into the personal chat when the user answers. */
function consentInvoke(h: TeamsHarness, value: unknown, conversationId = PERSONAL_CHAT) {
  return h.message("", {
    type: "invoke",
    name: FILE_CONSENT_INVOKE,
    value,
    conversation: { id: conversationId, conversationType: "personal", tenantId: TENANT },
  });
}

async function offerPdf() {
  const { h, threadId } = await inConversation(PERSONAL_CHAT);
  await h.chat.thread(threadId).post({
    markdown: "Your report",
    files: [{ filename: "report.pdf", data: PDF, mimeType: "application/pdf" }],
  });
  return { h, threadId, ...consentCard(h) };
}

describe("Teams files on post: file consent in personal chats (Baton)", () => {
  it("offers a PDF in a personal chat as a file consent card, its bytes kept in the State until the TTL ends", async () => {
    const { h, card, fileId } = await offerPdf();
    expect(created(h)).toMatchObject({ type: "message", text: "Your report" });
    expect(card).toEqual({
      contentType: FILE_CONSENT_CONTENT_TYPE,
      name: "report.pdf",
      content: {
        description: "report.pdf",
        sizeInBytes: PDF.byteLength,
        acceptContext: { batonFileId: fileId },
        declineContext: { batonFileId: fileId },
      },
    });
    expect(await h.state.get(fileConsentKey(fileId))).toMatchObject({
      filename: "report.pdf",
      mimeType: "application/pdf",
      dataBase64: base64(PDF),
    });
    await h.clock.advance(24 * 60 * 60 * 1000);
    expect(await h.state.get(fileConsentKey(fileId))).toBeNull();
  });

  it("uploads the file to OneDrive when the user accepts, then posts a file card for it", async () => {
    const { h, card, fileId } = await offerPdf();
    const answer = h.fake.oneDrive.consentAnswer(card, "accept");
    const response = await h.deliver(consentInvoke(h, answer));
    expect(response.status).toBe(200);
    expect(h.fake.oneDrive.uploads).toEqual([
      {
        fileId: answer.uploadInfo?.uniqueId,
        name: "report.pdf",
        bytes: PDF,
        contentRange: `bytes 0-${PDF.byteLength - 1}/${PDF.byteLength}`,
        authorization: undefined,
      },
    ]);
    expect(attachmentsOf(created(h, 1))).toEqual([
      {
        contentType: FILE_INFO_CONTENT_TYPE,
        contentUrl: answer.uploadInfo?.contentUrl,
        name: "report.pdf",
        content: { uniqueId: answer.uploadInfo?.uniqueId, fileType: "pdf" },
      },
    ]);
    expect(h.fake.callsTo("activities.create")[1]?.conversationId).toBe(PERSONAL_CHAT);
    expect(await h.state.get(fileConsentKey(fileId))).toBeNull();
  });

  it("forgets the file when the user declines", async () => {
    const { h, card, fileId } = await offerPdf();
    const response = await h.deliver(
      consentInvoke(h, h.fake.oneDrive.consentAnswer(card, "decline")),
    );
    expect(response.status).toBe(200);
    expect(h.fake.oneDrive.uploads).toEqual([]);
    expect(h.fake.callsTo("activities.create")).toHaveLength(1);
    expect(await h.state.get(fileConsentKey(fileId))).toBeNull();
  });

  it("uploads once when the accept arrives again while the first upload is under way (a Teams retry)", async () => {
    const { h, card } = await offerPdf();
    const answer = h.fake.oneDrive.consentAnswer(card, "accept");
    const release = h.fake.oneDrive.holdUploads();
    const detached: Promise<unknown>[] = [];
    const options = { waitUntil: (task: Promise<unknown>) => void detached.push(task) };
    const send = () =>
      h.webhook(
        createTeamsActivityRequest({ fake: h.fake, activity: consentInvoke(h, answer) }),
        options,
      );
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    // One delivery holds the file (its upload waits in OneDrive); the other gives up at once.
    await Promise.race(detached);
    release();
    await Promise.all(detached);
    expect(h.fake.oneDrive.attempts).toBe(1);
    expect(h.fake.oneDrive.uploads).toHaveLength(1);
    expect(h.fake.callsTo("activities.create")).toHaveLength(2);
  });

  it("ignores an accept from another conversation, and one after the file expired", async () => {
    const { h, card, fileId } = await offerPdf();
    const elsewhere = consentInvoke(
      h,
      h.fake.oneDrive.consentAnswer(card, "accept"),
      "a:other-user",
    );
    expect((await h.deliver(elsewhere)).status).toBe(200);
    expect(await h.state.get(fileConsentKey(fileId))).not.toBeNull();
    await h.clock.advance(24 * 60 * 60 * 1000);
    await h.deliver(consentInvoke(h, h.fake.oneDrive.consentAnswer(card, "accept")));
    expect(h.fake.oneDrive.uploads).toEqual([]);
    expect(h.fake.callsTo("activities.create")).toHaveLength(1);
  });

  it("keeps the file offered when the upload fails, so the next accept still delivers it", async () => {
    const { h, card, fileId } = await offerPdf();
    h.fake.oneDrive.failNextUpload(503);
    expect(
      (await h.deliver(consentInvoke(h, h.fake.oneDrive.consentAnswer(card, "accept")))).status,
    ).toBe(200);
    expect(h.fake.oneDrive.uploads).toEqual([]);
    expect(h.fake.callsTo("activities.create")).toHaveLength(1);
    expect(await h.state.get(fileConsentKey(fileId))).not.toBeNull();
    await h.deliver(consentInvoke(h, h.fake.oneDrive.consentAnswer(card, "accept")));
    expect(h.fake.oneDrive.uploads.map((upload) => upload.name)).toEqual(["report.pdf"]);
    expect(attachmentsOf(created(h, 1))[0]?.contentType).toBe(FILE_INFO_CONTENT_TYPE);
  });

  it("offers a picture Teams cannot show inline (WebP, or over 1 MB) in a personal chat, next to inline ones", async () => {
    const { h, threadId } = await inConversation(PERSONAL_CHAT);
    await h.adapter.postMessage(threadId, {
      markdown: "pictures",
      files: [
        { filename: "small.png", data: PNG },
        { filename: "photo.webp", data: PNG },
      ],
    });
    expect(
      attachmentsOf(created(h)).map((attachment) => [attachment.contentType, attachment.name]),
    ).toEqual([
      ["image/png", "small.png"],
      [FILE_CONSENT_CONTENT_TYPE, "photo.webp"],
    ]);
  });
});
