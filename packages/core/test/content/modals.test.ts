import { describe, expect, it, vi } from "vitest";
import {
  DateInput,
  ExternalSelect,
  filterModalChildren,
  fromReactModalElement,
  isModalElement,
  Modal,
  NumberInput,
  RadioSelect,
  Select,
  SelectOption,
  TextInput,
} from "../../src/content/index.js";

// Ported from upstream packages/chat/src/modals.test.ts (titles and assertions as upstream's).

describe("Builder Functions", () => {
  describe("Modal", () => {
    it("should create a modal with required fields", () => {
      const modal = Modal({ callbackId: "cb-1", title: "My Modal" });
      expect(modal.type).toBe("modal");
      expect(modal.callbackId).toBe("cb-1");
      expect(modal.title).toBe("My Modal");
      expect(modal.children).toEqual([]);
    });

    it("should include optional fields", () => {
      const modal = Modal({
        callbackId: "cb-1",
        title: "Test",
        submitLabel: "Submit",
        closeLabel: "Cancel",
        notifyOnClose: true,
        privateMetadata: '{"key":"val"}',
      });
      expect(modal.submitLabel).toBe("Submit");
      expect(modal.closeLabel).toBe("Cancel");
      expect(modal.notifyOnClose).toBe(true);
      expect(modal.privateMetadata).toBe('{"key":"val"}');
    });

    it("should accept children", () => {
      const input = TextInput({ id: "t1", label: "Name" });
      const modal = Modal({ callbackId: "cb-1", title: "Test", children: [input] });
      expect(modal.children).toHaveLength(1);
      expect(modal.children[0]).toEqual(input);
    });
  });

  describe("TextInput", () => {
    it("should create with required fields", () => {
      const input = TextInput({ id: "t1", label: "Name" });
      expect(input.type).toBe("text_input");
      expect(input.id).toBe("t1");
      expect(input.label).toBe("Name");
    });

    it("should include optional fields", () => {
      const input = TextInput({
        id: "t1",
        label: "Name",
        placeholder: "Enter name",
        initialValue: "John",
        multiline: true,
        optional: true,
        maxLength: 100,
      });
      expect(input.placeholder).toBe("Enter name");
      expect(input.initialValue).toBe("John");
      expect(input.multiline).toBe(true);
      expect(input.optional).toBe(true);
      expect(input.maxLength).toBe(100);
    });
  });

  describe("Select", () => {
    it("should create with options", () => {
      const sel = Select({
        id: "s1",
        label: "Pick one",
        options: [SelectOption({ label: "A", value: "a" })],
      });
      expect(sel.type).toBe("select");
      expect(sel.options).toHaveLength(1);
    });

    it("should throw with empty options", () => {
      expect(() => Select({ id: "s1", label: "Pick", options: [] })).toThrow(
        "Select requires at least one option",
      );
    });

    it("should include optional fields", () => {
      const sel = Select({
        id: "s1",
        label: "Pick",
        placeholder: "Choose",
        options: [SelectOption({ label: "A", value: "a" })],
        initialOption: "a",
        optional: true,
      });
      expect(sel.placeholder).toBe("Choose");
      expect(sel.initialOption).toBe("a");
      expect(sel.optional).toBe(true);
    });
  });

  describe("ExternalSelect", () => {
    it("should create with required fields", () => {
      const externalSelect = ExternalSelect({ id: "person", label: "Person" });
      expect(externalSelect.type).toBe("external_select");
      expect(externalSelect.id).toBe("person");
      expect(externalSelect.label).toBe("Person");
    });

    it("should include optional fields", () => {
      const externalSelect = ExternalSelect({
        id: "person",
        label: "Person",
        placeholder: "Search people",
        minQueryLength: 1,
        optional: true,
      });
      expect(externalSelect.placeholder).toBe("Search people");
      expect(externalSelect.minQueryLength).toBe(1);
      expect(externalSelect.optional).toBe(true);
    });
  });

  describe("DateInput", () => {
    it("should create with required fields", () => {
      const input = DateInput({ id: "due", label: "Due date" });
      expect(input.type).toBe("date_input");
      expect(input.id).toBe("due");
      expect(input.label).toBe("Due date");
    });

    it("should include optional fields", () => {
      const input = DateInput({
        id: "due",
        label: "Due date",
        placeholder: "Pick a day",
        initialValue: "2026-03-15",
        optional: true,
      });
      expect(input.placeholder).toBe("Pick a day");
      expect(input.initialValue).toBe("2026-03-15");
      expect(input.optional).toBe(true);
    });
  });

  describe("NumberInput", () => {
    it("should create with required fields", () => {
      const input = NumberInput({ id: "qty", label: "Quantity" });
      expect(input.type).toBe("number_input");
      expect(input.id).toBe("qty");
      expect(input.label).toBe("Quantity");
    });

    it("should include optional fields", () => {
      const input = NumberInput({
        id: "price",
        label: "Price",
        placeholder: "0.00",
        initialValue: 9.5,
        optional: true,
        min: 0,
        max: 100,
        decimal: true,
      });
      expect(input.placeholder).toBe("0.00");
      expect(input.initialValue).toBe(9.5);
      expect(input.optional).toBe(true);
      expect(input.min).toBe(0);
      expect(input.max).toBe(100);
      expect(input.decimal).toBe(true);
    });

    it("should keep a zero initial value", () => {
      const input = NumberInput({ id: "qty", label: "Quantity", initialValue: 0 });
      expect(input.initialValue).toBe(0);
      expect(JSON.parse(JSON.stringify(input))).toHaveProperty("initialValue", 0);
    });
  });

  describe("SelectOption", () => {
    it("should create with label and value", () => {
      const opt = SelectOption({ label: "Option A", value: "a" });
      expect(opt.label).toBe("Option A");
      expect(opt.value).toBe("a");
    });

    it("should include description", () => {
      const opt = SelectOption({ label: "Option A", value: "a", description: "First option" });
      expect(opt.description).toBe("First option");
    });
  });

  describe("RadioSelect", () => {
    it("should create with options", () => {
      const radio = RadioSelect({
        id: "r1",
        label: "Choose",
        options: [SelectOption({ label: "X", value: "x" })],
      });
      expect(radio.type).toBe("radio_select");
      expect(radio.options).toHaveLength(1);
    });

    it("should throw with empty options", () => {
      expect(() => RadioSelect({ id: "r1", label: "Choose", options: [] })).toThrow(
        "RadioSelect requires at least one option",
      );
    });
  });
});

