import { ValidationError } from "../../errors/index.js";
import { isCardElement } from "../cards/card-types.js";
import { isModalElement } from "../modals/modal-types.js";
import { type BuiltElement, buildElement, isComponent } from "./build-element.js";
import { isReactElement } from "./jsx-element.js";

/**
 * React JSX mode: a bot that compiles its TSX with React's runtime still gets plain elements, by
 * converting React elements whose type is one of Baton's components. No React import is needed;
 * a React element is recognized by its `$$typeof` marker.
 */

function convert(element: unknown): BuiltElement | null {
  if (!isReactElement(element)) {
    if (typeof element === "object" && element !== null && "type" in element) {
      return element as BuiltElement;
    }
    return null;
  }
  const { type, props } = element;
  if (typeof type === "string") {
    throw new ValidationError(
      `HTML element <${type}> is not supported in card elements. Use Card, Text, Section, Actions, Button, Fields, Field, Image or Divider instead.`,
    );
  }
  const { children, ...rest } = props;
  if (!isComponent(type)) {
    // Another component (a provider, a wrapper): stand in its first convertible child.
    return children == null
      ? null
      : ((convertChildren(children)[0] as BuiltElement | undefined) ?? null);
  }
  return buildElement(type, rest, convertChildren(children)) ?? null;
}

function convertChildren(children: unknown): unknown[] {
  if (children == null || typeof children === "boolean") return [];
  if (Array.isArray(children)) return children.flatMap(convertChildren);
  if (typeof children === "string" || typeof children === "number") return [String(children)];
  if (isReactElement(children)) {
    // React's <>…</> (type `Symbol(react.fragment)`): its children join the parent.
    if (typeof children.type === "symbol" && String(children.type).includes("react.fragment")) {
      return convertChildren(children.props.children);
    }
    const converted = convert(children);
    if (converted === null) return [];
    // A wrapper that renders a whole card contributes the card's children.
    return isCardElement(converted) ? converted.children : [converted];
  }
  return typeof children === "object" ? [children] : [];
}

/**
 * The card element a React element tree stands for (`<Card>` → CardElement, `<Text>` → text, …);
 * a plain element is returned as is, anything else gives `null`. HTML elements throw a
 * ValidationError: cards have no `<div>`.
 */
export function fromReactElement(element: unknown): BuiltElement | null {
  if (isCardElement(element)) return element;
  return convert(element);
}

/** {@link fromReactElement} for modal trees (`<Modal>`, `<TextInput>`, `<Select>`, …). */
export function fromReactModalElement(element: unknown): BuiltElement | null {
  if (isModalElement(element)) return element;
  return convert(element);
}
