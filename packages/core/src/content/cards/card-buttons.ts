import type { ButtonElement, ButtonStyle, LinkButtonElement } from "./card-types.js";
import {
  compact,
  optionalBoolean,
  optionalChoice,
  optionalString,
  optionalStringList,
  optionalUrl,
  requireOptions,
  requireText,
  requireUrl,
} from "./element-checks.js";

const BUTTON_STYLES: readonly ButtonStyle[] = ["primary", "danger", "default"];
const ACTION_TYPES: readonly ("action" | "modal")[] = ["action", "modal"];

/** What `Button` takes. */
export interface ButtonOptions {
  id: string;
  label: string;
  style?: ButtonStyle;
  value?: string;
  disabled?: boolean;
  actionType?: "action" | "modal";
  callbackUrl?: string;
  tooltip?: string;
  visibleTo?: string[];
}

/** What `LinkButton` takes. */
export interface LinkButtonOptions {
  url: string;
  label: string;
  id?: string;
  style?: ButtonStyle;
  tooltip?: string;
  visibleTo?: string[];
}

/** A button that sends the action `id` (with `value`) to `onAction` handlers. */
export function Button(options: ButtonOptions): ButtonElement {
  const given = requireOptions("Button", options);
  return compact<ButtonElement>({
    type: "button",
    id: requireText("Button", "id", given.id),
    label: requireText("Button", "label", given.label),
    style: optionalChoice("Button", "style", given.style, BUTTON_STYLES),
    value: optionalString("Button", "value", given.value),
    disabled: optionalBoolean("Button", "disabled", given.disabled),
    actionType: optionalChoice("Button", "actionType", given.actionType, ACTION_TYPES),
    callbackUrl: optionalUrl("Button", "callbackUrl", given.callbackUrl),
    tooltip: optionalString("Button", "tooltip", given.tooltip),
    visibleTo: optionalStringList("Button", "visibleTo", given.visibleTo),
  });
}

/** A button that opens an absolute URL. */
export function LinkButton(options: LinkButtonOptions): LinkButtonElement {
  const given = requireOptions("LinkButton", options);
  const id = given.id === undefined ? undefined : requireText("LinkButton", "id", given.id);
  return compact<LinkButtonElement>({
    type: "link-button",
    id,
    url: requireUrl("LinkButton", "url", given.url),
    label: requireText("LinkButton", "label", given.label),
    style: optionalChoice("LinkButton", "style", given.style, BUTTON_STYLES),
    tooltip: optionalString("LinkButton", "tooltip", given.tooltip),
    visibleTo: optionalStringList("LinkButton", "visibleTo", given.visibleTo),
  });
}
