import { describe, expect, it } from "vitest";
import {
  Actions,
  Button,
  Card,
  CardLink,
  CardText,
  cardToFallbackText,
  Divider,
  Field,
  Fields,
  Image,
  isCardPost,
  LinkButton,
  resolveCardPost,
  Section,
  Select,
  SelectOption,
  Table,
} from "../../src/content/index.js";
import { jsx as jsxFactory, jsxs as jsxsFactory } from "../../src/content/jsx/jsx-runtime.js";

const order = Card({
  title: "Order Update",
  subtitle: "Status changed",
  imageUrl: "https://example.com/order.png",
  children: [
    CardText("Your order is ready"),
    Image({ url: "https://example.com/box.png", alt: "box" }),
    Fields([
      Field({ label: "Order ID", value: "#1234" }),
      Field({ label: "Status", value: "Ready" }),
    ]),
    Divider(),
    Section([
      CardText("Pickup at counter 5"),
      CardLink({ url: "https://example.com/map", label: "Map" }),
    ]),
    Table({
      headers: ["Item", "Qty"],
      rows: [
        ["Widget", "2"],
        ["Gadget", "10"],
      ],
    }),
    Actions([
      Button({ id: "pickup", label: "Schedule Pickup" }),
      Button({ id: "delay", label: "Delay" }),
      LinkButton({ url: "https://example.com/help", label: "Help" }),
      Select({
        id: "slot",
        label: "Slot",
        options: [
          SelectOption({ label: "Morning", value: "am" }),
          SelectOption({ label: "Evening", value: "pm" }),
        ],
      }),
    ]),
  ],
});

describe("cardToFallbackText", () => {
  it("writes the title, text, fields, sections, tables and controls, one part per line", () => {
    expect(cardToFallbackText(order)).toBe(
      [
        "**Order Update**",
        "Status changed",
        "Your order is ready",
        "Order ID: #1234",
        "Status: Ready",
        "Pickup at counter 5",
        "Map (https://example.com/map)",
        "Item   | Qty",
        "-------|----",
        "Widget | 2",
        "Gadget | 10",
        "[Schedule Pickup] [Delay] [Help] (https://example.com/help) Slot: Morning / Evening",
      ].join("\n"),
    );
  });

  it("leaves controls out with { actions: 'omit' }, as upstream writes notification text", () => {
    const text = cardToFallbackText(order, { actions: "omit" });
    expect(text).not.toContain("[Schedule Pickup]");
    expect(text).not.toContain("Slot:");
    expect(text.split("\n").at(-1)).toBe("Gadget | 10");
  });

  it("gives the same text for the same card, and none for an empty one", () => {
    expect(cardToFallbackText(order)).toBe(cardToFallbackText(structuredClone(order)));
    expect(cardToFallbackText(Card())).toBe("");
    expect(cardToFallbackText(Card({ title: "Simple Card" }))).toBe("**Simple Card**");
  });
});

describe("card posts", () => {
  it("recognizes a card, a <Card> JSX tree and { card, fallbackText }, and nothing else", () => {
    const tree = jsxFactory(Card, { title: "From JSX" });
    expect(isCardPost(order)).toBe(true);
    expect(isCardPost(tree)).toBe(true);
    expect(isCardPost({ card: order })).toBe(true);
    expect(isCardPost({ card: tree, fallbackText: "custom" })).toBe(true);
    expect(isCardPost({ card: order, fallbackText: 5 })).toBe(false);
    expect(isCardPost(jsxFactory(CardText, { children: "not a card" }))).toBe(false);
    expect(isCardPost({ markdown: "**hi**" })).toBe(false);
    expect(isCardPost("text")).toBe(false);
    expect(isCardPost(null)).toBe(false);
  });

  it("resolves JSX and computes the fallback text unless one is given", () => {
    const tree = jsxsFactory(Card, {
      title: "Approve?",
      children: [
        jsxsFactory(Actions, { children: [jsxFactory(Button, { id: "yes", children: "Yes" })] }),
      ],
    });
    expect(resolveCardPost(tree)).toEqual({
      card: {
        type: "card",
        title: "Approve?",
        children: [{ type: "actions", children: [{ type: "button", id: "yes", label: "Yes" }] }],
      },
      fallbackText: "**Approve?**\n[Yes]",
    });
    expect(resolveCardPost({ card: tree, fallbackText: "Approve in Slack" }).fallbackText).toBe(
      "Approve in Slack",
    );
    expect(resolveCardPost(order, { actions: "omit" }).fallbackText).not.toContain("[Delay]");
  });

  it("throws a ValidationError for something that is not a card post", () => {
    expect(() => resolveCardPost({ card: { type: "text" } } as never)).toThrow(
      /a card post must be a CardElement, a <Card> JSX element or \{ card, fallbackText\? \}/,
    );
    expect(() => resolveCardPost({ card: order, fallbackText: 1 } as never)).toThrow(
      "PostableCard 'fallbackText' must be a string, got 1",
    );
  });
});
