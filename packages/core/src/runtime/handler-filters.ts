import { ValidationError } from "../errors/index.js";

/**
 * Reads the arguments of a filtered hook (`onReaction`, `onAction`, `onSlashCommand`): either
 * `(handler)` or `(filter, handler)`, where a single string filter becomes a one-item list.
 * Throws a `ValidationError` when no handler function is given.
 */
export function filtered<F, H>(args: unknown[]): { filter: F | undefined; handler: H } {
  const [first, second] = args;
  if (typeof first === "function") return { filter: undefined, handler: first as H };
  if (typeof second !== "function") {
    throw new ValidationError("a handler function is required", { step: "register handler" });
  }
  const filter = typeof first === "string" ? [first] : first;
  return { filter: filter as F, handler: second as H };
}
