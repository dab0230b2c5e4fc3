import type { FieldsElement, TextElement } from "../cards/card-types.js";

/**
 * The modal model: a form dialog as plain, JSON-serializable data with upstream `chat`'s `type`
 * tags and field names. `Select` and `RadioSelect` are shared with cards (in an Actions row).
 */

/** One choice of a select or radio select. */
export interface SelectOptionElement {
  label: string;
  /** Sent on submit or action; unique among its select's options. */
  value: string;
  description?: string;
}

/** A single-line or multi-line text field. */
export interface TextInputElement {
  type: "text_input";
  /** Key of its value in the submit's values; unique in the modal. */
  id: string;
  label: string;
  placeholder?: string;
  initialValue?: string;
  multiline?: boolean;
  /** The user may leave it empty. */
  optional?: boolean;
  /** Longest accepted value, in characters (a positive integer). */
  maxLength?: number;
}

/** A date picker; dates are calendar days written `YYYY-MM-DD`. */
export interface DateInputElement {
  type: "date_input";
  id: string;
  label: string;
  placeholder?: string;
  /** Pre-filled date, `YYYY-MM-DD`. */
  initialValue?: string;
  optional?: boolean;
}

/** A number field. */
export interface NumberInputElement {
  type: "number_input";
  id: string;
  label: string;
  placeholder?: string;
  initialValue?: number;
  optional?: boolean;
  min?: number;
  max?: number;
  /** Decimals accepted; integers only when not set. */
  decimal?: boolean;
}

/** A dropdown with fixed options. */
export interface SelectElement {
  type: "select";
  id: string;
  label: string;
  /** At least one; values unique. */
  options: SelectOptionElement[];
  placeholder?: string;
  /** The `value` of one of `options`. */
  initialOption?: string;
  optional?: boolean;
  /** Inside a modal: report each change as an action (Slack's `dispatch_action`). */
  dispatchAction?: boolean;
}

/** Radio buttons with fixed options. */
export interface RadioSelectElement {
  type: "radio_select";
  id: string;
  label: string;
  options: SelectOptionElement[];
  initialOption?: string;
  optional?: boolean;
  dispatchAction?: boolean;
}

/** A dropdown whose options the bot loads while the user types (`onOptionsLoad`). */
export interface ExternalSelectElement {
  type: "external_select";
  id: string;
  label: string;
  placeholder?: string;
  initialOption?: SelectOptionElement;
  /** Characters typed before options are requested (a non-negative integer). */
  minQueryLength?: number;
  optional?: boolean;
}

/** What a modal may hold. */
export type ModalChild =
  | TextInputElement
  | DateInputElement
  | NumberInputElement
  | SelectElement
  | ExternalSelectElement
  | RadioSelectElement
  | TextElement
  | FieldsElement;

/** The inputs of a modal: the children whose values a submit carries. */
export type ModalInput = Exclude<ModalChild, TextElement | FieldsElement>;

/** A form dialog. */
export interface ModalElement {
  type: "modal";
  /** Routes the submit to `onModalSubmit(callbackId, …)`. */
  callbackId: string;
  title: string;
  children: ModalChild[];
  /** URL that receives the submitted values instead of the bot's webhook. */
  callbackUrl?: string;
  submitLabel?: string;
  closeLabel?: string;
  /** Report a close to `onModalClose`. */
  notifyOnClose?: boolean;
  /** Opaque string carried through the modal's life (JSON context, say). */
  privateMetadata?: string;
}

/** Every `type` tag a modal child may carry, in upstream's order. */
export const VALID_MODAL_CHILD_TYPES = [
  "text_input",
  "date_input",
  "number_input",
  "select",
  "external_select",
  "radio_select",
  "text",
  "fields",
] as const satisfies readonly ModalChild["type"][];

/** The tags of the children that are inputs (each has an `id`). */
export const MODAL_INPUT_TYPES: readonly ModalInput["type"][] = [
  "text_input",
  "date_input",
  "number_input",
  "select",
  "external_select",
  "radio_select",
];

/** True for a modal root (`type: "modal"`). */
export function isModalElement(value: unknown): value is ModalElement {
  return (
    typeof value === "object" && value !== null && (value as { type?: unknown }).type === "modal"
  );
}
