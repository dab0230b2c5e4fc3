/**
 * The JSX runtime called as functions (what compiled TSX calls). Ported from upstream
 * packages/chat/src/jsx-runtime.test.ts; titles and assertions as upstream's.
 */
import { describe, expect, it } from "vitest";
import {
  Actions,
  type ActionsElement,
  Button,
  Card,
  type CardElement,
  CardLink,
  Divider,
  ExternalSelect,
  Field,
  Fields,
  Image,
  LinkButton,
  Modal,
  type ModalElement,
  RadioSelect,
  type RadioSelectElement,
  Section,
  Select,
  type SelectElement,
  SelectOption,
  Text,
  TextInput,
} from "../../src/content/index.js";
import {
  Fragment,
  isJSX,
  jsx,
  jsxs,
  toCardElement,
  toModalElement,
} from "../../src/content/jsx/jsx-runtime.js";

describe("jsx factory", () => {
  it("creates a JSX element with the correct structure", () => {
    const element = jsx(Card, { title: "Test" });
    expect(element.$$typeof).toBe(Symbol.for("chat.jsx.element"));
    expect(element.type).toBe(Card);
    expect(element.props).toEqual({ title: "Test" });
    expect(element.children).toEqual([]);
  });

  it("extracts children from props", () => {
    const element = jsx(Text, { children: "Hello" });
    expect(element.props).not.toHaveProperty("children");
    expect(element.children).toEqual(["Hello"]);
  });

  it("handles undefined children", () => {
    const element = jsx(Divider, {});
    expect(element.children).toEqual([]);
  });

  it("creates a CardLink JSX element", () => {
    const element = jsx(CardLink, { url: "https://example.com", label: "Example" });
    expect(element.$$typeof).toBe(Symbol.for("chat.jsx.element"));
    expect(element.type).toBe(CardLink);
    expect(element.props).toEqual({ url: "https://example.com", label: "Example" });
  });
});

describe("jsxs factory (multiple children)", () => {
  it("creates element with array children", () => {
    const child1 = jsx(Text, { children: "One" });
    const child2 = jsx(Text, { children: "Two" });
    const element = jsxs(Card, { title: "Parent", children: [child1, child2] });
    expect(element.children).toHaveLength(2);
  });

  it("handles single child (wraps in array)", () => {
    const child = jsx(Text, { children: "Single" });
    const element = jsxs(Card, { children: child });
    expect(element.children).toHaveLength(1);
  });

  it("handles null children", () => {
    const element = jsxs(Card, { children: null });
    expect(element.children).toEqual([]);
  });
});

/** The first child of a resolved card, narrowed to an Actions row. */
function actionsOf(card: CardElement | null): ActionsElement {
  const first = card?.children[0];
  if (first?.type !== "actions") throw new Error(`expected an actions row, got ${first?.type}`);
  return first;
}

