import { Message } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { applyTelegramEntities } from "../src/index.js";
import { createTelegramHarness, type TelegramHarness } from "./telegram-harness.js";

const harnesses: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

/** The message the Chat dispatched for an update with `extra` fields (media, entities…). */
async function received(extra: Record<string, unknown>, text = "") {
  const h = await createTelegramHarness();
  harnesses.push(h);
  const messages: Message[] = [];
  h.chat.onDirectMessage((_t, m) => {
    messages.push(m);
  });
  await h.deliver(h.updates.message(text, { extra }));
  const [message] = messages;
  if (message === undefined) throw new Error("nothing was dispatched");
  return { h, message };
}

describe("TelegramAdapter", () => {
  it("preserves stable photo identity and JPEG metadata across resends and serialization", async () => {
    const photo = [
      { file_id: "small", file_unique_id: "u-small", width: 90, height: 60, file_size: 900 },
      { file_id: "large", file_unique_id: "u-large", width: 1280, height: 853, file_size: 91_000 },
    ];
    const { h, message } = await received({ photo });
    const [attachment] = message.attachments;
    expect(attachment).toMatchObject({
      type: "image",
      mimeType: "image/jpeg",
      width: 1280,
      height: 853,
      size: 91_000,
      fetchMetadata: { telegramFileId: "large", telegramFileUniqueId: "u-large" },
    });
    const revived = Message.fromJSON(JSON.parse(JSON.stringify(message.toJSON())));
    const rehydrated = h.adapter.rehydrateAttachment(revived.attachments[0] as never);
    expect(rehydrated.fetchMetadata).toEqual(attachment?.fetchMetadata);
    expect(typeof rehydrated.fetchData).toBe("function");
  });

  it("extracts document attachments from document messages", async () => {
    const { message } = await received({
      document: {
        file_id: "d1",
        file_unique_id: "ud1",
        file_name: "report.pdf",
        mime_type: "application/pdf",
        file_size: 1234,
      },
    });
    expect(message.attachments).toMatchObject([
      { type: "file", name: "report.pdf", mimeType: "application/pdf", size: 1234 },
    ]);
  });

  it("extracts audio attachments from audio messages", async () => {
    const { message } = await received({
      audio: { file_id: "a1", mime_type: "audio/mpeg", duration: 3 },
    });
    expect(message.attachments).toMatchObject([{ type: "audio", mimeType: "audio/mpeg" }]);
  });

  it("preserves stable identity for voice attachments", async () => {
    const { message } = await received({
      voice: { file_id: "v1", file_unique_id: "uv1", duration: 2 },
    });
    expect(message.attachments).toMatchObject([
      {
        type: "audio",
        mimeType: "audio/ogg",
        fetchMetadata: { telegramFileId: "v1", telegramFileUniqueId: "uv1" },
      },
    ]);
  });

  it("extracts video attachments from video messages", async () => {
    const { message } = await received({
      video: { file_id: "vid", mime_type: "video/mp4", width: 640, height: 360 },
    });
    expect(message.attachments).toMatchObject([
      { type: "video", mimeType: "video/mp4", width: 640, height: 360 },
    ]);
  });

  it("extracts video_note attachments from round video messages", async () => {
    const { message } = await received({ video_note: { file_id: "vn", length: 240, duration: 5 } });
    expect(message.attachments).toMatchObject([{ type: "video", mimeType: "video/mp4" }]);
  });

  it("fetches an attachment's content lazily through getFile", async () => {
    const h = await createTelegramHarness();
    harnesses.push(h);
    const fileId = h.fake.addFile("PDF bytes", "documents/report.pdf");
    const messages: Message[] = [];
    h.chat.onDirectMessage((_t, m) => {
      messages.push(m);
    });
    await h.deliver(
      h.updates.message("", { extra: { document: { file_id: fileId, file_name: "report.pdf" } } }),
    );
    expect(h.fake.calls("getFile")).toHaveLength(0);
    const data = await messages[0]?.attachments[0]?.fetchData?.();
    expect(new TextDecoder().decode(data)).toBe("PDF bytes");
    expect(h.fake.calls("getFile")).toHaveLength(1);
  });
});

describe("applyTelegramEntities", () => {
  it("returns text unchanged when no entities", () => {
    expect(applyTelegramEntities("hello", undefined)).toBe("hello");
    expect(applyTelegramEntities("hello", [])).toBe("hello");
  });

  it("converts text_link entities to markdown links", () => {
    expect(
      applyTelegramEntities("see docs now", [
        { type: "text_link", offset: 4, length: 4, url: "https://example.com" },
      ]),
    ).toBe("see [docs](https://example.com) now");
  });

  it("converts bold entities to markdown bold", () => {
    expect(applyTelegramEntities("a bold b", [{ type: "bold", offset: 2, length: 4 }])).toBe(
      "a **bold** b",
    );
  });

  it("converts italic entities to markdown italic", () => {
    expect(applyTelegramEntities("an italic", [{ type: "italic", offset: 3, length: 6 }])).toBe(
      "an *italic*",
    );
  });

  it("converts code entities to inline code", () => {
    expect(applyTelegramEntities("run npm i", [{ type: "code", offset: 4, length: 5 }])).toBe(
      "run `npm i`",
    );
  });

  it("converts pre entities to code blocks", () => {
    expect(applyTelegramEntities("x = 1", [{ type: "pre", offset: 0, length: 5 }])).toBe(
      "```\nx = 1\n```",
    );
  });

  it("converts pre entities with language", () => {
    expect(
      applyTelegramEntities("x = 1", [{ type: "pre", offset: 0, length: 5, language: "python" }]),
    ).toBe("```python\nx = 1\n```");
  });

  it("converts strikethrough entities", () => {
    expect(
      applyTelegramEntities("old new", [{ type: "strikethrough", offset: 0, length: 3 }]),
    ).toBe("~~old~~ new");
  });

  it("leaves url entities unchanged (already in text)", () => {
    const text = "go to https://example.com";
    expect(applyTelegramEntities(text, [{ type: "url", offset: 6, length: 19 }])).toBe(text);
  });

  it("leaves mention entities unchanged", () => {
    expect(applyTelegramEntities("@someone hi", [{ type: "mention", offset: 0, length: 8 }])).toBe(
      "@someone hi",
    );
  });

  it("handles multiple non-overlapping entities", () => {
    expect(
      applyTelegramEntities("bold and code", [
        { type: "bold", offset: 0, length: 4 },
        { type: "code", offset: 9, length: 4 },
      ]),
    ).toBe("**bold** and `code`");
  });

  it("handles text_link with special markdown chars in text", () => {
    expect(
      applyTelegramEntities("Click [here] now", [
        { type: "text_link", offset: 6, length: 6, url: "https://example.com/docs" },
      ]),
    ).toBe("Click [\\[here\\]](https://example.com/docs) now");
  });

  it("preserves parseMessage text with entities", async () => {
    const h = await createTelegramHarness();
    harnesses.push(h);
    const message = h.adapter.parseMessage(
      h.updates.message("a bold b", { entities: [{ type: "bold", offset: 2, length: 4 }] }),
    );
    expect(message.text).toBe("a bold b");
    expect(JSON.stringify(message.formatted)).toContain('"strong"');
  });

  it("nests entities that cover one another", () => {
    expect(
      applyTelegramEntities("all bold part", [
        { type: "bold", offset: 0, length: 13 },
        { type: "italic", offset: 4, length: 4 },
      ]),
    ).toBe("**all *bold* part**");
  });
});
