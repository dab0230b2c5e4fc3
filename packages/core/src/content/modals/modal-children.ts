import { type ModalChild, VALID_MODAL_CHILD_TYPES } from "./modal-types.js";

const WARNING = "[baton] Modal contains unsupported child elements that were ignored";

/**
 * Keeps the items that are modal children (inputs, text, fields) and drops the rest, reporting
 * a drop through `warn` (default `console.warn`) so it is never silent. For lenient callers that
 * convert foreign trees; `Modal` itself refuses a bad child with a ValidationError.
 */
export function filterModalChildren(
  children: readonly unknown[],
  warn: (message: string) => void = (message) => console.warn(message),
): ModalChild[] {
  const kept = children.filter(
    (child): child is ModalChild =>
      typeof child === "object" &&
      child !== null &&
      (VALID_MODAL_CHILD_TYPES as readonly unknown[]).includes((child as { type?: unknown }).type),
  );
  if (kept.length < children.length) warn(WARNING);
  return kept;
}
