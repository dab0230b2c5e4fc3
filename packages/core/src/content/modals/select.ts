import { ValidationError } from "../../errors/index.js";
import {
  compact,
  describeReceived,
  optionalBoolean,
  optionalString,
  requireList,
  requireOptions,
  requireText,
} from "../cards/element-checks.js";
import type { RadioSelectElement, SelectElement, SelectOptionElement } from "./modal-types.js";

/** What `SelectOption` takes. */
export interface SelectOptionOptions {
  label: string;
  value: string;
  description?: string;
}

/** What `Select` takes. */
export interface SelectOptions {
  id: string;
  label: string;
  options: SelectOptionElement[];
  placeholder?: string;
  initialOption?: string;
  optional?: boolean;
  dispatchAction?: boolean;
}

/** What `RadioSelect` takes. */
export interface RadioSelectOptions {
  id: string;
  label: string;
  options: SelectOptionElement[];
  initialOption?: string;
  optional?: boolean;
  dispatchAction?: boolean;
}

/** One choice of a select: `label` and a non-empty `value`. */
export function SelectOption(options: SelectOptionOptions): SelectOptionElement {
  const given = requireOptions("SelectOption", options);
  return compact<SelectOptionElement>({
    label: requireText("SelectOption", "label", given.label),
    value: requireText("SelectOption", "value", given.value),
    description: optionalString("SelectOption", "description", given.description),
  });
}

/**
 * The option list of `element`: at least one, each a valid option, values unique, and
 * `initialOption` (when given) one of the values.
 */
function checkOptionList(
  element: string,
  list: unknown,
  initialOption: unknown,
): { options: SelectOptionElement[]; initialOption: string | undefined } {
  if (list === undefined || (Array.isArray(list) && list.length === 0)) {
    throw new ValidationError(`${element} requires at least one option ('options' is empty)`);
  }
  const options = requireList(element, "options", list).map((option, index) => {
    if (typeof option !== "object" || option === null) {
      throw new ValidationError(
        `${element} 'options[${index}]' must be a SelectOption, got ${describeReceived(option)}`,
      );
    }
    return SelectOption(option as SelectOptionOptions);
  });
  const seen = new Set<string>();
  options.forEach((option, index) => {
    if (seen.has(option.value)) {
      throw new ValidationError(
        `${element} 'options[${index}].value' ${JSON.stringify(option.value)} is used by an earlier option`,
      );
    }
    seen.add(option.value);
  });
  const initial = optionalString(element, "initialOption", initialOption);
  if (initial !== undefined && !seen.has(initial)) {
    throw new ValidationError(
      `${element} 'initialOption' ${JSON.stringify(initial)} is not the value of any of its options`,
    );
  }
  return { options, initialOption: initial };
}

/** A dropdown with at least one option; usable in a card's Actions row and in a modal. */
export function Select(options: SelectOptions): SelectElement {
  const given = requireOptions("Select", options);
  const list = checkOptionList("Select", given.options, given.initialOption);
  return compact<SelectElement>({
    type: "select",
    id: requireText("Select", "id", given.id),
    label: requireText("Select", "label", given.label),
    placeholder: optionalString("Select", "placeholder", given.placeholder),
    options: list.options,
    initialOption: list.initialOption,
    optional: optionalBoolean("Select", "optional", given.optional),
    dispatchAction: optionalBoolean("Select", "dispatchAction", given.dispatchAction),
  });
}

/** Radio buttons with at least one option; usable in a card's Actions row and in a modal. */
export function RadioSelect(options: RadioSelectOptions): RadioSelectElement {
  const given = requireOptions("RadioSelect", options);
  const list = checkOptionList("RadioSelect", given.options, given.initialOption);
  return compact<RadioSelectElement>({
    type: "radio_select",
    id: requireText("RadioSelect", "id", given.id),
    label: requireText("RadioSelect", "label", given.label),
    options: list.options,
    initialOption: list.initialOption,
    optional: optionalBoolean("RadioSelect", "optional", given.optional),
    dispatchAction: optionalBoolean("RadioSelect", "dispatchAction", given.dispatchAction),
  });
}
