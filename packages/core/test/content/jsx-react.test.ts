/**
 * React JSX mode: React elements (here built by hand, as upstream's test does — no React needed)
 * converted with fromReactElement. Ported from upstream packages/chat/src/jsx-react.test.tsx.
 */
import { describe, expect, it } from "vitest";
import {
  Actions,
  Button,
  Card,
  Divider,
  Field,
  Fields,
  fromReactElement,
  Image,
  isCardElement,
  Section,
  Text,
} from "../../src/content/index.js";

function createReactElement(type: unknown, props: Record<string, unknown> = {}) {
  return { $$typeof: Symbol.for("react.element"), type, props };
}

describe("fromReactElement - React JSX mode", () => {
  describe("error handling", () => {
    it("throws error for HTML elements like div", () => {
      const divElement = createReactElement("div", { children: "Hello" });
      expect(() => fromReactElement(divElement)).toThrow(
        "HTML element <div> is not supported in card elements.",
      );
    });

    it("throws error for anchor elements", () => {
      const anchorElement = createReactElement("a", {
        href: "https://example.com",
        children: "Link",
      });
      expect(() => fromReactElement(anchorElement)).toThrow(
        "HTML element <a> is not supported in card elements.",
      );
    });

    it("throws error for span elements", () => {
      const spanElement = createReactElement("span", { children: "Text" });
      expect(() => fromReactElement(spanElement)).toThrow(
        "HTML element <span> is not supported in card elements.",
      );
    });

    it("returns null for non-React elements", () => {
      expect(fromReactElement("string")).toBe(null);
      expect(fromReactElement(123)).toBe(null);
      expect(fromReactElement(null)).toBe(null);
      expect(fromReactElement(undefined)).toBe(null);
    });

    it("returns card elements unchanged", () => {
      const card = Card({ title: "Test" });
      expect(fromReactElement(card)).toBe(card);
    });
  });

  describe("Card conversion", () => {
    it("converts simple Card element", () => {
      const result = fromReactElement(
        createReactElement(Card, { title: "Test Card", subtitle: "Subtitle" }),
      );
      expect(result).toEqual({
        type: "card",
        title: "Test Card",
        subtitle: "Subtitle",
        children: [],
      });
    });

    it("converts Card with Text child", () => {
      const reactCard = createReactElement(Card, {
        title: "Test Card",
        children: createReactElement(Text, { children: "Hello world" }),
      });
      const result = fromReactElement(reactCard);
      expect(result).toEqual({
        type: "card",
        title: "Test Card",
        children: [{ type: "text", content: "Hello world" }],
      });
    });

    it("converts Card with imageUrl", () => {
      const result = fromReactElement(
        createReactElement(Card, { title: "Test", imageUrl: "https://example.com/image.png" }),
      );
      expect(result).toMatchObject({ type: "card", imageUrl: "https://example.com/image.png" });
    });

    it("converts Card with width", () => {
      const result = fromReactElement(createReactElement(Card, { title: "Test", width: "full" }));
      expect(result).toMatchObject({ type: "card", width: "full" });
    });
  });

  describe("Text conversion", () => {
    it("converts Text with string content", () => {
      const result = fromReactElement(createReactElement(Text, { children: "Hello" }));
      expect(result).toEqual({ type: "text", content: "Hello" });
    });

    it("converts Text with style", () => {
      const result = fromReactElement(
        createReactElement(Text, { children: "Bold text", style: "bold" }),
      );
      expect(result).toEqual({ type: "text", content: "Bold text", style: "bold" });
    });
  });

  describe("Actions and Button conversion", () => {
    it("converts Actions with Button children", () => {
      const reactActions = createReactElement(Actions, {
        children: [
          createReactElement(Button, { id: "approve", style: "primary", children: "Approve" }),
          createReactElement(Button, { id: "reject", style: "danger", children: "Reject" }),
        ],
      });
      const result = fromReactElement(reactActions);
      expect(result).toEqual({
        type: "actions",
        children: [
          { type: "button", id: "approve", label: "Approve", style: "primary" },
          { type: "button", id: "reject", label: "Reject", style: "danger" },
        ],
      });
    });

    it("converts Button with value", () => {
      const reactCard = createReactElement(Card, {
        children: createReactElement(Actions, {
          children: createReactElement(Button, {
            id: "delete",
            value: "item-123",
            children: "Delete",
          }),
        }),
      });
      expect(fromReactElement(reactCard)).toMatchObject({
        type: "card",
        children: [{ type: "actions", children: [{ type: "button", value: "item-123" }] }],
      });
    });

    it("converts Button with tooltip", () => {
      const reactCard = createReactElement(Card, {
        children: createReactElement(Actions, {
          children: createReactElement(Button, {
            id: "approve",
            tooltip: "Approve the request",
            children: "Approve",
          }),
        }),
      });
      expect(fromReactElement(reactCard)).toMatchObject({
        type: "card",
        children: [
          { type: "actions", children: [{ type: "button", tooltip: "Approve the request" }] },
        ],
      });
    });
  });

  describe("Fields and Field conversion", () => {
    it("converts Fields with Field children", () => {
      const reactFields = createReactElement(Fields, {
        children: [
          createReactElement(Field, { label: "Name", value: "John Doe" }),
          createReactElement(Field, { label: "Email", value: "john@example.com" }),
        ],
      });
      expect(fromReactElement(reactFields)).toEqual({
        type: "fields",
        children: [
          { type: "field", label: "Name", value: "John Doe" },
          { type: "field", label: "Email", value: "john@example.com" },
        ],
      });
    });
  });

  describe("Section conversion", () => {
    it("converts Section with children", () => {
      const reactSection = createReactElement(Section, {
        children: [
          createReactElement(Text, { children: "Section content" }),
          createReactElement(Divider, {}),
        ],
      });
      expect(fromReactElement(reactSection)).toEqual({
        type: "section",
        children: [{ type: "text", content: "Section content" }, { type: "divider" }],
      });
    });
  });

  describe("Image conversion", () => {
    it("converts Image element", () => {
      const result = fromReactElement(
        createReactElement(Image, { url: "https://example.com/img.png", alt: "A description" }),
      );
      expect(result).toEqual({
        type: "image",
        url: "https://example.com/img.png",
        alt: "A description",
      });
    });
  });

  describe("Divider conversion", () => {
    it("converts Divider element", () => {
      expect(fromReactElement(createReactElement(Divider, {}))).toEqual({ type: "divider" });
    });
  });

  describe("complex nested structures", () => {
    it("converts full card with all element types", () => {
      const reactCard = createReactElement(Card, {
        title: "Order #123",
        subtitle: "Processing",
        children: [
          createReactElement(Text, { children: "Your order is ready" }),
          createReactElement(Divider, {}),
          createReactElement(Fields, {
            children: [
              createReactElement(Field, { label: "Total", value: "$50.00" }),
              createReactElement(Field, { label: "Status", value: "Ready" }),
            ],
          }),
          createReactElement(Section, {
            children: createReactElement(Image, { url: "https://example.com/product.png" }),
          }),
          createReactElement(Divider, {}),
          createReactElement(Actions, {
            children: [
              createReactElement(Button, {
                id: "pickup",
                style: "primary",
                children: "Schedule Pickup",
              }),
              createReactElement(Button, {
                id: "cancel",
                style: "danger",
                value: "order-123",
                children: "Cancel Order",
              }),
            ],
          }),
        ],
      });

      const result = fromReactElement(reactCard);
      if (!isCardElement(result)) throw new Error("expected a card");
      expect(result.title).toBe("Order #123");
      expect(result.subtitle).toBe("Processing");
      expect(result.children.map((child) => child.type)).toEqual([
        "text",
        "divider",
        "fields",
        "section",
        "divider",
        "actions",
      ]);
    });
  });
});
