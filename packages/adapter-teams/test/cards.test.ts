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
  RadioSelect,
  Section,
  Select,
  SelectOption,
  Table,
} from "@baton/core";
import { describe, expect, it } from "vitest";
import { cardToAdaptiveCard, cardToFallbackText, cardToTeamsFallbackText } from "../src/cards.js";

// Ported from upstream packages/adapter-teams/src/cards.test.ts (titles verbatim).
describe("cardToAdaptiveCard", () => {
  it("creates a valid adaptive card structure", () => {
    const adaptive = cardToAdaptiveCard(Card({ title: "Test" }));
    expect(adaptive.type).toBe("AdaptiveCard");
    expect(adaptive.$schema).toBe("http://adaptivecards.io/schemas/adaptive-card.json");
    expect(adaptive.version).toBe("1.4");
    expect(adaptive.body).toBeInstanceOf(Array);
  });

  it("converts a card with title", () => {
    const adaptive = cardToAdaptiveCard(Card({ title: "Welcome Message" }));
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({
      type: "TextBlock",
      text: "Welcome Message",
      weight: "Bolder",
      size: "Large",
      wrap: true,
    });
  });

  it("converts a card with title and subtitle", () => {
    const adaptive = cardToAdaptiveCard(
      Card({ title: "Order Update", subtitle: "Your package is on its way" }),
    );
    expect(adaptive.body).toHaveLength(2);
    expect(adaptive.body[1]).toMatchObject({
      type: "TextBlock",
      text: "Your package is on its way",
      isSubtle: true,
      wrap: true,
    });
  });

  it("converts a card with header image", () => {
    const adaptive = cardToAdaptiveCard(
      Card({ title: "Product", imageUrl: "https://example.com/product.png" }),
    );
    expect(adaptive.body).toHaveLength(2);
    expect(adaptive.body[1]).toMatchObject({
      type: "Image",
      url: "https://example.com/product.png",
      size: "Stretch",
    });
  });

  it("converts text elements", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [
          CardText("Regular text"),
          CardText("Bold text", { style: "bold" }),
          CardText("Muted text", { style: "muted" }),
        ],
      }),
    );
    expect(adaptive.body).toHaveLength(3);
    expect(adaptive.body[0]).toMatchObject({ type: "TextBlock", text: "Regular text", wrap: true });
    expect(adaptive.body[1]).toMatchObject({
      type: "TextBlock",
      text: "Bold text",
      wrap: true,
      weight: "Bolder",
    });
    expect(adaptive.body[2]).toMatchObject({
      type: "TextBlock",
      text: "Muted text",
      wrap: true,
      isSubtle: true,
    });
  });

  it("converts image elements", () => {
    const adaptive = cardToAdaptiveCard(
      Card({ children: [Image({ url: "https://example.com/img.png", alt: "My image" })] }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({
      type: "Image",
      url: "https://example.com/img.png",
      altText: "My image",
      size: "Auto",
    });
  });

  it("converts divider elements", () => {
    const adaptive = cardToAdaptiveCard(Card({ children: [Divider()] }));
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({ type: "Container", separator: true, items: [] });
  });

  it("converts actions with buttons to card-level actions", () => {
    const adaptive = cardToAdaptiveCard(
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
    expect(adaptive.body).toHaveLength(0);
    expect(adaptive.actions).toHaveLength(3);
    expect(adaptive.actions?.[0]).toMatchObject({
      type: "Action.Submit",
      title: "Approve",
      data: { actionId: "approve", value: undefined },
      style: "positive",
    });
    expect(adaptive.actions?.[1]).toMatchObject({
      type: "Action.Submit",
      title: "Reject",
      data: { actionId: "reject", value: "data-123" },
      style: "destructive",
    });
    expect(adaptive.actions?.[2]).toMatchObject({
      type: "Action.Submit",
      title: "Skip",
      data: { actionId: "skip", value: undefined },
    });
  });

  it("converts link buttons to Action.OpenUrl", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [
          Actions([
            LinkButton({ url: "https://example.com/docs", label: "View Docs", style: "primary" }),
          ]),
        ],
      }),
    );
    expect(adaptive.actions).toHaveLength(1);
    expect(adaptive.actions?.[0]).toMatchObject({
      type: "Action.OpenUrl",
      title: "View Docs",
      url: "https://example.com/docs",
      style: "positive",
    });
  });

  it("converts fields to FactSet", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [
          Fields([
            Field({ label: "Status", value: "Active" }),
            Field({ label: "Priority", value: "High" }),
          ]),
        ],
      }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({
      type: "FactSet",
      facts: [
        { title: "Status", value: "Active" },
        { title: "Priority", value: "High" },
      ],
    });
  });

  it("wraps section children in a Container", () => {
    const adaptive = cardToAdaptiveCard(
      Card({ children: [Section([CardText("Inside section")])] }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]?.type).toBe("Container");
    expect((adaptive.body[0] as unknown as { items: unknown[] }).items).toHaveLength(1);
  });

  it("converts a complete card", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        title: "Order #1234",
        subtitle: "Status update",
        children: [
          CardText("Your order has been shipped!"),
          Fields([
            Field({ label: "Tracking", value: "ABC123" }),
            Field({ label: "ETA", value: "Dec 25" }),
          ]),
          Actions([Button({ id: "track", label: "Track Package", style: "primary" })]),
        ],
      }),
    );
    expect(adaptive.body).toHaveLength(4);
    expect(adaptive.body.map((element) => element.type)).toEqual([
      "TextBlock",
      "TextBlock",
      "TextBlock",
      "FactSet",
    ]);
    expect(adaptive.actions).toHaveLength(1);
    expect(adaptive.actions?.[0]?.title).toBe("Track Package");
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
    expect(text).toContain("**Order Update**");
    expect(text).toContain("Status changed");
    expect(text).toContain("Your order is ready");
    expect(text).toContain("Order ID: #1234");
    expect(text).toContain("Status: Ready");
    expect(text).not.toContain("[Schedule Pickup]");
    expect(text).not.toContain("[Delay]");
  });

  it("handles card with only title", () => {
    expect(cardToFallbackText(Card({ title: "Simple Card" }))).toBe("**Simple Card**");
  });
});

