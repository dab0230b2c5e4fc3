/**
 * Every element kind is a `ChatElement`, what JSX expressions evaluate to. Checked by the type
 * checker (`pnpm typecheck` covers this file) and at run time. Ported from upstream
 * packages/chat/src/jsx-runtime.test.ts ("ChatElement type compatibility").
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  Actions,
  type ActionsElement,
  Button,
  type ButtonElement,
  Card,
  type CardElement,
  type CardJSXElement,
  CardLink,
  type ChatElement,
  Divider,
  type DividerElement,
  ExternalSelect,
  type ExternalSelectElement,
  Field,
  type FieldElement,
  Fields,
  type FieldsElement,
  Image,
  type ImageElement,
  isJSX,
  LinkButton,
  type LinkButtonElement,
  type LinkElement,
  Modal,
  type ModalElement,
  RadioSelect,
  type RadioSelectElement,
  Section,
  type SectionElement,
  Select,
  type SelectElement,
  SelectOption,
  type SelectOptionElement,
  Text,
  type TextElement,
  TextInput,
  type TextInputElement,
  toCardElement,
  toModalElement,
} from "../../src/content/index.js";
import { jsx } from "../../src/content/jsx/jsx-runtime.js";

describe("ChatElement type compatibility", () => {
  // Each element kind is a ChatElement for the type checker (`pnpm typecheck` runs on this file)
  // and keeps its own tag at run time.
  const option = SelectOption({ label: "A", value: "a" });

  it("CardJSXElement is assignable to ChatElement", () => {
    expectTypeOf<CardJSXElement>().toExtend<ChatElement>();
    const element: ChatElement = jsx(Card, { title: "T" });
    expect(isJSX(element)).toBe(true);
  });

  it("CardElement is assignable to ChatElement", () => {
    expectTypeOf<CardElement>().toExtend<ChatElement>();
    const element: ChatElement = Card({ title: "T" });
    expect(toCardElement(element)).toBe(element);
  });

  it("TextElement is assignable to ChatElement", () => {
    expectTypeOf<TextElement>().toExtend<ChatElement>();
    const element: ChatElement = Text("hi");
    expect(element).toEqual({ type: "text", content: "hi" });
  });

  it("ButtonElement is assignable to ChatElement", () => {
    expectTypeOf<ButtonElement>().toExtend<ChatElement>();
    const element: ChatElement = Button({ id: "b", label: "B" });
    expect(element).toMatchObject({ type: "button" });
  });

  it("LinkButtonElement is assignable to ChatElement", () => {
    expectTypeOf<LinkButtonElement>().toExtend<ChatElement>();
    const element: ChatElement = LinkButton({ url: "https://example.com", label: "L" });
    expect(element).toMatchObject({ type: "link-button" });
  });

  it("LinkElement is assignable to ChatElement", () => {
    expectTypeOf<LinkElement>().toExtend<ChatElement>();
    const element: ChatElement = CardLink({ url: "https://example.com", label: "L" });
    expect(element).toMatchObject({ type: "link" });
  });

  it("ImageElement is assignable to ChatElement", () => {
    expectTypeOf<ImageElement>().toExtend<ChatElement>();
    const element: ChatElement = Image({ url: "https://example.com/a.png" });
    expect(element).toMatchObject({ type: "image" });
  });

  it("DividerElement is assignable to ChatElement", () => {
    expectTypeOf<DividerElement>().toExtend<ChatElement>();
    const element: ChatElement = Divider();
    expect(element).toEqual({ type: "divider" });
  });

  it("ActionsElement is assignable to ChatElement", () => {
    expectTypeOf<ActionsElement>().toExtend<ChatElement>();
    const element: ChatElement = Actions([]);
    expect(element).toEqual({ type: "actions", children: [] });
  });

  it("SectionElement is assignable to ChatElement", () => {
    expectTypeOf<SectionElement>().toExtend<ChatElement>();
    const element: ChatElement = Section([]);
    expect(element).toEqual({ type: "section", children: [] });
  });

  it("FieldsElement is assignable to ChatElement", () => {
    expectTypeOf<FieldsElement>().toExtend<ChatElement>();
    const element: ChatElement = Fields([]);
    expect(element).toEqual({ type: "fields", children: [] });
  });

  it("FieldElement is assignable to ChatElement", () => {
    expectTypeOf<FieldElement>().toExtend<ChatElement>();
    const element: ChatElement = Field({ label: "L", value: "V" });
    expect(element).toEqual({ type: "field", label: "L", value: "V" });
  });

  it("ModalElement is assignable to ChatElement", () => {
    expectTypeOf<ModalElement>().toExtend<ChatElement>();
    const element: ChatElement = Modal({ callbackId: "cb", title: "T" });
    expect(toModalElement(element)).toBe(element);
  });

  it("TextInputElement is assignable to ChatElement", () => {
    expectTypeOf<TextInputElement>().toExtend<ChatElement>();
    const element: ChatElement = TextInput({ id: "t", label: "T" });
    expect(element).toMatchObject({ type: "text_input" });
  });

  it("SelectElement is assignable to ChatElement", () => {
    expectTypeOf<SelectElement>().toExtend<ChatElement>();
    const element: ChatElement = Select({ id: "s", label: "S", options: [option] });
    expect(element).toMatchObject({ type: "select" });
  });

  it("SelectOptionElement is assignable to ChatElement", () => {
    expectTypeOf<SelectOptionElement>().toExtend<ChatElement>();
    const element: ChatElement = option;
    expect(element).toEqual({ label: "A", value: "a" });
  });

  it("RadioSelectElement is assignable to ChatElement", () => {
    expectTypeOf<RadioSelectElement>().toExtend<ChatElement>();
    const element: ChatElement = RadioSelect({ id: "r", label: "R", options: [option] });
    expect(element).toMatchObject({ type: "radio_select" });
  });

  it("ExternalSelectElement is assignable to ChatElement", () => {
    expectTypeOf<ExternalSelectElement>().toExtend<ChatElement>();
    const element: ChatElement = ExternalSelect({ id: "e", label: "E" });
    expect(element).toMatchObject({ type: "external_select" });
  });
});
