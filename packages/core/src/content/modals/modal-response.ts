import { ValidationError } from "../../errors/index.js";
import { describeReceived } from "../cards/element-checks.js";
import { isModalElement, MODAL_INPUT_TYPES, type ModalElement } from "./modal-types.js";

/**
 * A modal submit's values: one string per input, keyed by the input's `id` (a number input's
 * value as typed, a date as `YYYY-MM-DD`, a select's chosen option `value`). An optional input
 * the user left empty may be absent.
 */
export type ModalSubmitValues = Record<string, string>;

/** Close the modal (the default when a submit handler returns nothing). */
export interface ModalCloseResponse {
  action: "close";
}

/** Close the modal and every view stacked under it (Slack's `clear`; elsewhere the same as close). */
export interface ModalClearResponse {
  action: "clear";
}

/** Keep the modal open and show each message under the input whose id is its key. */
export interface ModalErrorsResponse {
  action: "errors";
  errors: Record<string, string>;
}

/** Replace the open modal with `modal`. */
export interface ModalUpdateResponse {
  action: "update";
  modal: ModalElement;
}

/** Open `modal` on top of the current one (where the platform stacks modals). */
export interface ModalPushResponse {
  action: "push";
  modal: ModalElement;
}

/** What a modal submit handler may return (or `undefined`: close). */
export type ModalResponse =
  | ModalCloseResponse
  | ModalClearResponse
  | ModalErrorsResponse
  | ModalUpdateResponse
  | ModalPushResponse;

/** The input ids of `modal`, the only keys an errors response may use. */
export function modalInputIds(modal: ModalElement): string[] {
  return modal.children
    .filter((child) => (MODAL_INPUT_TYPES as readonly string[]).includes(child.type))
    .map((child) => (child as { id: string }).id);
}

/**
 * Checks what a submit handler returned before the runtime answers the platform: `undefined`
 * (close), or a {@link ModalResponse} of the right shape. For `errors`, at least one entry, each
 * a non-empty message; when `modal` (the submitted one) is given, each key must be one of its
 * input ids — a typo would otherwise show no error and leave the user stuck. Throws a
 * ValidationError naming the bad field.
 */
export function validateModalResponse(
  response: unknown,
  modal?: ModalElement,
): ModalResponse | undefined {
  if (response === undefined) return undefined;
  if (typeof response !== "object" || response === null) {
    throw new ValidationError(
      `a modal submit handler must return a ModalResponse or nothing, got ${describeReceived(response)}`,
    );
  }
  const { action } = response as { action?: unknown };
  switch (action) {
    case "close":
    case "clear":
      return { action };
    case "errors":
      return {
        action: "errors",
        errors: checkErrors((response as { errors?: unknown }).errors, modal),
      };
    case "update":
    case "push": {
      const next = (response as { modal?: unknown }).modal;
      if (!isModalElement(next)) {
        throw new ValidationError(
          `ModalResponse 'modal' must be a ModalElement for action "${action}", got ${describeReceived(next)}`,
        );
      }
      return { action, modal: next };
    }
    default:
      throw new ValidationError(
        `ModalResponse 'action' must be one of "close", "clear", "errors", "update", "push", got ${describeReceived(action)}`,
      );
  }
}

function checkErrors(errors: unknown, modal: ModalElement | undefined): Record<string, string> {
  if (typeof errors !== "object" || errors === null || Array.isArray(errors)) {
    throw new ValidationError(
      `ModalResponse 'errors' must be an object of input id → message, got ${describeReceived(errors)}`,
    );
  }
  const entries = Object.entries(errors);
  if (entries.length === 0) {
    throw new ValidationError("ModalResponse 'errors' is empty; return nothing to close the modal");
  }
  const known = modal === undefined ? undefined : new Set(modalInputIds(modal));
  for (const [id, message] of entries) {
    if (typeof message !== "string" || message.length === 0) {
      throw new ValidationError(
        `ModalResponse 'errors.${id}' must be a non-empty message, got ${describeReceived(message)}`,
      );
    }
    if (known !== undefined && !known.has(id)) {
      throw new ValidationError(
        `ModalResponse 'errors.${id}' names no input of modal "${modal?.callbackId}" (inputs: ${[...known].join(", ") || "none"})`,
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