describe("cardToAdaptiveCard with modal buttons", () => {
  it("adds msteams task/fetch hint for actionType modal", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [Actions([Button({ id: "open-dialog", label: "Open", actionType: "modal" })])],
      }),
    );
    expect(adaptive.actions).toHaveLength(1);
    expect(adaptive.actions?.[0]).toMatchObject({
      type: "Action.Submit",
      title: "Open",
      data: { actionId: "open-dialog", msteams: { type: "task/fetch" } },
    });
  });
});

describe("cardToAdaptiveCard with select and radio_select in Actions", () => {
  it("converts Select to compact ChoiceSetInput in body", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [
          Actions([
            Select({
              id: "color",
              label: "Pick a color",
              options: [
                SelectOption({ label: "Red", value: "red" }),
                SelectOption({ label: "Blue", value: "blue" }),
              ],
              placeholder: "Choose...",
            }),
          ]),
        ],
      }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({
      type: "Input.ChoiceSet",
      id: "color",
      label: "Pick a color",
      style: "compact",
      isRequired: true,
      placeholder: "Choose...",
    });
    const choices = (adaptive.body[0] as unknown as { choices: unknown[] }).choices;
    expect(choices).toHaveLength(2);
    expect(choices[0]).toMatchObject({ title: "Red", value: "red" });
    expect(adaptive.actions).toHaveLength(1);
    expect(adaptive.actions?.[0]).toMatchObject({
      type: "Action.Submit",
      title: "Submit",
      data: { actionId: "__auto_submit" },
    });
  });

  it("converts RadioSelect to expanded ChoiceSetInput in body", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [
          Actions([
            RadioSelect({
              id: "plan",
              label: "Choose Plan",
              options: [
                SelectOption({ label: "Free", value: "free" }),
                SelectOption({ label: "Pro", value: "pro" }),
              ],
            }),
          ]),
        ],
      }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({
      type: "Input.ChoiceSet",
      id: "plan",
      label: "Choose Plan",
      style: "expanded",
      isRequired: true,
    });
    expect(adaptive.actions).toHaveLength(1);
    expect(adaptive.actions?.[0]).toMatchObject({
      type: "Action.Submit",
      data: { actionId: "__auto_submit" },
    });
  });

  it("does NOT auto-inject submit when buttons are present", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        children: [
          Actions([
            Select({
              id: "color",
              label: "Color",
              options: [SelectOption({ label: "Red", value: "red" })],
            }),
            Button({ id: "submit", label: "Submit", style: "primary" }),
          ]),
        ],
      }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({ type: "Input.ChoiceSet", id: "color" });
    expect(adaptive.actions).toHaveLength(1);
    expect(adaptive.actions?.[0]).toMatchObject({ type: "Action.Submit", title: "Submit" });
  });
});

