import { ValidationError } from "../../errors/index.js";
import { rebuildFields, rebuildText } from "../cards/card-check.js";
import { describeReceived, requireList, typeTag } from "../cards/element-checks.js";
import { DateInput, ExternalSelect, Modal, NumberInput, TextInput } from "./modal-builders.js";
import { isModalElement, type ModalChild, type ModalElement } from "./modal-types.js";
import { RadioSelect, Select } from "./select.js";

function rebuildModalChild(child: unknown): ModalChild {
  const element = child as Record<string, unknown>;
  switch (typeTag(child)) {
    case "text_input":
      return TextInput(element as never);
    case "date_input":
      return DateInput(element as never);
    case "number_input":
      return NumberInput(element as never);
    case "select":
      return Select(element as never);
    case "external_select":
      return ExternalSelect(element as never);
    case "radio_select":
      return RadioSelect(element as never);
    case "text":
      return rebuildText(element);
    case "fields":
      return rebuildFields(element);
    default:
      return child as ModalChild;
  }
}

/**
 * `value` as a valid modal: every child rebuilt through its builder, so a modal written as an
 * object literal (as upstream's `openModal` examples do) meets the rules of a built one — input
 * ids unique, each input's fields consistent. Returns a new modal; throws a ValidationError
 * naming the element and field otherwise. (`toModalElement` returns a plain modal as is.)
 */
export function validateModalElement(value: unknown): ModalElement {
  if (!isModalElement(value)) {
    throw new ValidationError(
      `a modal must be an object with type "modal", got ${describeReceived(value)}`,
    );
  }
  const { children, ...rest } = value as unknown as Record<string, unknown>;
  return Modal({
    ...rest,
    children: requireList("Modal", "children", children ?? []).map(rebuildModalChild),
  } as never);
}
