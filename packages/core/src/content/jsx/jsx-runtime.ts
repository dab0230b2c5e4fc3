/**
 * `@baton/core/jsx-runtime`: the automatic JSX runtime, so TSX compiled with
 * `"jsx": "react-jsx", "jsxImportSource": "@baton/core"` builds cards and modals without React.
 */
import type { CardComponentFunction, CardJSXElement } from "./jsx-types.js";

export { isJSX, jsx, jsxDEV, jsxs } from "./jsx-element.js";
export { Fragment, toCardElement, toModalElement } from "./jsx-resolve.js";
export type { CardJSXElement, CardJSXProps, ChatElement } from "./jsx-types.js";

// TypeScript looks the JSX types up in a namespace of this name exported by the runtime module.
export namespace JSX {
  /**
   * What a JSX expression evaluates to: the lazy element (upstream says `ChatElement`, the union
   * of every element, which `thread.post` could not tell from a card). It is a `ChatElement` too.
   */
  export type Element = CardJSXElement;
  /**
   * What may stand in a tag: Baton's components and the bot's own function components. Declared
   * so the components' function-call return types (`CardElement`, …) need not be JSX elements.
   */
  export type ElementType = CardComponentFunction | ((props: never) => unknown);
  /** No intrinsic (lower-case) elements: cards have no `<div>`. */
  export type IntrinsicElements = {};
  export interface IntrinsicAttributes {
    key?: string | number;
  }
  export interface ElementChildrenAttribute {
    children: {};
  }
}
