// Builders are exported typed for JSX from ../jsx/components.ts; this barrel has the rest.
export type {
  DateInputOptions,
  ExternalSelectOptions,
  ModalOptions,
  NumberInputOptions,
  TextInputOptions,
} from "./modal-builders.js";
export { validateModalElement } from "./modal-check.js";
export { filterModalChildren } from "./modal-children.js";
export {
  type ModalClearResponse,
  type ModalCloseResponse,
  type ModalErrorsResponse,
  type ModalPushResponse,
  type ModalResponse,
  type ModalSubmitValues,
  type ModalUpdateResponse,
  modalInputIds,
  validateModalResponse,
} from "./modal-response.js";
export {
  type DateInputElement,
  type ExternalSelectElement,
  isModalElement,
  MODAL_INPUT_TYPES,
  type ModalChild,
  type ModalElement,
  type ModalInput,
  type NumberInputElement,
  type RadioSelectElement,
  type SelectElement,
  type SelectOptionElement,
  type TextInputElement,
  VALID_MODAL_CHILD_TYPES,
} from "./modal-types.js";
export type { RadioSelectOptions, SelectOptionOptions, SelectOptions } from "./select.js";