describe("cardToAdaptiveCard with CardLink", () => {
  it("converts CardLink to a TextBlock with markdown link", () => {
    const adaptive = cardToAdaptiveCard(
      Card({ children: [CardLink({ url: "https://example.com", label: "Click here" })] }),
    );
    expect(adaptive.body).toHaveLength(1);
    expect(adaptive.body[0]).toMatchObject({
      type: "TextBlock",
      text: "[Click here](https://example.com)",
      wrap: true,
    });
  });
});

describe("Adaptive Cards (Baton)", () => {
  it("sets msteams width for a full-width card and forwards tooltips", () => {
    const adaptive = cardToAdaptiveCard(
      Card({
        title: "Wide",
        width: "full",
        children: [Actions([Button({ id: "ok", label: "OK", tooltip: "Confirm" })])],
      }),
    );
    expect(adaptive.msteams).toEqual({ width: "full" });
    expect(adaptive.actions?.[0]).toMatchObject({ tooltip: "Confirm" });
    expect(cardToAdaptiveCard(Card({ title: "Default" })).msteams).toBeUndefined();
  });

  it("renders a table with a header row", () => {
    const adaptive = cardToAdaptiveCard(
      Card({ children: [Table({ headers: ["Name", "Age"], rows: [["Alice", "30"]] })] }),
    );
    expect(adaptive.body[0]).toMatchObject({ type: "Table", firstRowAsHeaders: true });
    expect(JSON.stringify(adaptive.body[0])).toContain("Alice");
  });
});

