import { ValidationError } from "../../errors/index.js";
import { type CardElement, isCardElement } from "../cards/card-types.js";
import { describeReceived } from "../cards/element-checks.js";
import { isModalElement, type ModalElement } from "../modals/modal-types.js";
import { buildElement, isComponent } from "./build-element.js";
import { isJSXElement } from "./jsx-element.js";
import type { CardJSXElement } from "./jsx-types.js";

/**
 * Resolves lazy JSX trees into plain elements. Children are flattened: arrays and fragments
 * merge into their parent, `null`, `undefined` and booleans (`{cond && <X/>}`) vanish, numbers
 * become text. A function component of the bot's own is called with its props and children,
 * and what it returns is resolved in its place.
 */

/** A fragment's children, resolved and flattened into the parent. */
export function Fragment(props: { children?: unknown }): unknown[] {
  return resolveChildren(props.children);
}

/** `children` as a flat list of resolved elements and strings. */
export function resolveChildren(children: unknown): unknown[] {
  if (children == null || typeof children === "boolean") return [];
  if (Array.isArray(children)) return children.flatMap(resolveChildren);
  if (isJSXElement(children)) return resolveElement(children);
  if (typeof children === "string" || typeof children === "number") return [String(children)];
  if (typeof children === "object") return [children];
  throw new ValidationError(
    `a JSX child must be an element or text, got ${describeReceived(children)}`,
  );
}

/** One lazy element as the plain element(s) it stands for. */
function resolveElement(element: CardJSXElement): unknown[] {
  const { type, props, children } = element;
  if (type === (Fragment as unknown)) return resolveChildren(children);
  if (isComponent(type)) {
    const built = buildElement(type, props as Record<string, unknown>, resolveChildren(children));
    return built === undefined ? [] : [built];
  }
  if (typeof type === "function") {
    const given =
      children.length === 0 ? undefined : children.length === 1 ? children[0] : children;
    const rendered = (type as (props: unknown) => unknown)({ ...props, children: given });
    return resolveChildren(rendered);
  }
  throw new ValidationError(
    `JSX element type ${describeReceived(type)} is not a component; use Card, Text, Modal and the other components`,
  );
}

/** The single element `value` resolves to, or `undefined` for none or several. */
function resolveRoot(value: unknown): unknown {
  if (!isJSXElement(value)) return value;
  const resolved = resolveElement(value);
  return resolved.length === 1 ? resolved[0] : undefined;
}

/**
 * The card a JSX tree (or an already built card) stands for, validated; `null` when the root is
 * not a card. A card passed in is returned as is.
 */
export function toCardElement(value: unknown): CardElement | null {
  const root = resolveRoot(value);
  return isCardElement(root) ? root : null;
}

/** The modal a JSX tree (or an already built modal) stands for; `null` when the root is not one. */
export function toModalElement(value: unknown): ModalElement | null {
  const root = resolveRoot(value);
  return isModalElement(root) ? root : null;
}
