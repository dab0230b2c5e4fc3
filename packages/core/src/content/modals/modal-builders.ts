import { ValidationError } from "../../errors/index.js";
import {
  compact,
  optionalBoolean,
  optionalNumber,
  optionalString,
  optionalUrl,
  requireChildren,
  requireOptions,
  requireText,
} from "../cards/element-checks.js";
import {
  type DateInputElement,
  type ExternalSelectElement,
  MODAL_INPUT_TYPES,
  type ModalChild,
  type ModalElement,
  type NumberInputElement,
  type SelectOptionElement,
  type TextInputElement,
  VALID_MODAL_CHILD_TYPES,
} from "./modal-types.js";
import { SelectOption } from "./select.js";

/** What `Modal` takes. */
export interface ModalOptions {
  callbackId: string;
  title: string;
  children?: ModalChild[];
  callbackUrl?: string;
  submitLabel?: string;
  closeLabel?: string;
  notifyOnClose?: boolean;
  privateMetadata?: string;
}

/** What `TextInput` takes. */
export interface TextInputOptions {
  id: string;
  label: string;
  placeholder?: string;
  initialValue?: string;
  multiline?: boolean;
  optional?: boolean;
  maxLength?: number;
}

/** What `DateInput` takes. */
export interface DateInputOptions {
  id: string;
  label: string;
  placeholder?: string;
  /** `YYYY-MM-DD`, a real calendar day. */
  initialValue?: string;
  optional?: boolean;
}

/** What `NumberInput` takes. */
export interface NumberInputOptions {
  id: string;
  label: string;
  placeholder?: string;
  initialValue?: number;
  optional?: boolean;
  min?: number;
  max?: number;
  decimal?: boolean;
}

/** What `ExternalSelect` takes. */
export interface ExternalSelectOptions {
  id: string;
  label: string;
  placeholder?: string;
  initialOption?: SelectOptionElement;
  minQueryLength?: number;
  optional?: boolean;
}

/**
 * A form dialog. `callbackId` and `title` are required; children are inputs, text and fields,
 * and no two inputs share an id, since a submit's values are keyed by input id.
 */
export function Modal(options: ModalOptions): ModalElement {
  const given = requireOptions("Modal", options);
  const children = requireChildren<ModalChild>(
    "Modal",
    "children",
    given.children ?? [],
    VALID_MODAL_CHILD_TYPES,
  );
  const firstIndexById = new Map<string, number>();
  children.forEach((child, index) => {
    if (!(MODAL_INPUT_TYPES as readonly string[]).includes(child.type)) return;
    const { id } = child as { id: string };
    const earlier = firstIndexById.get(id);
    if (earlier !== undefined) {
      throw new ValidationError(
        `Modal 'children[${index}].id' ${JSON.stringify(id)} is already the id of children[${earlier}]; input ids must be unique`,
      );
    }
    firstIndexById.set(id, index);
  });
  return compact<ModalElement>({
    type: "modal",
    callbackId: requireText("Modal", "callbackId", given.callbackId),
    title: requireText("Modal", "title", given.title),
    callbackUrl: optionalUrl("Modal", "callbackUrl", given.callbackUrl),
    submitLabel: optionalString("Modal", "submitLabel", given.submitLabel),
    closeLabel: optionalString("Modal", "closeLabel", given.closeLabel),
    notifyOnClose: optionalBoolean("Modal", "notifyOnClose", given.notifyOnClose),
    privateMetadata: optionalString("Modal", "privateMetadata", given.privateMetadata),
    children,
  });
}