describe("toCardElement", () => {
  it("converts a Card JSX element to CardElement", () => {
    const card = toCardElement(jsx(Card, { title: "Test Card" }));
    expect(card).not.toBeNull();
    expect(card?.type).toBe("card");
    expect(card?.title).toBe("Test Card");
  });

  it("handles Card with subtitle and imageUrl", () => {
    const card = toCardElement(
      jsx(Card, {
        title: "Title",
        subtitle: "Subtitle",
        imageUrl: "https://example.com/image.png",
      }),
    );
    expect(card?.title).toBe("Title");
    expect(card?.subtitle).toBe("Subtitle");
    expect(card?.imageUrl).toBe("https://example.com/image.png");
  });

  it("converts nested Text children", () => {
    const textChild = jsx(Text, { children: "Hello" });
    const card = toCardElement(jsxs(Card, { title: "Card", children: [textChild] }));
    expect(card?.children).toHaveLength(1);
    expect(card?.children[0]?.type).toBe("text");
    expect((card?.children[0] as { content: string }).content).toBe("Hello");
  });

  it("converts Button elements", () => {
    const button = jsx(Button, { id: "btn1", label: "Click Me", style: "primary" });
    const card = toCardElement(jsxs(Card, { children: [jsxs(Actions, { children: [button] })] }));
    expect(card?.children).toHaveLength(1);
    const actions = actionsOf(card);
    expect(actions.children).toHaveLength(1);
    expect(actions.children[0]).toMatchObject({
      type: "button",
      id: "btn1",
      label: "Click Me",
      style: "primary",
    });
  });

  it("converts Button with children as label", () => {
    const button = jsx(Button, { id: "btn", children: "Label from children" });
    const card = toCardElement(jsxs(Card, { children: [jsxs(Actions, { children: [button] })] }));
    expect(actionsOf(card).children[0]).toMatchObject({
      type: "button",
      label: "Label from children",
    });
  });

  it("converts LinkButton elements", () => {
    const linkButton = jsx(LinkButton, {
      url: "https://example.com",
      label: "Visit Site",
      style: "primary",
    });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Actions, { children: [linkButton] })] }),
    );
    expect(card?.children).toHaveLength(1);
    const actions = actionsOf(card);
    expect(actions.children).toHaveLength(1);
    expect(actions.children[0]).toMatchObject({
      type: "link-button",
      url: "https://example.com",
      label: "Visit Site",
      style: "primary",
    });
  });

  it("converts LinkButton with children as label", () => {
    const linkButton = jsx(LinkButton, {
      url: "https://example.com",
      children: "Label from children",
    });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Actions, { children: [linkButton] })] }),
    );
    expect(actionsOf(card).children[0]?.label).toBe("Label from children");
  });

  it("converts tooltip on Button and LinkButton", () => {
    const button = jsx(Button, { id: "ok", label: "OK", tooltip: "Confirm" });
    const linkButton = jsx(LinkButton, {
      url: "https://example.com",
      label: "Visit Site",
      tooltip: "Opens example.com",
    });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Actions, { children: [button, linkButton] })] }),
    );
    expect(card?.children[0]).toMatchObject({
      type: "actions",
      children: [
        { type: "button", tooltip: "Confirm" },
        { type: "link-button", tooltip: "Opens example.com" },
      ],
    });
  });

  it("converts visibleTo on Button and LinkButton", () => {
    const button = jsx(Button, { id: "ok", label: "OK", visibleTo: ["U123"] });
    const linkButton = jsx(LinkButton, {
      url: "https://example.com",
      label: "Visit Site",
      visibleTo: ["U456"],
    });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Actions, { children: [button, linkButton] })] }),
    );
    expect(card?.children[0]).toMatchObject({
      type: "actions",
      children: [
        { type: "button", visibleTo: ["U123"] },
        { type: "link-button", visibleTo: ["U456"] },
      ],
    });
  });

  it("converts Card width", () => {
    const card = toCardElement(jsxs(Card, { children: [], width: "full" }));
    expect(card?.width).toBe("full");
    expect(toCardElement(jsxs(Card, { children: [] }))?.width).toBeUndefined();
  });

  it("converts Image elements", () => {
    const image = jsx(Image, { url: "https://example.com/img.png", alt: "Description" });
    const card = toCardElement(jsxs(Card, { children: [image] }));
    expect(card?.children).toHaveLength(1);
    expect(card?.children[0]).toEqual({
      type: "image",
      url: "https://example.com/img.png",
      alt: "Description",
    });
  });

  it("converts Divider elements", () => {
    const card = toCardElement(jsxs(Card, { children: [jsx(Divider, {})] }));
    expect(card?.children).toHaveLength(1);
    expect(card?.children[0]?.type).toBe("divider");
  });

  it("converts CardLink elements", () => {
    const link = jsx(CardLink, { url: "https://example.com", label: "Visit" });
    const card = toCardElement(jsxs(Card, { children: [link] }));
    expect(card?.children).toHaveLength(1);
    expect(card?.children[0]).toEqual({ type: "link", url: "https://example.com", label: "Visit" });
  });

  it("converts CardLink with children as label", () => {
    const link = jsx(CardLink, { url: "https://example.com", children: "Label from children" });
    const card = toCardElement(jsxs(Card, { children: [link] }));
    expect(card?.children[0]).toMatchObject({ type: "link", label: "Label from children" });
  });

  it("converts Section elements", () => {
    const section = jsxs(Section, { children: [jsx(Text, { children: "Section content" })] });
    const card = toCardElement(jsxs(Card, { children: [section] }));
    expect(card?.children).toHaveLength(1);
    const first = card?.children[0];
    expect(first?.type).toBe("section");
    expect(first?.type === "section" && first.children).toHaveLength(1);
  });

  it("converts Field and Fields elements", () => {
    const field1 = jsx(Field, { label: "Name", value: "John" });
    const field2 = jsx(Field, { label: "Email", value: "john@example.com" });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Fields, { children: [field1, field2] })] }),
    );
    expect(card?.children).toHaveLength(1);
    const fields = card?.children[0];
    if (fields?.type !== "fields") throw new Error("expected fields");
    expect(fields.children).toHaveLength(2);
    expect(fields.children[0]?.label).toBe("Name");
    expect(fields.children[0]?.value).toBe("John");
  });

  it("converts Text with style", () => {
    const card = toCardElement(
      jsxs(Card, { children: [jsx(Text, { style: "bold", children: "Bold text" })] }),
    );
    expect(card?.children[0]).toEqual({ type: "text", style: "bold", content: "Bold text" });
  });

  it("returns existing CardElement unchanged", () => {
    const card = Card({ title: "Already a card" });
    expect(toCardElement(card)).toBe(card);
  });

  it("returns null for non-card JSX elements", () => {
    expect(toCardElement(jsx(Text, { children: "Not a card" }))).toBeNull();
  });

  it("returns null for non-JSX values", () => {
    expect(toCardElement(null)).toBeNull();
    expect(toCardElement(undefined)).toBeNull();
    expect(toCardElement("string")).toBeNull();
    expect(toCardElement(123)).toBeNull();
    expect(toCardElement({})).toBeNull();
  });

  it("handles complex nested structure", () => {
    const card = jsxs(Card, {
      title: "Complex Card",
      subtitle: "With many elements",
      children: [
        jsx(Text, { children: "Introduction" }),
        jsx(Divider, {}),
        jsxs(Section, {
          children: [
            jsx(Text, { style: "bold", children: "Section Title" }),
            jsx(Image, { url: "https://example.com/img.png" }),
          ],
        }),
        jsxs(Fields, {
          children: [
            jsx(Field, { label: "Status", value: "Active" }),
            jsx(Field, { label: "Type", value: "Premium" }),
          ],
        }),
        jsxs(Actions, {
          children: [
            jsx(Button, { id: "save", style: "primary", children: "Save" }),
            jsx(Button, { id: "cancel", children: "Cancel" }),
          ],
        }),
      ],
    });

    const result = toCardElement(card);
    expect(result).not.toBeNull();
    expect(result?.title).toBe("Complex Card");
    expect(result?.subtitle).toBe("With many elements");
    expect(result?.children.map((child) => child.type)).toEqual([
      "text",
      "divider",
      "section",
      "fields",
      "actions",
    ]);
  });
});

