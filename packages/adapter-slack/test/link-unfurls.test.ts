/**
 * Links Slack unfurled carry the unfurl (title, description, image, site), and an unfurl
 * arriving later as a `message_changed` is not an edit. Ports upstream's "link unfurl
 * enrichment" through the real webhook; the Baton-titled test pins where Baton differs (ADR 0030).
 */
import type { LinkPreview, Message } from "@baton/core";
import { describe, expect, it } from "vitest";
import { harness, nextTs } from "./names-helpers.js";

type Harness = Awaited<ReturnType<typeof harness>>;

/** Every message and edit the Chat dispatched, as handlers saw them. */
function record(h: Harness) {
  const messages: Message[] = [];
  const updates: Message[] = [];
  h.chat.onNewMessage(/[\s\S]*/, (_thread, message) => {
    messages.push(message);
  });
  h.chat.onMessageUpdated((_thread, message) => {
    updates.push(message);
  });
  return { messages, updates };
}

async function deliver(h: Harness, event: Record<string, unknown>) {
  const response = await h.deliver(h.envelope({ type: "message", channel: "C123", ...event }));
  expect(response.status).toBe(200);
  await h.settle();
}

const linkBlock = (...elements: Record<string, unknown>[]) => [
  { type: "rich_text", elements: [{ type: "rich_text_section", elements }] },
];

const plain = (links: readonly LinkPreview[]) =>
  links.map(({ fetchMessage: _, ...fields }) => fields);

/** The links (without loaders) of a message a person posts in C123, as its handler saw them. */
async function linksOf(fields: Record<string, unknown>) {
  const h = await harness();
  const seen = record(h);
  await deliver(h, { ts: nextTs(), user: "U0HUMAN001", ...fields });
  expect(seen.messages).toHaveLength(1);
  return plain(seen.messages[0]?.links ?? []);
}

describe("link unfurl enrichment", () => {
  it("should enrich links with metadata from attachments", async () => {
    const links = await linksOf({
      text: "Check out ",
      blocks: linkBlock(
        { type: "text", text: "Check out " },
        { type: "link", url: "https://example.com/article" },
      ),
      attachments: [
        {
          from_url: "https://example.com/article",
          title: "Example Article",
          text: "An interesting article about testing",
          image_url: "https://example.com/og-image.png",
          service_name: "Example",
        },
      ],
    });

    expect(links).toEqual([
      {
        url: "https://example.com/article",
        title: "Example Article",
        description: "An interesting article about testing",
        imageUrl: "https://example.com/og-image.png",
        siteName: "Example",
      },
    ]);
  });

  it("should extract links from attachments even without blocks", async () => {
    const links = await linksOf({
      text: "https://github.com/vercel/chat",
      attachments: [
        {
          from_url: "https://github.com/vercel/chat",
          title: "vercel/chat",
          text: "Chat SDK for building bots",
          service_name: "GitHub",
          service_icon: "https://github.githubassets.com/favicon.ico",
        },
      ],
    });

    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ title: "vercel/chat", siteName: "GitHub" });
  });

  it("should return bare links when no attachments present", async () => {
    const links = await linksOf({
      text: "Check out ",
      blocks: linkBlock({ type: "link", url: "https://example.com" }),
    });

    expect(links).toEqual([{ url: "https://example.com" }]);
  });

  it("parses bracketed links from text and bounds their length", async () => {
    const overLong = `https://example.com/${"a".repeat(4_000)}`;
    const links = await linksOf({
      text: `ok <https://example.com/x> and <${overLong}>`,
    });

    expect(links.map((link) => link.url)).toEqual(["https://example.com/x"]);
  });

  it("should match unfurl metadata with trailing slash differences", async () => {
    const links = await linksOf({
      text: " ",
      blocks: linkBlock({ type: "link", url: "https://example.com" }),
      attachments: [{ from_url: "https://example.com/", title: "Example", text: "Welcome" }],
    });

    expect(links).toEqual([
      { url: "https://example.com", title: "Example", description: "Welcome" },
    ]);
  });

  it("should not re-dispatch message_changed as a new message", async () => {
    const h = await harness();
    const seen = record(h);
    await deliver(h, {
      subtype: "message_changed",
      hidden: true,
      ts: nextTs(),
      message: {
        type: "message",
        user: "U0HUMAN001",
        text: "https://example.com",
        ts: "1234567890.123456",
        attachments: [
          { from_url: "https://example.com", title: "Example Site", text: "Welcome to Example" },
        ],
      },
    });

    expect(seen.messages).toHaveLength(0);
    expect(seen.updates).toHaveLength(0);
  });

  it("dispatches an edit Slack marks hidden as an update (Baton: ADR 0030)", async () => {
    const h = await harness();
    const seen = record(h);
    await deliver(h, {
      subtype: "message_changed",
      hidden: true,
      ts: "1234567891.000000",
      message: {
        type: "message",
        user: "U0HUMAN001",
        text: "edited text",
        ts: "1234567890.123456",
        edited: { user: "U0HUMAN001", ts: "1234567891.000000" },
      },
    });

    expect(seen.messages).toHaveLength(0);
    expect(seen.updates.map((message) => message.text)).toEqual(["edited text"]);
    expect(seen.updates[0]?.metadata.edited).toBe(true);
  });
});