/** A text field; an `initialValue` longer than `maxLength` is refused. */
export function TextInput(options: TextInputOptions): TextInputElement {
  const given = requireOptions("TextInput", options);
  const maxLength = optionalNumber("TextInput", "maxLength", given.maxLength, {
    integer: true,
    minimum: 1,
  });
  const initialValue = optionalString("TextInput", "initialValue", given.initialValue);
  if (maxLength !== undefined && initialValue !== undefined && initialValue.length > maxLength) {
    throw new ValidationError(
      `TextInput 'initialValue' has ${initialValue.length} characters, more than its 'maxLength' ${maxLength}`,
    );
  }
  return compact<TextInputElement>({
    type: "text_input",
    id: requireText("TextInput", "id", given.id),
    label: requireText("TextInput", "label", given.label),
    placeholder: optionalString("TextInput", "placeholder", given.placeholder),
    initialValue,
    multiline: optionalBoolean("TextInput", "multiline", given.multiline),
    optional: optionalBoolean("TextInput", "optional", given.optional),
    maxLength,
  });
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for `YYYY-MM-DD` naming a day that exists (no 2025-02-30). */
function isCalendarDay(value: string): boolean {
  const match = ISO_DAY.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A date picker; `initialValue` must be a real day written `YYYY-MM-DD`. */
export function DateInput(options: DateInputOptions): DateInputElement {
  const given = requireOptions("DateInput", options);
  const initialValue = optionalString("DateInput", "initialValue", given.initialValue);
  if (initialValue !== undefined && !isCalendarDay(initialValue)) {
    throw new ValidationError(
      `DateInput 'initialValue' must be a calendar day written YYYY-MM-DD, got ${JSON.stringify(initialValue)}`,
    );
  }
  return compact<DateInputElement>({
    type: "date_input",
    id: requireText("DateInput", "id", given.id),
    label: requireText("DateInput", "label", given.label),
    placeholder: optionalString("DateInput", "placeholder", given.placeholder),
    initialValue,
    optional: optionalBoolean("DateInput", "optional", given.optional),
  });
}

/**
 * A number field. `min` ≤ `max`; `initialValue` (zero included) lies between them and is a whole
 * number unless `decimal` is set.
 */
export function NumberInput(options: NumberInputOptions): NumberInputElement {
  const given = requireOptions("NumberInput", options);
  const decimal = optionalBoolean("NumberInput", "decimal", given.decimal);
  const min = optionalNumber("NumberInput", "min", given.min);
  const max = optionalNumber("NumberInput", "max", given.max);
  if (min !== undefined && max !== undefined && min > max) {
    throw new ValidationError(`NumberInput 'min' ${min} is greater than its 'max' ${max}`);
  }
  const initialValue = optionalNumber("NumberInput", "initialValue", given.initialValue, {
    integer: decimal !== true,
  });
  if (initialValue !== undefined) {
    if ((min !== undefined && initialValue < min) || (max !== undefined && initialValue > max)) {
      throw new ValidationError(
        `NumberInput 'initialValue' ${initialValue} is outside its bounds [${min ?? "-∞"}, ${max ?? "∞"}]`,
      );
    }
  }
  return compact<NumberInputElement>({
    type: "number_input",
    id: requireText("NumberInput", "id", given.id),
    label: requireText("NumberInput", "label", given.label),
    placeholder: optionalString("NumberInput", "placeholder", given.placeholder),
    initialValue,
    optional: optionalBoolean("NumberInput", "optional", given.optional),
    min,
    max,
    decimal,
  });
}

/** A dropdown whose options are loaded while the user types (`onOptionsLoad`). */
export function ExternalSelect(options: ExternalSelectOptions): ExternalSelectElement {
  const given = requireOptions("ExternalSelect", options);
  const initialOption =
    given.initialOption === undefined
      ? undefined
      : SelectOption(
          requireOptions("ExternalSelect 'initialOption'", given.initialOption) as never,
        );
  return compact<ExternalSelectElement>({
    type: "external_select",
    id: requireText("ExternalSelect", "id", given.id),
    label: requireText("ExternalSelect", "label", given.label),
    placeholder: optionalString("ExternalSelect", "placeholder", given.placeholder),
    initialOption,
    minQueryLength: optionalNumber("ExternalSelect", "minQueryLength", given.minQueryLength, {
      integer: true,
      minimum: 0,
    }),
    optional: optionalBoolean("ExternalSelect", "optional", given.optional),
  });
}
