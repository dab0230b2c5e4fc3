import { ValidationError } from "../../errors/index.js";
import {
  ACTIONS_CHILD_TYPES,
  type ActionsChild,
  type ActionsElement,
  CARD_CHILD_TYPES,
  type CardChild,
  type CardElement,
  type CardWidth,
  type DividerElement,
  type FieldElement,
  type FieldsElement,
  type ImageElement,
  type LinkElement,
  type SectionElement,
  type TextElement,
  type TextStyle,
} from "./card-types.js";
import { checkUniqueControlIds } from "./control-ids.js";
import {
  compact,
  describeReceived,
  optionalChoice,
  optionalString,
  optionalUrl,
  requireChildren,
  requireOptions,
  requireText,
  requireUrl,
} from "./element-checks.js";

const TEXT_STYLES: readonly TextStyle[] = ["plain", "bold", "muted"];
const CARD_WIDTHS: readonly CardWidth[] = ["default", "full"];

/** What `Card` takes. */
export interface CardOptions {
  children?: CardChild[];
  title?: string;
  subtitle?: string;
  imageUrl?: string;
  width?: CardWidth;
}

/**
 * A card. Its children are checked by type tag, and the ids of every button and select in the
 * tree must be unique, since a platform routes a click by that id alone.
 */
export function Card(options: CardOptions = {}): CardElement {
  const given = requireOptions("Card", options);
  const card = compact<CardElement>({
    type: "card",
    title: optionalString("Card", "title", given.title),
    subtitle: optionalString("Card", "subtitle", given.subtitle),
    imageUrl: optionalUrl("Card", "imageUrl", given.imageUrl),
    width: optionalChoice("Card", "width", given.width, CARD_WIDTHS),
    children: requireChildren<CardChild>(
      "Card",
      "children",
      given.children ?? [],
      CARD_CHILD_TYPES,
    ),
  });
  checkUniqueControlIds("Card", card.children);
  return card;
}

/** A block of text; `style` is plain, bold or muted. */
export function Text(content: string, options: { style?: TextStyle } = {}): TextElement {
  if (typeof content !== "string") {
    throw new ValidationError(`Text 'content' must be a string, got ${describeReceived(content)}`);
  }
  const given = requireOptions("Text", options);
  return compact<TextElement>({
    type: "text",
    content,
    style: optionalChoice("Text", "style", given.style, TEXT_STYLES),
  });
}

/** `Text` under a name that does not clash with the DOM's global `Text`. */
export const CardText = Text;

/** An image at an absolute URL. */
export function Image(options: { url: string; alt?: string }): ImageElement {
  const given = requireOptions("Image", options);
  return compact<ImageElement>({
    type: "image",
    url: requireUrl("Image", "url", given.url),
    alt: optionalString("Image", "alt", given.alt),
  });
}

/** A horizontal separator. */
export function Divider(): DividerElement {
  return { type: "divider" };
}

/** A group of card children. */
export function Section(children: CardChild[]): SectionElement {
  return {
    type: "section",
    children: requireChildren<CardChild>("Section", "children", children, CARD_CHILD_TYPES),
  };
}

/** A row of buttons, link buttons, selects and radio selects (may be empty). */
export function Actions(children: ActionsChild[]): ActionsElement {
  const checked = requireChildren<ActionsChild>(
    "Actions",
    "children",
    children,
    ACTIONS_CHILD_TYPES,
  );
  checkUniqueControlIds("Actions", checked);
  return { type: "actions", children: checked };
}

/** An inline link to an absolute URL. */
export function CardLink(options: { url: string; label: string }): LinkElement {
  const given = requireOptions("CardLink", options);
  return {
    type: "link",
    url: requireUrl("CardLink", "url", given.url),
    label: requireText("CardLink", "label", given.label),
  };
}

/** A label and its value; both are strings, the label not empty. */
export function Field(options: { label: string; value: string }): FieldElement {
  const given = requireOptions("Field", options);
  if (
    typeof given.label !== "string" ||
    given.label.length === 0 ||
    typeof given.value !== "string"
  ) {
    const bad = typeof given.label !== "string" || given.label.length === 0 ? "label" : "value";
    throw new ValidationError(
      `Field requires 'label' and 'value' props (strings, label not empty): '${bad}' is ${describeReceived(given[bad])}`,
    );
  }
  return { type: "field", label: given.label, value: given.value };
}

/** Label/value pairs laid out in columns. */
export function Fields(children: FieldElement[]): FieldsElement {
  return {
    type: "fields",
    children: requireChildren<FieldElement>("Fields", "children", children, ["field"]),
  };
}
