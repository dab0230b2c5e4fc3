/**
 * `@baton/core/jsx-runtime`: the automatic JSX runtime, so TSX compiled with
 * `"jsx": "react-jsx", "jsxImportSource": "@baton/core"` builds cards and modals without React.
 */
import type { ChatElement } from "./jsx-types.js";

export { isJSX, jsx, jsxDEV, jsxs } from "./jsx-element.js";
export { Fragment, toCardElement, toModalElement } from "./jsx-resolve.js";
export type { CardJSXElement, CardJSXProps, ChatElement } from "./jsx-types.js";

// TypeScript looks the JSX types up in a namespace of this name exported by the runtime module.
export namespace JSX {
  /** What a JSX expression evaluates to. */
  export type Element = ChatElement;
  /** No intrinsic (lower-case) elements: cards have no `<div>`. */
  export type IntrinsicElements = {};
  export interface IntrinsicAttributes {
    key?: string | number;
  }
  export interface ElementChildrenAttribute {
    children: {};
  }
}
