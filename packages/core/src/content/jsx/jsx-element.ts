import {
  type CardComponentFunction,
  type CardJSXElement,
  type CardJSXProps,
  JSX_ELEMENT,
} from "./jsx-types.js";

/**
 * The JSX factories. They only record what was written; `toCardElement` / `toModalElement`
 * resolve the tree later, so a tree can be built in any order and validated once, as a whole.
 */

/** True for an element built by Baton's (or upstream `chat`'s) JSX factories. */
export function isJSXElement(value: unknown): value is CardJSXElement {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { $$typeof?: unknown }).$$typeof === JSX_ELEMENT
  );
}

/** True for a React element (`react.element` or React 19's `react.transitional.element`). */
export function isReactElement(
  value: unknown,
): value is { $$typeof: symbol; type: unknown; props: Record<string, unknown> } {
  if (typeof value !== "object" || value === null) return false;
  const marker = (value as { $$typeof?: unknown }).$$typeof;
  if (typeof marker !== "symbol") return false;
  const name = marker.toString();
  return name.includes("react.element") || name.includes("react.transitional.element");
}

/** True for a JSX element from Baton's runtime or from React. */
export function isJSX(value: unknown): boolean {
  return isJSXElement(value) || isReactElement(value);
}

/** JSX factory for an element with at most one child. */
export function jsx<P extends CardJSXProps>(
  type: CardComponentFunction | ((props: never) => unknown),
  props: P & { children?: unknown },
  _key?: string | number,
): CardJSXElement<P> {
  const { children, ...rest } = props;
  return {
    $$typeof: JSX_ELEMENT,
    type: type as CardComponentFunction,
    props: rest as P,
    children: children == null ? [] : [children],
  };
}

/** JSX factory for an element with several children (`children` is then an array). */
export function jsxs<P extends CardJSXProps>(
  type: CardComponentFunction | ((props: never) => unknown),
  props: P & { children?: unknown },
  _key?: string | number,
): CardJSXElement<P> {
  const { children, ...rest } = props;
  let list: unknown[] = [];
  if (Array.isArray(children)) list = children;
  else if (children != null) list = [children];
  return {
    $$typeof: JSX_ELEMENT,
    type: type as CardComponentFunction,
    props: rest as P,
    children: list,
  };
}

/**
 * The development-mode factory (`jsx-dev-runtime`): {@link jsxs} when the compiler marks the
 * children as a static list, {@link jsx} otherwise. The source-location arguments are ignored.
 */
export function jsxDEV<P extends CardJSXProps>(
  type: CardComponentFunction | ((props: never) => unknown),
  props: P & { children?: unknown },
  key?: string | number,
  isStaticChildren?: boolean,
): CardJSXElement<P> {
  return isStaticChildren ? jsxs(type, props, key) : jsx(type, props, key);
}
