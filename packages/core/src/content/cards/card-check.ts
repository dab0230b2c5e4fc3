import { ValidationError } from "../../errors/index.js";
import { RadioSelect, Select } from "../modals/select.js";
import {
  Actions,
  Card,
  CardLink,
  Divider,
  Field,
  Fields,
  Image,
  Section,
  Text,
} from "./card-builders.js";
import { Button, LinkButton } from "./card-buttons.js";
import { Chart, Table } from "./card-table.js";
import {
  type ActionsChild,
  type CardChild,
  type CardElement,
  type FieldsElement,
  isCardElement,
  type TextElement,
} from "./card-types.js";
import { describeReceived, requireList, typeTag } from "./element-checks.js";

/**
 * Deep checks for cards that arrive as plain data — written as object literals, read back from
 * JSON, built by another library — rather than through the builders. Each element is rebuilt
 * through its builder, so it meets exactly the rules a built card does. An element with an
 * unknown tag is passed to its container unchanged, which then refuses it with its index.
 */

type Props = Record<string, unknown>;

/** A text element rebuilt (shared with modals, which may hold text). */
export function rebuildText(element: Props): TextElement {
  return Text(element.content as string, { style: element.style } as never);
}

/** A fields element rebuilt, each field through `Field` (shared with modals). */
export function rebuildFields(element: Props): FieldsElement {
  const children = requireList("Fields", "children", element.children);
  return Fields(
    children.map((child) => (typeTag(child) === "field" ? Field(child as never) : child)) as never,
  );
}

function rebuildControl(control: unknown): ActionsChild {
  const element = control as Props;
  switch (typeTag(control)) {
    case "button":
      return Button(element as never);
    case "link-button":
      return LinkButton(element as never);
    case "select":
      return Select(element as never);
    case "radio_select":
      return RadioSelect(element as never);
    default:
      return control as ActionsChild;
  }
}

function rebuildChild(child: unknown): CardChild {
  const element = child as Props;
  switch (typeTag(child)) {
    case "text":
      return rebuildText(element);
    case "image":
      return Image(element as never);
    case "divider":
      return Divider();
    case "link":
      return CardLink(element as never);
    case "fields":
      return rebuildFields(element);
    case "section":
      return Section(requireList("Section", "children", element.children).map(rebuildChild));
    case "actions":
      return Actions(requireList("Actions", "children", element.children).map(rebuildControl));
    case "table":
      return Table(element as never);
    case "chart":
      return Chart(element as never);
    default:
      return child as CardChild;
  }
}

/**
 * `value` as a valid card: every element rebuilt through its builder, so a literal card is held
 * to the same rules as a built one. Returns a new card (equal to `value` when it was valid and
 * had no `undefined` fields); throws a ValidationError naming the element and field otherwise.
 */
export function validateCardElement(value: unknown): CardElement {
  if (!isCardElement(value)) {
    throw new ValidationError(
      `a card must be an object with type "card", got ${describeReceived(value)}`,
    );
  }
  const { children, ...rest } = value as unknown as Props;
  return Card({
    ...rest,
    children: requireList("Card", "children", children ?? []).map(rebuildChild),
  } as never);
}