describe("Type Guards", () => {
  describe("isModalElement", () => {
    it("should return true for modal elements", () => {
      const modal = Modal({ callbackId: "cb", title: "T" });
      expect(isModalElement(modal)).toBe(true);
    });

    it("should return false for non-modal elements", () => {
      expect(isModalElement(null)).toBe(false);
      expect(isModalElement(undefined)).toBe(false);
      expect(isModalElement("string")).toBe(false);
      expect(isModalElement({ type: "text_input" })).toBe(false);
    });
  });

  describe("filterModalChildren", () => {
    it("should keep valid child types", () => {
      const children = [
        TextInput({ id: "t1", label: "Name" }),
        ExternalSelect({ id: "person", label: "Person" }),
        Select({ id: "s1", label: "Pick", options: [SelectOption({ label: "A", value: "a" })] }),
      ];
      const result = filterModalChildren(children);
      expect(result).toHaveLength(3);
    });

    it("should filter invalid children and warn", () => {
      // Upstream's warning says "[chat]"; Baton's names itself.
      const warnSpy = vi.spyOn(console, "warn").mockImplementation(() => {});
      const children = [TextInput({ id: "t1", label: "Name" }), { type: "unknown_widget" }];
      const result = filterModalChildren(children);
      expect(result).toHaveLength(1);
      expect(warnSpy).toHaveBeenCalledWith(
        "[baton] Modal contains unsupported child elements that were ignored",
      );
      warnSpy.mockRestore();
    });

    it("should filter non-object items", () => {
      const warnSpy = vi.spyOn(console, "warn").mockImplementation(() => {});
      const result = filterModalChildren(["string", null, 42] as unknown[]);
      expect(result).toHaveLength(0);
      expect(warnSpy).toHaveBeenCalledTimes(1);
      warnSpy.mockRestore();
    });
  });
});

