import {
  Actions,
  Button,
  Card,
  CardText,
  Divider,
  Field,
  Fields,
  Image,
  LinkButton,
  NotSupportedError,
  RadioSelect,
  Section,
  Select,
  SelectOption,
  Table,
} from "@baton/core";
import { describe, expect, it } from "vitest";
import {
  cardToBlockKit,
  cardToFallbackText,
  cardToSlackText,
  renderSlackMessage,
  SLACK_LIMITS,
} from "../src/index.js";

describe("Block Kit rendering of cards", () => {
  it("draws the title as a header, the subtitle as context and the header image", () => {
    const blocks = cardToBlockKit(
      Card({
        title: "Order #42",
        subtitle: "Ready for pickup",
        imageUrl: "https://x.dev/a.png",
        children: [],
      }),
    );
    expect(blocks).toEqual([
      { type: "header", text: { type: "plain_text", text: "Order #42", emoji: true } },
      { type: "context", elements: [{ type: "mrkdwn", text: "Ready for pickup" }] },
      { type: "image", image_url: "https://x.dev/a.png", alt_text: "Order #42" },
    ]);
  });

  it("renders text as mrkdwn sections, muted text as context, bold text bold", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [
          CardText("Hello **world** & <friends>"),
          CardText("small print", { style: "muted" }),
          CardText("loud", { style: "bold" }),
        ],
      }),
    );
    expect(blocks).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "Hello *world* &amp; &lt;friends&gt;" } },
      { type: "context", elements: [{ type: "mrkdwn", text: "small print" }] },
      { type: "section", text: { type: "mrkdwn", text: "*loud*" } },
    ]);
  });

  it("renders images, dividers and flattened sections", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [
          Image({ url: "https://x.dev/b.png", alt: "chart" }),
          Divider(),
          Section([CardText("inside"), Divider()]),
        ],
      }),
    );
    expect(blocks.map((b) => b.type)).toEqual(["image", "divider", "section", "divider"]);
    expect(blocks[0]).toEqual({
      type: "image",
      image_url: "https://x.dev/b.png",
      alt_text: "chart",
    });
  });

  it("renders fields as section fields, ten to a section", () => {
    const many = Array.from({ length: 12 }, (_, i) => Field({ label: `L${i}`, value: `v${i}` }));
    const blocks = cardToBlockKit(Card({ children: [Fields(many)] }));
    expect(blocks).toHaveLength(2);
    expect((blocks[0]?.fields as unknown[]).length).toBe(10);
    expect((blocks[1]?.fields as unknown[])[0]).toEqual({ type: "mrkdwn", text: "*L10*\nv10" });
  });

  it("renders buttons, link buttons, selects and radio buttons in an actions block", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [
          Actions([
            Button({ id: "approve", label: "Approve", style: "primary", value: "yes" }),
            Button({ id: "reject", label: "Reject", style: "danger" }),
            LinkButton({ url: "https://x.dev/docs", label: "Docs" }),
            Select({
              id: "size",
              label: "Size",
              options: [SelectOption({ label: "Large", value: "L" })],
              initialOption: "L",
            }),
            RadioSelect({
              id: "plan",
              label: "Plan",
              options: [SelectOption({ label: "Pro", value: "pro" })],
            }),
          ]),
        ],
      }),
    );
    const elements = blocks[0]?.elements as Array<Record<string, unknown>>;
    expect(blocks[0]?.type).toBe("actions");
    expect(elements[0]).toEqual({
      type: "button",
      action_id: "approve",
      text: { type: "plain_text", text: "Approve", emoji: true },
      value: "yes",
      style: "primary",
    });
    expect(elements[1]).toMatchObject({ action_id: "reject", style: "danger" });
    expect(elements[2]).toMatchObject({ type: "button", url: "https://x.dev/docs" });
    expect(elements[3]).toMatchObject({
      type: "static_select",
      action_id: "size",
      initial_option: { value: "L" },
      placeholder: { type: "plain_text", text: "Size", emoji: true },
    });
    expect(elements[4]).toMatchObject({
      type: "radio_buttons",
      action_id: "plan",
      options: [{ text: { type: "mrkdwn", text: "Pro" }, value: "pro" }],
    });
  });

  it("renders a table as a monospace block, since apps have no table block here", () => {
    const blocks = cardToBlockKit(
      Card({ children: [Table({ headers: ["Name", "Qty"], rows: [["apple", "3"]] })] }),
    );
    const text = (blocks[0]?.text as { text: string }).text;
    expect(text.startsWith("```")).toBe(true);
    expect(text).toContain("apple");
    expect(text).toContain("Qty");
  });

  it("keeps within Slack's limits: long text is cut with a marker and extra blocks are dropped", () => {
    const long = "x".repeat(SLACK_LIMITS.sectionText + 500);
    const blocks = cardToBlockKit(
      Card({
        title: "t".repeat(200),
        children: [CardText(long), ...Array.from({ length: 60 }, () => Divider())],
      }),
    );
    expect(blocks).toHaveLength(SLACK_LIMITS.blocks);
    expect((blocks[0]?.text as { text: string }).text.length).toBe(SLACK_LIMITS.headerText);
    const section = (blocks[1]?.text as { text: string }).text;
    expect(section.length).toBe(SLACK_LIMITS.sectionText);
    expect(section.endsWith("…")).toBe(true);
    expect(JSON.stringify(blocks.at(-1))).toContain("card truncated");
  });

  it("gives a card post Block Kit blocks and a notification text without the controls", () => {
    const card = Card({
      title: "Deploy?",
      children: [CardText("to production"), Actions([Button({ id: "go", label: "Go" })])],
    });
    const body = renderSlackMessage(card);
    expect(body.blocks?.length).toBe(3);
    expect(body.text).toBe(cardToSlackText(card));
    expect(body.text).toContain("Deploy?");
    expect(body.text).not.toContain("[Go]");
  });

  it("uses the post's own fallback text when it gives one", () => {
    const body = renderSlackMessage({
      card: Card({ title: "Hi", children: [] }),
      fallbackText: "**Hello** there",
    });
    expect(body.text).toBe("*Hello* there");
  });

  it("refuses a post with files, naming the adapter and the feature", () => {
    let error: unknown;
    try {
      renderSlackMessage({
        markdown: "see file",
        files: [{ data: new Uint8Array([1]), filename: "a.txt" }],
      } as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NotSupportedError);
    expect(error).toMatchObject({ adapter: "slack", feature: "files" });
  });
});

