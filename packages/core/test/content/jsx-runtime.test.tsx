/**
 * Real JSX, compiled with Baton's runtime (`jsxImportSource: "@baton/core"`, set in core's
 * tsconfig and vitest config). Ported from upstream packages/chat/src/jsx-runtime.test.tsx.
 */
import { describe, expect, it } from "vitest";
import {
  Actions,
  Button,
  Card,
  Divider,
  Field,
  Fields,
  Image,
  isJSX,
  LinkButton,
  Section,
  Table,
  Text,
  toCardElement,
} from "../../src/content/index.js";

describe("chat-sdk JSX runtime with actual JSX syntax", () => {
  describe("simple elements", () => {
    it("creates Card with title", () => {
      const result = toCardElement(<Card title="Test Card" />);
      expect(result?.type).toBe("card");
      expect(result?.title).toBe("Test Card");
      expect(result?.children).toEqual([]);
    });

    it("creates Card with subtitle and imageUrl", () => {
      const result = toCardElement(
        <Card imageUrl="https://example.com/img.png" subtitle="Processing" title="Order" />,
      );
      expect(result?.title).toBe("Order");
      expect(result?.subtitle).toBe("Processing");
      expect(result?.imageUrl).toBe("https://example.com/img.png");
    });
  });

  describe("Card with children", () => {
    it("creates Card with Text child", () => {
      const result = toCardElement(
        <Card title="Hello">
          <Text>World</Text>
        </Card>,
      );
      expect(result?.children).toHaveLength(1);
      expect(result?.children[0]).toEqual({ type: "text", content: "World" });
    });

    it("creates Card with multiple Text children", () => {
      const result = toCardElement(
        <Card title="Multi">
          <Text>Line 1</Text>
          <Text>Line 2</Text>
          <Text style="bold">Bold line</Text>
        </Card>,
      );
      expect(result?.children).toHaveLength(3);
      expect(result?.children[2]).toEqual({ type: "text", content: "Bold line", style: "bold" });
    });

    it("creates Card with Divider", () => {
      const result = toCardElement(
        <Card title="With Divider">
          <Text>Above</Text>
          <Divider />
          <Text>Below</Text>
        </Card>,
      );
      expect(result?.children).toHaveLength(3);
      expect(result?.children[1]?.type).toBe("divider");
    });
  });

  describe("Actions and Buttons", () => {
    it("creates Actions with Buttons", () => {
      const result = toCardElement(
        <Card title="Confirm">
          <Actions>
            <Button id="ok" style="primary">
              OK
            </Button>
            <Button id="cancel">Cancel</Button>
          </Actions>
        </Card>,
      );
      expect(result?.children).toHaveLength(1);
      expect(result?.children[0]).toEqual({
        type: "actions",
        children: [
          { type: "button", id: "ok", label: "OK", style: "primary" },
          { type: "button", id: "cancel", label: "Cancel" },
        ],
      });
    });

    it("creates Button with value", () => {
      const result = toCardElement(
        <Card>
          <Actions>
            <Button id="delete" style="danger" value="item-123">
              Delete Item
            </Button>
          </Actions>
        </Card>,
      );
      expect(result?.children[0]).toMatchObject({
        type: "actions",
        children: [{ type: "button", value: "item-123", label: "Delete Item" }],
      });
    });

    it("creates LinkButton", () => {
      const result = toCardElement(
        <Card>
          <Actions>
            <LinkButton style="primary" url="https://example.com">
              Visit Site
            </LinkButton>
          </Actions>
        </Card>,
      );
      expect(result?.children).toHaveLength(1);
      expect(result?.children[0]).toEqual({
        type: "actions",
        children: [
          {
            type: "link-button",
            url: "https://example.com",
            label: "Visit Site",
            style: "primary",
          },
        ],
      });
    });

    it("creates Actions with mixed Button and LinkButton", () => {
      const result = toCardElement(
        <Card>
          <Actions>
            <Button id="submit" style="primary">
              Submit
            </Button>
            <LinkButton url="https://docs.example.com">View Docs</LinkButton>
          </Actions>
        </Card>,
      );
      const actions = result?.children[0];
      if (actions?.type !== "actions") throw new Error("expected an actions row");
      expect(actions.children.map((child) => child.type)).toEqual(["button", "link-button"]);
    });
  });

  describe("Fields and Field", () => {
    it("creates Fields with Field children", () => {
      const result = toCardElement(
        <Card title="User Info">
          <Fields>
            <Field label="Name" value="John Doe" />
            <Field label="Email" value="john@example.com" />
          </Fields>
        </Card>,
      );
      expect(result?.children).toHaveLength(1);
      expect(result?.children[0]).toEqual({
        type: "fields",
        children: [
          { type: "field", label: "Name", value: "John Doe" },
          { type: "field", label: "Email", value: "john@example.com" },
        ],
      });
    });
  });

  describe("Section", () => {
    it("creates Section with children", () => {
      const result = toCardElement(
        <Card>
          <Section>
            <Text>Inside section</Text>
            <Image alt="Description" url="https://example.com/img.png" />
          </Section>
        </Card>,
      );
      const section = result?.children[0];
      if (section?.type !== "section") throw new Error("expected a section");
      expect(section.children).toHaveLength(2);
      expect(section.children[0]?.type).toBe("text");
      expect(section.children[1]?.type).toBe("image");
    });
  });

  describe("Image", () => {
    it("creates Image with url and alt", () => {
      const result = toCardElement(
        <Card>
          <Image alt="A photo" url="https://example.com/photo.jpg" />
        </Card>,
      );
      expect(result?.children[0]).toEqual({
        type: "image",
        url: "https://example.com/photo.jpg",
        alt: "A photo",
      });
    });
  });

  describe("complex structures", () => {
    it("creates full card with all element types", () => {
      const result = toCardElement(
        <Card subtitle="Ready for pickup" title="Order #123">
          <Text>Your order is ready!</Text>
          <Divider />
          <Fields>
            <Field label="Total" value="$50.00" />
            <Field label="Items" value="3" />
          </Fields>
          <Divider />
          <Section>
            <Text style="muted">Pickup instructions:</Text>
            <Text>Go to counter #5</Text>
          </Section>
          <Divider />
          <Actions>
            <Button id="pickup" style="primary">
              I'm Here
            </Button>
            <Button id="delay" value="30min">
              Delay 30min
            </Button>
            <Button id="cancel" style="danger">
              Cancel
            </Button>
          </Actions>
        </Card>,
      );
      expect(result?.type).toBe("card");
      expect(result?.title).toBe("Order #123");
      expect(result?.subtitle).toBe("Ready for pickup");
      expect(result?.children.map((child) => child.type)).toEqual([
        "text",
        "divider",
        "fields",
        "divider",
        "section",
        "divider",
        "actions",
      ]);
      const actions = result?.children[6];
      expect(actions?.type === "actions" && actions.children).toHaveLength(3);
    });
  });

  describe("Table", () => {
    it("creates Card with Table child", () => {
      const result = toCardElement(
        <Card title="Team">
          <Table
            headers={["Name", "Role"]}
            rows={[
              ["Alice", "Engineer"],
              ["Bob", "Designer"],
            ]}
          />
        </Card>,
      );
      expect(result?.children).toHaveLength(1);
      expect(result?.children[0]).toEqual({
        type: "table",
        headers: ["Name", "Role"],
        rows: [
          ["Alice", "Engineer"],
          ["Bob", "Designer"],
        ],
      });
    });

    it("creates Card with Table alongside other children", () => {
      const result = toCardElement(
        <Card title="Report">
          <Text>Summary:</Text>
          <Table headers={["Metric", "Value"]} rows={[["Users", "100"]]} />
        </Card>,
      );
      expect(result?.children.map((child) => child.type)).toEqual(["text", "table"]);
    });
  });

  describe("isJSX detection", () => {
    it("detects chat-sdk JSX elements", () => {
      expect(isJSX(<Card title="Test" />)).toBe(true);
    });

    it("returns false for plain objects", () => {
      expect(isJSX({ type: "card", children: [] })).toBe(false);
    });
  });

  describe("toCardElement edge cases", () => {
    it("returns null for non-Card root elements", () => {
      expect(toCardElement(<Text>Hello</Text>)).toBeNull();
    });

    it("returns CardElement unchanged if already resolved", () => {
      const cardElement = Card({ title: "Test", children: [] });
      expect(toCardElement(cardElement)).toBe(cardElement);
    });
  });
});
