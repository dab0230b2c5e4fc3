import { describe, expect, it } from "vitest";
import { chatIdFromContext, extractCardTitle, extractTextFromGraphMessage } from "../src/index.js";

const card = (body: unknown[]) => ({
  id: "1",
  body: { contentType: "html", content: "" },
  attachments: [
    { contentType: "application/vnd.microsoft.card.adaptive", content: JSON.stringify({ body }) },
  ],
});

describe("extractTextFromGraphMessage", () => {
  it("should extract plain text content", () => {
    expect(
      extractTextFromGraphMessage({
        id: "1",
        body: { contentType: "text", content: "Hello there" },
      }),
    ).toBe("Hello there");
  });

  it("should strip HTML tags from html content", () => {
    expect(
      extractTextFromGraphMessage({
        id: "1",
        body: { contentType: "html", content: "<p>Hello <b>world</b> &amp; friends</p>" },
      }),
    ).toBe("Hello world & friends");
  });

  it("should return empty string for missing body", () => {
    expect(extractTextFromGraphMessage({ id: "1" })).toBe("");
  });

  it("should return '[Card]' for adaptive card without title", () => {
    expect(
      extractTextFromGraphMessage(card([{ type: "Image", url: "https://x.test/a.png" }])),
    ).toBe("[Card]");
  });

  it("should extract card title from bolder TextBlock", () => {
    expect(
      extractTextFromGraphMessage(
        card([
          { type: "TextBlock", text: "details" },
          { type: "TextBlock", text: "Order shipped", weight: "Bolder" },
        ]),
      ),
    ).toBe("Order shipped");
  });

  it("should return '[Card]' for invalid JSON in card content", () => {
    expect(
      extractTextFromGraphMessage({
        id: "1",
        attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: "{nope" }],
      }),
    ).toBe("[Card]");
  });
});

describe("extractCardTitle", () => {
  it("should return null for null/undefined", () => {
    expect(extractCardTitle(null)).toBeNull();
    expect(extractCardTitle(undefined)).toBeNull();
  });

  it("should return null for non-object values", () => {
    expect(extractCardTitle("card")).toBeNull();
    expect(extractCardTitle(42)).toBeNull();
    expect(extractCardTitle([{ type: "TextBlock", text: "x" }])).toBeNull();
  });

  it("should return null for empty body", () => {
    expect(extractCardTitle({ body: [] })).toBeNull();
  });

  it("should find title with weight: bolder", () => {
    expect(
      extractCardTitle({
        body: [
          { type: "TextBlock", text: "plain" },
          { type: "TextBlock", text: "Bold title", weight: "bolder" },
        ],
      }),
    ).toBe("Bold title");
  });

  it("should find title with size: large", () => {
    expect(
      extractCardTitle({
        body: [
          { type: "TextBlock", text: "plain" },
          { type: "TextBlock", text: "Large title", size: "large" },
        ],
      }),
    ).toBe("Large title");
  });

  it("should fallback to first TextBlock when no styled title found", () => {
    expect(
      extractCardTitle({
        body: [
          { type: "Image", url: "https://x.test/a.png" },
          { type: "TextBlock", text: "first" },
          { type: "TextBlock", text: "second" },
        ],
      }),
    ).toBe("first");
  });
});

describe("chatIdFromContext", () => {
  it("should use graphChatId from DM context", () => {
    expect(
      chatIdFromContext({ kind: "dm", graphChatId: "19:abc@unq.gbl.spaces" }, "a:bot-conv"),
    ).toBe("19:abc@unq.gbl.spaces");
  });

  it("should use raw conversation ID when no context", () => {
    expect(chatIdFromContext(undefined, "19:group@thread.v2")).toBe("19:group@thread.v2");
  });

  it("should use raw conversation ID for channel context", () => {
    expect(
      chatIdFromContext(
        { kind: "channel", teamId: "team-1", channelId: "19:c@thread.tacv2" },
        "19:c@thread.tacv2",
      ),
    ).toBe("19:c@thread.tacv2");
  });
});