// Ported from upstream packages/adapter-teams/src/cards-primitives/index.test.ts (titles verbatim).
describe("Teams card primitives", () => {
  it("converts plain card objects to Adaptive Cards", () => {
    const card = cardToAdaptiveCard({
      children: [
        { content: "Deploy :white_check_mark:", type: "text" },
        {
          children: [
            { id: "approve", label: "Approve", style: "primary", type: "button" },
            { label: "Logs", type: "link-button", url: "https://example.com" },
          ],
          type: "actions",
        },
      ],
      title: "Release",
      type: "card",
    });
    expect(card).toMatchObject({
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      actions: [
        {
          data: { actionId: "approve" },
          style: "positive",
          title: "Approve",
          type: "Action.Submit",
        },
        { title: "Logs", type: "Action.OpenUrl", url: "https://example.com" },
      ],
      body: [
        { text: "Release", type: "TextBlock", weight: "Bolder" },
        { text: "Deploy ✅", type: "TextBlock" },
      ],
      type: "AdaptiveCard",
      version: "1.4",
    });
  });

  it("renders fallback text", () => {
    expect(
      cardToTeamsFallbackText({
        children: [{ content: "Body", type: "text" }],
        title: "Title",
        type: "card",
      }),
    ).toBe("Title\n\nBody");
  });

  it("converts every child type, style, and header element", () => {
    const card = cardToAdaptiveCard({
      children: [
        { content: "Bold", style: "bold", type: "text" },
        { content: "Muted", style: "muted", type: "text" },
        { alt: "Logo", type: "image", url: "https://example.com/logo.png" },
        { type: "divider" },
        {
          children: [
            { id: "deny", label: "Deny", style: "danger", type: "button" },
            { label: "Docs", style: "primary", type: "link-button", url: "https://example.com" },
          ],
          type: "actions",
        },
        {
          children: [
            {
              id: "env",
              label: "Environment",
              optional: true,
              options: [{ label: "Prod", value: "prod" }],
              placeholder: "Pick one",
              type: "select",
            },
            {
              id: "strategy",
              label: "Strategy",
              options: [{ label: "Blue/Green", value: "bg" }],
              type: "radio_select",
            },
          ],
          type: "actions",
        },
        { children: [{ label: "Owner", value: "Ada" }], type: "fields" },
        { label: "Runbook", type: "link", url: "https://example.com/runbook" },
        { headers: ["Name", "Status"], rows: [["api", "ok"]], type: "table" },
        { children: [{ content: "Nested", type: "text" }], type: "section" },
      ],
      imageUrl: "https://example.com/banner.png",
      subtitle: "Subtitle",
      title: "Everything",
      type: "card",
    } as never);

    expect(card.body[0]).toMatchObject({ text: "Everything", weight: "Bolder" });
    expect(card.body[1]).toMatchObject({ isSubtle: true, text: "Subtitle" });
    expect(card.body[2]).toMatchObject({
      size: "Stretch",
      type: "Image",
      url: "https://example.com/banner.png",
    });
    expect(card.actions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ style: "destructive", title: "Deny", type: "Action.Submit" }),
        expect.objectContaining({
          style: "positive",
          title: "Docs",
          type: "Action.OpenUrl",
          url: "https://example.com",
        }),
        expect.objectContaining({ data: { actionId: "__auto_submit" }, title: "Submit" }),
      ]),
    );
    expect(card.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ altText: "Logo", size: "Auto", type: "Image" }),
        expect.objectContaining({ separator: true, type: "Container" }),
        expect.objectContaining({
          id: "env",
          isRequired: false,
          placeholder: "Pick one",
          style: "compact",
          type: "Input.ChoiceSet",
        }),
        expect.objectContaining({
          id: "strategy",
          isRequired: true,
          style: "expanded",
          type: "Input.ChoiceSet",
        }),
        expect.objectContaining({ type: "FactSet" }),
      ]),
    );
  });

  it("renders fallback text for every child type", () => {
    const text = cardToTeamsFallbackText({
      children: [
        { content: "Body", type: "text" },
        { alt: "Logo", type: "image", url: "https://example.com/logo.png" },
        { type: "image", url: "https://example.com/raw.png" },
        { type: "divider" },
        {
          children: [
            { id: "ok", label: "Approve", type: "button" },
            { label: "Docs", type: "link-button", url: "https://example.com" },
          ],
          type: "actions",
        },
        { children: [{ label: "Owner", value: "Ada" }], type: "fields" },
        { label: "Runbook", type: "link", url: "https://example.com/r" },
        { headers: ["A", "B"], rows: [["1", "2"]], type: "table" },
        { children: [{ content: "Nested", type: "text" }], type: "section" },
      ],
      subtitle: "Sub",
      title: "Title",
      type: "card",
    } as never);

    expect(text).toContain("Title");
    expect(text).toContain("Sub");
    expect(text).toContain("Body");
    expect(text).toContain("Logo");
    expect(text).toContain("https://example.com/raw.png");
    expect(text).toContain("---");
    expect(text).toContain("Approve");
    expect(text).toContain("Owner: Ada");
    expect(text).toContain("Runbook: https://example.com/r");
    expect(text).toContain("A | B");
    expect(text).toContain("1 | 2");
    expect(text).toContain("Nested");
  });
});
