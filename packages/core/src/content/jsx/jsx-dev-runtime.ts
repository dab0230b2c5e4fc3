/** `@baton/core/jsx-dev-runtime`: the development JSX runtime; the same factories as production. */

export type { JSX } from "./jsx-runtime.js";
export { Fragment, jsx, jsxDEV, jsxs } from "./jsx-runtime.js";