describe("Fragment", () => {
  it("flattens children into array", () => {
    const result = Fragment({
      children: [jsx(Text, { children: "One" }), jsx(Text, { children: "Two" })],
    });
    expect(result).toHaveLength(2);
  });

  it("handles single child", () => {
    const result = Fragment({ children: jsx(Text, { children: "Single" }) });
    expect(result).toHaveLength(1);
  });

  it("handles undefined children", () => {
    expect(Fragment({})).toEqual([]);
  });

  it("handles null children", () => {
    expect(Fragment({ children: null })).toEqual([]);
  });
});

describe("isJSX", () => {
  it("returns true for our JSX elements", () => {
    expect(isJSX(jsx(Card, { title: "Test" }))).toBe(true);
  });

  it("returns false for plain objects", () => {
    expect(isJSX({})).toBe(false);
    expect(isJSX({ type: "card" })).toBe(false);
  });

  it("returns false for primitives", () => {
    expect(isJSX(null)).toBe(false);
    expect(isJSX(undefined)).toBe(false);
    expect(isJSX("string")).toBe(false);
    expect(isJSX(123)).toBe(false);
    expect(isJSX(true)).toBe(false);
  });

  it("returns false for arrays", () => {
    expect(isJSX([])).toBe(false);
    expect(isJSX([jsx(Card, {})])).toBe(false);
  });

  it("returns true for objects with react.element symbol", () => {
    expect(isJSX({ $$typeof: Symbol.for("react.element"), type: Card, props: {} })).toBe(true);
  });

  it("returns true for react.transitional.element", () => {
    expect(
      isJSX({ $$typeof: Symbol.for("react.transitional.element"), type: Card, props: {} }),
    ).toBe(true);
  });
});

