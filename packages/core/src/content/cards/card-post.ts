import { ValidationError } from "../../errors/index.js";
import { isJSXElement } from "../jsx/jsx-element.js";
import { toCardElement } from "../jsx/jsx-resolve.js";
import type { CardJSXElement } from "../jsx/jsx-types.js";
import { Card as CardBuilder } from "./card-builders.js";
import { validateCardElement } from "./card-check.js";
import { cardToFallbackText, type FallbackTextOptions } from "./card-fallback-text.js";
import { type CardElement, isCardElement } from "./card-types.js";
import { describeReceived } from "./element-checks.js";

/**
 * A card with the text to show where it cannot be drawn: upstream's `PostableCard` shape (the
 * thread surface's `PostableCard` in contracts/ is this with a built card and `files`), here also
 * taking a `<Card>` JSX tree.
 */
export interface CardWithFallback {
  card: CardElement | CardJSXElement;
  /** Text for platforms without cards and for notifications; computed from the card when absent. */
  fallbackText?: string;
}

/** Everything `thread.post` accepts as a card: a card, a `<Card>` JSX tree, or one with its text. */
export type CardPost = CardElement | CardJSXElement | CardWithFallback;

/** A card post made concrete: the validated card and its text. */
export interface ResolvedCardPost {
  card: CardElement;
  fallbackText: string;
}

/**
 * A card, or JSX whose root is one. A `<Card>` element is recognized by its component without
 * resolving it, so its content is validated (and the bot's components run) once, when the post
 * is resolved; any other JSX root (the bot's own component, a fragment) is resolved to see.
 */
function isCardRoot(value: unknown): boolean {
  if (isCardElement(value)) return true;
  if (!isJSXElement(value)) return false;
  return value.type === (CardBuilder as unknown) || toCardElement(value) !== null;
}

/**
 * True when `value` is a card post: a CardElement, a JSX element whose root is a `<Card>`, or an
 * object with such a `card` (and, if present, a string `fallbackText`). A `<Card>` tree is not
 * validated here but by {@link resolveCardPost}; a JSX root of the bot's own component is resolved
 * (and so validated) to learn whether it renders a card.
 */
export function isCardPost(value: unknown): value is CardPost {
  if (typeof value !== "object" || value === null) return false;
  if (isCardRoot(value)) return true;
  const { card, fallbackText } = value as { card?: unknown; fallbackText?: unknown };
  return (
    card !== undefined &&
    isCardRoot(card) &&
    (fallbackText === undefined || typeof fallbackText === "string")
  );
}

/**
 * The validated card `value` stands for: JSX resolved through the builders, plain card data
 * rebuilt through them ({@link validateCardElement}); `null` when it is neither.
 */
function checkedCard(value: unknown): CardElement | null {
  if (isJSXElement(value)) return toCardElement(value);
  return isCardElement(value) ? validateCardElement(value) : null;
}

/**
 * The card and text of a card post: JSX resolved, plain data checked element by element, the fallback text taken from `fallbackText`
 * or computed with {@link cardToFallbackText} (`options` chooses how controls are written).
 * Throws a ValidationError when `value` is not a card post.
 */
export function resolveCardPost(
  value: CardPost,
  options: FallbackTextOptions = {},
): ResolvedCardPost {
  const direct = checkedCard(value);
  if (direct !== null) return { card: direct, fallbackText: cardToFallbackText(direct, options) };
  const { card, fallbackText } = (value ?? {}) as { card?: unknown; fallbackText?: unknown };
  const resolved = checkedCard(card);
  if (resolved === null) {
    throw new ValidationError(
      `a card post must be a CardElement, a <Card> JSX element or { card, fallbackText? }, got ${describeReceived(value)}`,
    );
  }
  if (fallbackText !== undefined && typeof fallbackText !== "string") {
    throw new ValidationError(
      `PostableCard 'fallbackText' must be a string, got ${describeReceived(fallbackText)}`,
    );
  }
  return { card: resolved, fallbackText: fallbackText ?? cardToFallbackText(resolved, options) };
}