describe("JSX Support", () => {
  const REACT_ELEMENT_SYMBOL = Symbol.for("react.element");

  function makeReactElement(type: unknown, props: Record<string, unknown>) {
    return { $$typeof: REACT_ELEMENT_SYMBOL, type, props };
  }

  describe("fromReactModalElement", () => {
    it("should convert a Modal react element", () => {
      const el = makeReactElement(Modal, { callbackId: "cb-1", title: "Test Modal" });
      const result = fromReactModalElement(el);
      expect(result).not.toBeNull();
      expect(isModalElement(result)).toBe(true);
      expect(result).toMatchObject({ callbackId: "cb-1", title: "Test Modal" });
    });

    it("should convert a TextInput react element", () => {
      const el = makeReactElement(TextInput, { id: "t1", label: "Name" });
      const result = fromReactModalElement(el);
      expect(result).toMatchObject({ type: "text_input", id: "t1", label: "Name" });
    });

    it("should convert a DateInput react element", () => {
      const el = makeReactElement(DateInput, {
        id: "due",
        label: "Due date",
        initialValue: "2026-03-15",
      });
      const result = fromReactModalElement(el);
      expect(result).toMatchObject({ type: "date_input", id: "due", initialValue: "2026-03-15" });
    });

    it("should convert a NumberInput react element", () => {
      const el = makeReactElement(NumberInput, {
        id: "qty",
        label: "Quantity",
        initialValue: 0,
        min: 0,
        max: 10,
      });
      const result = fromReactModalElement(el);
      expect(result).toMatchObject({ type: "number_input", initialValue: 0, min: 0, max: 10 });
    });

    it("should convert a Select react element with children", () => {
      const optEl = makeReactElement(SelectOption, { label: "A", value: "a" });
      const selEl = makeReactElement(Select, { id: "s1", label: "Pick", children: [optEl] });
      const result = fromReactModalElement(selEl);
      expect(result).toMatchObject({ type: "select", options: [{ label: "A", value: "a" }] });
    });

    it("should convert an ExternalSelect react element", () => {
      const el = makeReactElement(ExternalSelect, {
        id: "person",
        label: "Person",
        placeholder: "Search people",
        minQueryLength: 1,
      });
      const result = fromReactModalElement(el);
      expect(result).toMatchObject({ type: "external_select", minQueryLength: 1 });
    });

    it("should convert a RadioSelect react element", () => {
      const optEl = makeReactElement(SelectOption, { label: "X", value: "x" });
      const radioEl = makeReactElement(RadioSelect, {
        id: "r1",
        label: "Choose",
        children: [optEl],
      });
      const result = fromReactModalElement(radioEl);
      expect(result).toMatchObject({ type: "radio_select", options: [{ value: "x" }] });
    });

    it("should return null for non-react, non-modal elements", () => {
      expect(fromReactModalElement(null)).toBeNull();
      expect(fromReactModalElement("string")).toBeNull();
      expect(fromReactModalElement(42)).toBeNull();
    });

    it("should pass through plain modal elements", () => {
      const modal = Modal({ callbackId: "cb", title: "T" });
      const result = fromReactModalElement(modal);
      expect(result).toEqual(modal);
    });

    it("should pass through plain modal children", () => {
      const input = TextInput({ id: "t1", label: "Name" });
      const result = fromReactModalElement(input);
      expect(result).toEqual(input);
    });

    it("should handle unknown component by extracting children", () => {
      const childEl = makeReactElement(TextInput, { id: "t1", label: "Name" });
      const unknownComponent = () => {};
      const el = makeReactElement(unknownComponent, { children: [childEl] });
      const result = fromReactModalElement(el);
      expect(result).toMatchObject({ type: "text_input", id: "t1" });
    });

    it("should return null for unknown component without children", () => {
      const unknownComponent = () => {};
      const el = makeReactElement(unknownComponent, {});
      const result = fromReactModalElement(el);
      expect(result).toBeNull();
    });
  });
});