describe("type guard errors", () => {
  it("throws for Button without id", () => {
    // @ts-expect-error Testing runtime error for missing id
    const button = jsx(Button, { label: "No ID" });
    const card = jsxs(Card, { children: [jsxs(Actions, { children: [button] })] });
    expect(() => toCardElement(card)).toThrow("Button requires an 'id' prop");
  });

  it("throws for Image without url", () => {
    // @ts-expect-error Testing runtime error for missing url
    const image = jsx(Image, { alt: "No URL" });
    const card = jsxs(Card, { children: [image] });
    expect(() => toCardElement(card)).toThrow("Image requires a 'url' prop");
  });

  it("throws for Field without label or value", () => {
    // @ts-expect-error Testing runtime error for missing props
    const field = jsx(Field, { label: "Name" });
    const card = jsxs(Card, { children: [jsxs(Fields, { children: [field] })] });
    expect(() => toCardElement(card)).toThrow("Field requires 'label' and 'value' props");
  });
});

describe("edge cases", () => {
  it("handles empty Card", () => {
    const result = toCardElement(jsx(Card, {}));
    expect(result).not.toBeNull();
    expect(result?.title).toBeUndefined();
    expect(result?.children).toEqual([]);
  });

  it("handles Text with number children", () => {
    const result = toCardElement(jsxs(Card, { children: [jsx(Text, { children: 42 })] }));
    expect(result?.children[0]).toEqual({ type: "text", content: "42" });
  });

  it("handles deeply nested Sections", () => {
    const innerSection = jsxs(Section, { children: [jsx(Text, { children: "Deep" })] });
    const outerSection = jsxs(Section, { children: [innerSection] });
    const result = toCardElement(jsxs(Card, { children: [outerSection] }));
    const outer = result?.children[0];
    if (outer?.type !== "section") throw new Error("expected a section");
    expect(outer.children[0]?.type).toBe("section");
  });

  it("handles Button with value prop", () => {
    const button = jsx(Button, { id: "btn", label: "Click", value: "custom-value" });
    const result = toCardElement(jsxs(Card, { children: [jsxs(Actions, { children: [button] })] }));
    expect(actionsOf(result).children[0]).toMatchObject({ type: "button", value: "custom-value" });
  });

  it("handles mixed children types", () => {
    // Mix of JSX elements and already-resolved elements
    const jsxText = jsx(Text, { children: "JSX Text" });
    const resolvedText = Text("Resolved Text");
    const result = toCardElement(jsxs(Card, { children: [jsxText, resolvedText] }));
    expect(result?.children).toHaveLength(2);
    expect(result?.children[0]?.type).toBe("text");
    expect(result?.children[1]?.type).toBe("text");
  });
});

