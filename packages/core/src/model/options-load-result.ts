import type { SelectOptionElement } from "../content/modals/modal-types.js";

/** A labelled group of options, for selects that show groups (Slack's option groups). */
export interface SelectOptionGroup {
  label: string;
  options: SelectOptionElement[];
}

/** What an `onOptionsLoad` handler answers for a dynamic select: options, or groups of options. */
export type OptionsLoadResult = SelectOptionElement[] | SelectOptionGroup[];