describe("cardToBlockKit", () => {
  it("converts a simple card with title", () => {
    const blocks = cardToBlockKit(Card({ title: "Welcome" }));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "Welcome", emoji: true },
    });
  });

  it("converts a card with title and subtitle", () => {
    const blocks = cardToBlockKit(
      Card({ title: "Order Update", subtitle: "Your order is on its way" }),
    );
    expect(blocks).toHaveLength(2);
    expect(blocks[0]?.type).toBe("header");
    expect(blocks[1]).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: "Your order is on its way" }],
    });
  });

  it("converts a card with header image", () => {
    const blocks = cardToBlockKit(
      Card({ title: "Product", imageUrl: "https://example.com/product.png" }),
    );
    expect(blocks).toHaveLength(2);
    expect(blocks[1]).toEqual({
      type: "image",
      image_url: "https://example.com/product.png",
      alt_text: "Product",
    });
  });

  it("converts text elements", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [
          CardText("Regular text"),
          CardText("Bold text", { style: "bold" }),
          CardText("Muted text", { style: "muted" }),
        ],
      }),
    );
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: "Regular text" } });
    expect(blocks[1]).toEqual({ type: "section", text: { type: "mrkdwn", text: "*Bold text*" } });
    expect(blocks[2]).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: "Muted text" }],
    });
  });

  it("converts image elements", () => {
    const blocks = cardToBlockKit(
      Card({ children: [Image({ url: "https://example.com/img.png", alt: "My image" })] }),
    );
    expect(blocks).toEqual([
      { type: "image", image_url: "https://example.com/img.png", alt_text: "My image" },
    ]);
  });

  it("converts divider elements", () => {
    expect(cardToBlockKit(Card({ children: [Divider()] }))).toEqual([{ type: "divider" }]);
  });

  it("converts actions with buttons", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [
          Actions([
            Button({ id: "approve", label: "Approve", style: "primary" }),
            Button({ id: "reject", label: "Reject", style: "danger", value: "data-123" }),
            Button({ id: "skip", label: "Skip" }),
          ]),
        ],
      }),
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.type).toBe("actions");
    expect(blocks[0]?.elements).toEqual([
      {
        type: "button",
        text: { type: "plain_text", text: "Approve", emoji: true },
        action_id: "approve",
        style: "primary",
      },
      {
        type: "button",
        text: { type: "plain_text", text: "Reject", emoji: true },
        action_id: "reject",
        value: "data-123",
        style: "danger",
      },
      {
        type: "button",
        text: { type: "plain_text", text: "Skip", emoji: true },
        action_id: "skip",
      },
    ]);
  });

  it("converts fields", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [
          Fields([
            Field({ label: "Status", value: "Active" }),
            Field({ label: "Priority", value: "High" }),
          ]),
        ],
      }),
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.type).toBe("section");
    expect(blocks[0]?.fields).toEqual([
      { type: "mrkdwn", text: "*Status*\nActive" },
      { type: "mrkdwn", text: "*Priority*\nHigh" },
    ]);
  });

  it("flattens section children", () => {
    const blocks = cardToBlockKit(
      Card({ children: [Section([CardText("Inside section"), Divider()])] }),
    );
    expect(blocks.map((block) => block.type)).toEqual(["section", "divider"]);
  });

  it("converts a complete card", () => {
    const blocks = cardToBlockKit(
      Card({
        title: "Order #1234",
        subtitle: "Status update",
        children: [
          CardText("Your order has been shipped!"),
          Divider(),
          Fields([
            Field({ label: "Tracking", value: "ABC123" }),
            Field({ label: "ETA", value: "Dec 25" }),
          ]),
          Actions([Button({ id: "track", label: "Track Package", style: "primary" })]),
        ],
      }),
    );
    expect(blocks.map((block) => block.type)).toEqual([
      "header",
      "context",
      "section",
      "divider",
      "section",
      "actions",
    ]);
  });
});

describe("cardToFallbackText", () => {
  it("generates fallback text for a card", () => {
    const text = cardToFallbackText(
      Card({
        title: "Order Update",
        subtitle: "Status changed",
        children: [
          CardText("Your order is ready"),
          Fields([
            Field({ label: "Order ID", value: "#1234" }),
            Field({ label: "Status", value: "Ready" }),
          ]),
          Actions([
            Button({ id: "pickup", label: "Schedule Pickup" }),
            Button({ id: "delay", label: "Delay" }),
          ]),
        ],
      }),
    );
    expect(text).toContain("*Order Update*");
    expect(text).toContain("Status changed");
    expect(text).toContain("Your order is ready");
    expect(text).toContain("Order ID: #1234");
    expect(text).toContain("Status: Ready");
    expect(text).toContain("[Schedule Pickup] [Delay]");
  });

  it("handles card with only title", () => {
    expect(cardToFallbackText(Card({ title: "Simple Card" }))).toBe("*Simple Card*");
  });
});