describe("toModalElement", () => {
  it("converts a Modal JSX element to ModalElement", () => {
    const modal = toModalElement(jsx(Modal, { callbackId: "test_modal", title: "Test Modal" }));
    expect(modal).not.toBeNull();
    expect(modal?.type).toBe("modal");
    expect(modal?.callbackId).toBe("test_modal");
    expect(modal?.title).toBe("Test Modal");
  });

  it("converts a Modal with children to ModalElement", () => {
    const textInput = jsx(TextInput, { id: "name", label: "Name" });
    const modal = toModalElement(
      jsxs(Modal, { callbackId: "form_modal", title: "Form", children: [textInput] }),
    );
    expect(modal).not.toBeNull();
    expect(modal?.type).toBe("modal");
    expect(modal?.children).toHaveLength(1);
    expect(modal?.children[0]?.type).toBe("text_input");
  });

  it("converts a Modal with Select and options", () => {
    const option1 = jsx(SelectOption, { label: "Option 1", value: "1" });
    const option2 = jsx(SelectOption, { label: "Option 2", value: "2" });
    const select = jsxs(Select, { id: "choice", label: "Choose", children: [option1, option2] });
    const modal = toModalElement(
      jsxs(Modal, { callbackId: "select_modal", title: "Select Form", children: [select] }),
    );
    expect(modal).not.toBeNull();
    expect(modal?.children).toHaveLength(1);
    expect(modal?.children[0]?.type).toBe("select");
    expect((modal?.children[0] as { options: unknown[] }).options).toHaveLength(2);
  });

  it("returns existing ModalElement unchanged", () => {
    const modal = Modal({ callbackId: "existing", title: "Existing" });
    expect(toModalElement(modal)).toBe(modal);
  });

  it("returns null for non-Modal JSX elements", () => {
    expect(toModalElement(jsx(Card, { title: "Test Card" }))).toBeNull();
  });

  it("returns null for invalid inputs", () => {
    expect(toModalElement(null)).toBeNull();
    expect(toModalElement(undefined)).toBeNull();
    expect(toModalElement("string")).toBeNull();
    expect(toModalElement(123)).toBeNull();
    expect(toModalElement({})).toBeNull();
  });

  it("preserves optional modal properties", () => {
    const modal = toModalElement(
      jsx(Modal, {
        callbackId: "full_modal",
        title: "Full Modal",
        submitLabel: "Send",
        closeLabel: "Cancel",
        notifyOnClose: true,
      }),
    );
    expect(modal?.submitLabel).toBe("Send");
    expect(modal?.closeLabel).toBe("Cancel");
    expect(modal?.notifyOnClose).toBe(true);
  });

  describe.each([
    ["Select", Select],
    ["RadioSelect", RadioSelect],
  ] as const)("%s modal action dispatch", (_name, component) => {
    it.each([true, false, undefined])("preserves dispatchAction=%s", (dispatchAction) => {
      const modal = toModalElement(
        jsx(Modal, {
          callbackId: "permissions",
          title: "Permissions",
          children: jsx(component, {
            id: "scope",
            label: "Scope",
            dispatchAction,
            children: jsx(SelectOption, { label: "Team", value: "team" }),
          }),
        }),
      );
      // Baton leaves unset fields out of the element, so `undefined` reads back as undefined.
      expect((modal?.children[0] as SelectElement).dispatchAction).toBe(dispatchAction);
    });
  });

  it("preserves privateMetadata from JSX props", () => {
    const metadata = JSON.stringify({ chatId: "abc", scope: "team" });
    const modal = toModalElement(
      jsx(Modal, { callbackId: "meta_modal", title: "With Metadata", privateMetadata: metadata }),
    );
    expect(modal?.privateMetadata).toBe(metadata);
    const parsed = JSON.parse(modal?.privateMetadata as string);
    expect(parsed.chatId).toBe("abc");
    expect(parsed.scope).toBe("team");
  });

  it("converts a Modal with RadioSelect and options", () => {
    const option1 = jsx(SelectOption, { label: "Yes", value: "yes" });
    const option2 = jsx(SelectOption, { label: "No", value: "no" });
    const radioSelect = jsxs(RadioSelect, {
      id: "confirm",
      label: "Confirm",
      children: [option1, option2],
    });
    const modal = toModalElement(
      jsxs(Modal, { callbackId: "radio_modal", title: "Radio Form", children: [radioSelect] }),
    );
    expect(modal).not.toBeNull();
    expect(modal?.children).toHaveLength(1);
    expect(modal?.children[0]?.type).toBe("radio_select");
    expect((modal?.children[0] as { options: unknown[] }).options).toHaveLength(2);
  });

  it("converts SelectOption with description in Modal", () => {
    const option1 = jsx(SelectOption, {
      label: "Basic",
      value: "basic",
      description: "For individuals",
    });
    const option2 = jsx(SelectOption, { label: "Pro", value: "pro", description: "For teams" });
    const select = jsxs(Select, { id: "plan", label: "Plan", children: [option1, option2] });
    const modal = toModalElement(
      jsxs(Modal, { callbackId: "desc_modal", title: "Plan Selection", children: [select] }),
    );
    expect(modal).not.toBeNull();
    const options = (modal?.children[0] as SelectElement).options;
    expect(options[0]?.description).toBe("For individuals");
    expect(options[1]?.description).toBe("For teams");
  });

  it("throws when Select has no SelectOption children", () => {
    const select = jsxs(Select, { id: "empty", label: "Empty Select", children: [] });
    const modal = jsxs(Modal, { callbackId: "test", title: "Test", children: [select] });
    expect(() => toModalElement(modal)).toThrow("Select requires at least one option");
  });

  it("throws when RadioSelect has no SelectOption children", () => {
    const radioSelect = jsxs(RadioSelect, {
      id: "empty",
      label: "Empty RadioSelect",
      children: [],
    });
    const modal = jsxs(Modal, { callbackId: "test", title: "Test", children: [radioSelect] });
    expect(() => toModalElement(modal)).toThrow("RadioSelect requires at least one option");
  });

  it("converts ExternalSelect in a modal", () => {
    const externalSelect = jsx(ExternalSelect, {
      id: "person",
      label: "Person",
      placeholder: "Search people",
      minQueryLength: 1,
    });
    const modalElement = toModalElement(
      jsxs(Modal, { callbackId: "test", title: "Test", children: [externalSelect] }),
    );
    expect(modalElement).not.toBeNull();
    expect(modalElement?.children[0]).toMatchObject({ type: "external_select", minQueryLength: 1 });
  });
});

