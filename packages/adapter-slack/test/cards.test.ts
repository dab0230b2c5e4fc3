import {
  Actions,
  Button,
  Card,
  CardLink,
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

function actionsOf(card: Parameters<typeof cardToBlockKit>[0]): Array<Record<string, unknown>> {
  return cardToBlockKit(card)[0]?.elements as Array<Record<string, unknown>>;
}

describe("cardToBlockKit", () => {
  it("converts link buttons with url property", () => {
    const [link] = actionsOf(
      Card({ children: [Actions([LinkButton({ url: "https://x.dev/a", label: "Open" })])] }),
    );
    expect(link).toEqual({
      type: "button",
      action_id: "link:https://x.dev/a",
      text: { type: "plain_text", text: "Open", emoji: true },
      url: "https://x.dev/a",
    });
  });

  it("uses custom link button action ids", () => {
    const [link] = actionsOf(
      Card({
        children: [Actions([LinkButton({ id: "docs", url: "https://x.dev/a", label: "Docs" })])],
      }),
    );
    expect(link).toMatchObject({ action_id: "docs", url: "https://x.dev/a" });
  });
});

describe("cardToBlockKit with select elements", () => {
  const size = () =>
    Select({
      id: "size",
      label: "Size",
      placeholder: "Pick a size",
      options: [SelectOption({ label: "S", value: "s" }), SelectOption({ label: "L", value: "l" })],
      initialOption: "l",
    });

  it("converts actions with select element", () => {
    const [select] = actionsOf(Card({ children: [Actions([size()])] }));
    expect(select).toEqual({
      type: "static_select",
      action_id: "size",
      placeholder: { type: "plain_text", text: "Pick a size", emoji: true },
      options: [
        { text: { type: "plain_text", text: "S", emoji: true }, value: "s" },
        { text: { type: "plain_text", text: "L", emoji: true }, value: "l" },
      ],
      initial_option: { text: { type: "plain_text", text: "L", emoji: true }, value: "l" },
    });
  });

  it("converts actions with mixed buttons and selects", () => {
    const elements = actionsOf(
      Card({ children: [Actions([Button({ id: "go", label: "Go" }), size()])] }),
    );
    expect(elements.map((element) => element.type)).toEqual(["button", "static_select"]);
    expect(elements.map((element) => element.action_id)).toEqual(["go", "size"]);
  });

  it("converts select without placeholder or initial option", () => {
    const [select] = actionsOf(
      Card({
        children: [
          Actions([
            Select({
              id: "x",
              label: "Choose",
              options: [SelectOption({ label: "A", value: "a" })],
            }),
          ]),
        ],
      }),
    );
    expect(select?.placeholder).toEqual({ type: "plain_text", text: "Choose", emoji: true });
    expect(select).not.toHaveProperty("initial_option");
  });
});

describe("cardToBlockKit with radio select elements", () => {
  it("converts actions with radio select element", () => {
    const [radio] = actionsOf(
      Card({
        children: [
          Actions([
            RadioSelect({
              id: "plan",
              label: "Plan",
              options: [SelectOption({ label: "Free", value: "free" })],
              initialOption: "free",
            }),
          ]),
        ],
      }),
    );
    expect(radio).toEqual({
      type: "radio_buttons",
      action_id: "plan",
      options: [{ text: { type: "mrkdwn", text: "Free" }, value: "free" }],
      initial_option: { text: { type: "mrkdwn", text: "Free" }, value: "free" },
    });
  });

  it("uses mrkdwn type for radio select labels", () => {
    const [radio] = actionsOf(
      Card({
        children: [
          Actions([
            RadioSelect({
              id: "p",
              label: "P",
              options: [SelectOption({ label: "*Pro*", value: "pro" })],
            }),
          ]),
        ],
      }),
    );
    const [option] = radio?.options as Array<{ text: Record<string, unknown> }>;
    expect(option?.text).toEqual({ type: "mrkdwn", text: "*Pro*" });
  });

  it("limits radio select options to 10", () => {
    const options = Array.from({ length: 12 }, (_, index) =>
      SelectOption({ label: `Option ${index}`, value: `v${index}` }),
    );
    const [radio] = actionsOf(
      Card({ children: [Actions([RadioSelect({ id: "many", label: "Many", options })])] }),
    );
    const rendered = radio?.options as Array<{ value: string }>;
    expect(rendered).toHaveLength(10);
    expect(rendered.at(-1)?.value).toBe("v9");
  });
});

describe("cardToBlockKit with select option descriptions", () => {
  const withDescription = [
    SelectOption({ label: "Pro", value: "pro", description: "Unlimited seats" }),
  ];

  it("includes description in select options with plain_text type", () => {
    const [select] = actionsOf(
      Card({ children: [Actions([Select({ id: "s", label: "S", options: withDescription })])] }),
    );
    const [option] = select?.options as Array<Record<string, unknown>>;
    expect(option?.description).toEqual({
      type: "plain_text",
      text: "Unlimited seats",
      emoji: true,
    });
  });

  it("includes description in radio select options with mrkdwn type", () => {
    const [radio] = actionsOf(
      Card({
        children: [Actions([RadioSelect({ id: "r", label: "R", options: withDescription })])],
      }),
    );
    const [option] = radio?.options as Array<Record<string, unknown>>;
    expect(option?.description).toEqual({ type: "mrkdwn", text: "Unlimited seats" });
  });

  it("omits description when not provided", () => {
    const [select, radio] = actionsOf(
      Card({
        children: [
          Actions([
            Select({ id: "s", label: "S", options: [SelectOption({ label: "A", value: "a" })] }),
            RadioSelect({
              id: "r",
              label: "R",
              options: [SelectOption({ label: "B", value: "b" })],
            }),
          ]),
        ],
      }),
    );
    for (const control of [select, radio]) {
      const [option] = control?.options as Array<Record<string, unknown>>;
      expect(option).not.toHaveProperty("description");
    }
  });
});

describe("markdown bold to Slack mrkdwn conversion", () => {
  const sectionText = (card: Parameters<typeof cardToBlockKit>[0], index = 0) =>
    (cardToBlockKit(card)[index]?.text as { text: string }).text;

  it("converts **bold** to *bold* in CardText content", () => {
    expect(sectionText(Card({ children: [CardText("a **b** c")] }))).toBe("a *b* c");
  });

  it("converts multiple **bold** segments in one CardText", () => {
    expect(sectionText(Card({ children: [CardText("**one** and **two**")] }))).toBe(
      "*one* and *two*",
    );
  });

  it("converts **bold** across multiple lines", () => {
    expect(sectionText(Card({ children: [CardText("**first**\n**second**")] }))).toBe(
      "*first*\n*second*",
    );
  });

  it("handles text with no markdown formatting", () => {
    expect(sectionText(Card({ children: [CardText("just words")] }))).toBe("just words");
  });

  it("converts **bold** in muted style CardText", () => {
    const [context] = cardToBlockKit(
      Card({ children: [CardText("note **this**", { style: "muted" })] }),
    );
    expect(context).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: "note *this*" }],
    });
  });

  it("converts **bold** in field values", () => {
    const [fields] = cardToBlockKit(
      Card({ children: [Fields([Field({ label: "Status", value: "**done**" })])] }),
    );
    expect(fields?.fields).toEqual([{ type: "mrkdwn", text: "*Status*\n*done*" }]);
  });

  it("does not convert empty double asterisks", () => {
    const card = Card({ children: [CardText("text **** more")] });
    // **** has nothing between them, so it is no bold run and stays as written.
    expect(sectionText(card)).toBe("text **** more");
  });

  it("reads *single asterisks* in CardText as markdown italics (Baton: CardText is markdown)", () => {
    // Upstream keeps `*bold*` as Slack's bold; Baton renders CardText as markdown (ADR 0022).
    expect(sectionText(Card({ children: [CardText("Already *bold* in Slack format")] }))).toBe(
      "Already _bold_ in Slack format",
    );
  });

  it("handles **bold** at start and end of content", () => {
    expect(sectionText(Card({ children: [CardText("**start** middle **end**")] }))).toBe(
      "*start* middle *end*",
    );
  });
});

describe("cardToBlockKit with CardLink", () => {
  it("converts CardLink to a mrkdwn section block with Slack link syntax", () => {
    expect(
      cardToBlockKit(Card({ children: [CardLink({ url: "https://x.dev", label: "Site" })] })),
    ).toEqual([{ type: "section", text: { type: "mrkdwn", text: "<https://x.dev|Site>" } }]);
  });

  it("converts CardLink alongside other children", () => {
    const blocks = cardToBlockKit(
      Card({
        children: [CardText("intro"), CardLink({ url: "https://x.dev", label: "Site" }), Divider()],
      }),
    );
    expect(blocks.map((block) => block.type)).toEqual(["section", "section", "divider"]);
    expect(blocks[1]?.text).toEqual({ type: "mrkdwn", text: "<https://x.dev|Site>" });
  });
});