describe("toCardElement with Select elements", () => {
  it("converts Select in Actions", () => {
    const option1 = jsx(SelectOption, { label: "High", value: "high" });
    const option2 = jsx(SelectOption, { label: "Low", value: "low" });
    const select = jsxs(Select, {
      id: "priority",
      label: "Priority",
      children: [option1, option2],
    });
    const card = toCardElement(jsxs(Card, { children: [jsxs(Actions, { children: [select] })] }));
    expect(card?.children).toHaveLength(1);
    const actions = actionsOf(card);
    expect(actions.children).toHaveLength(1);
    const selectEl = actions.children[0];
    expect(selectEl?.type).toBe("select");
    expect(selectEl).toMatchObject({ id: "priority" });
    expect((selectEl as SelectElement).options).toHaveLength(2);
  });

  it("converts RadioSelect in Actions", () => {
    const option1 = jsx(SelectOption, { label: "Yes", value: "yes" });
    const option2 = jsx(SelectOption, { label: "No", value: "no" });
    const radioSelect = jsxs(RadioSelect, {
      id: "confirm",
      label: "Confirm",
      children: [option1, option2],
    });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Actions, { children: [radioSelect] })] }),
    );
    expect(card?.children).toHaveLength(1);
    const actions = actionsOf(card);
    expect(actions.children).toHaveLength(1);
    const radioEl = actions.children[0];
    expect(radioEl?.type).toBe("radio_select");
    expect(radioEl).toMatchObject({ id: "confirm" });
    expect((radioEl as RadioSelectElement).options).toHaveLength(2);
  });

  it("converts SelectOption with description in Card Actions", () => {
    const option1 = jsx(SelectOption, {
      label: "Basic",
      value: "basic",
      description: "For individuals",
    });
    const option2 = jsx(SelectOption, { label: "Pro", value: "pro", description: "For teams" });
    const select = jsxs(Select, { id: "plan", label: "Plan", children: [option1, option2] });
    const card = toCardElement(jsxs(Card, { children: [jsxs(Actions, { children: [select] })] }));
    const options = (actionsOf(card).children[0] as SelectElement).options;
    expect(options[0]?.description).toBe("For individuals");
    expect(options[1]?.description).toBe("For teams");
  });

  it("converts mixed Buttons, Select, and RadioSelect in Actions", () => {
    const button = jsx(Button, { id: "submit", label: "Submit" });
    const option = jsx(SelectOption, { label: "Option", value: "opt" });
    const select = jsxs(Select, { id: "dropdown", label: "Dropdown", children: [option] });
    const radioSelect = jsxs(RadioSelect, { id: "choice", label: "Choice", children: [option] });
    const card = toCardElement(
      jsxs(Card, { children: [jsxs(Actions, { children: [button, select, radioSelect] })] }),
    );
    expect(actionsOf(card).children.map((child) => child.type)).toEqual([
      "button",
      "select",
      "radio_select",
    ]);
  });

  it("throws when Select in Actions has no options", () => {
    const select = jsxs(Select, { id: "empty", label: "Empty", children: [] });
    const card = jsxs(Card, { children: [jsxs(Actions, { children: [select] })] });
    expect(() => toCardElement(card)).toThrow("Select requires at least one option");
  });

  it("throws when RadioSelect in Actions has no options", () => {
    const radioSelect = jsxs(RadioSelect, { id: "empty", label: "Empty", children: [] });
    const card = jsxs(Card, { children: [jsxs(Actions, { children: [radioSelect] })] });
    expect(() => toCardElement(card)).toThrow("RadioSelect requires at least one option");
  });
});
