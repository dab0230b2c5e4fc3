import type { ModalChild, ModalElement, ModalResponse } from "@baton/core";
import {
  cardToBlockKit,
  type SlackBlock,
  slackOption,
  slackRadioOption,
  truncateSlackText,
} from "./cards.js";

/** A Slack modal view (`views.open`'s `view`). */
export type SlackView = Record<string, unknown>;

function plain(text: string, max: number) {
  return { type: "plain_text", text: truncateSlackText(text || " ", max) };
}

/** Slack's datepicker takes only `YYYY-MM-DD`; anything else would fail the whole view. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function input(
  child: { id: string; label: string; optional?: boolean },
  element: Record<string, unknown>,
): SlackBlock {
  return {
    type: "input",
    block_id: child.id,
    label: plain(child.label, 2_000),
    optional: child.optional === true,
    element: { action_id: child.id, ...element },
  };
}

function childBlocks(child: ModalChild): SlackBlock[] {
  switch (child.type) {
    case "text_input":
      return [
        input(child, {
          type: "plain_text_input",
          multiline: child.multiline === true,
          ...(child.placeholder ? { placeholder: plain(child.placeholder, 150) } : {}),
          ...(child.initialValue ? { initial_value: child.initialValue } : {}),
          ...(child.maxLength ? { max_length: child.maxLength } : {}),
        }),
      ];
    case "date_input":
      return [
        input(child, {
          type: "datepicker",
          ...(child.placeholder ? { placeholder: plain(child.placeholder, 150) } : {}),
          ...(child.initialValue && ISO_DATE.test(child.initialValue)
            ? { initial_date: child.initialValue }
            : {}),
        }),
      ];
    case "number_input":
      return [
        input(child, {
          type: "number_input",
          is_decimal_allowed: child.decimal === true,
          ...(child.placeholder ? { placeholder: plain(child.placeholder, 150) } : {}),
          ...(child.initialValue === undefined
            ? {}
            : { initial_value: String(child.initialValue) }),
          ...(child.min === undefined ? {} : { min_value: String(child.min) }),
          ...(child.max === undefined ? {} : { max_value: String(child.max) }),
        }),
      ];
    case "select": {
      const options = child.options.slice(0, 100).map((option) => slackOption(option));
      const initial = options.find((option) => option.value === child.initialOption);
      return [
        input(child, {
          type: "static_select",
          options,
          ...(child.placeholder ? { placeholder: plain(child.placeholder, 150) } : {}),
          ...(initial ? { initial_option: initial } : {}),
        }),
      ];
    }
    case "radio_select": {
      const options = child.options.slice(0, 10).map(slackRadioOption);
      const initial = options.find((option) => option.value === child.initialOption);
      return [
        input(child, {
          type: "radio_buttons",
          options,
          ...(initial ? { initial_option: initial } : {}),
        }),
      ];
    }
    case "external_select":
      return [
        input(child, {
          type: "external_select",
          min_query_length: child.minQueryLength ?? 0,
          ...(child.placeholder ? { placeholder: plain(child.placeholder, 150) } : {}),
          ...(child.initialOption ? { initial_option: slackOption(child.initialOption) } : {}),
        }),
      ];
    case "text":
    case "fields":
      return cardToBlockKit({ type: "card", children: [child] });
  }
}

/** What the adapter keeps in a view's `private_metadata`: the context id and the user's own. */
export interface SlackModalMetadata {
  readonly contextId?: string;
  readonly privateMetadata?: string;
}

/** `private_metadata` for a view: JSON of the context id and the modal's own metadata. */
export function encodeModalMetadata(metadata: SlackModalMetadata): string | undefined {
  if (!metadata.contextId && !metadata.privateMetadata) return undefined;
  return JSON.stringify({
    ...(metadata.contextId ? { c: metadata.contextId } : {}),
    ...(metadata.privateMetadata ? { m: metadata.privateMetadata } : {}),
  });
}

/** The inverse of {@link encodeModalMetadata}; any other string is taken as a bare context id. */
export function decodeModalMetadata(raw: string | undefined): SlackModalMetadata {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as { c?: unknown; m?: unknown };
    if (typeof parsed === "object" && parsed !== null && ("c" in parsed || "m" in parsed)) {
      return {
        ...(typeof parsed.c === "string" ? { contextId: parsed.c } : {}),
        ...(typeof parsed.m === "string" ? { privateMetadata: parsed.m } : {}),
      };
    }
  } catch {
    // Not JSON: a context id stored bare, as older views did (upstream's rule).
  }
  return { contextId: raw };
}

/**
 * A modal as a Slack view: each input an `input` block whose block and action ids are its id.
 * `privateMetadata` is written as the view's `private_metadata` verbatim (upstream's shape);
 * {@link slackViewFor} encodes the context id with the modal's own metadata first.
 */
export function modalToSlackView(modal: ModalElement, privateMetadata?: string): SlackView {
  const metadata = privateMetadata;
  return {
    type: "modal",
    callback_id: modal.callbackId,
    title: plain(modal.title, 24),
    submit: plain(modal.submitLabel ?? "Submit", 24),
    close: plain(modal.closeLabel ?? "Cancel", 24),
    notify_on_close: modal.notifyOnClose === true,
    blocks: modal.children.flatMap(childBlocks).slice(0, 100),
    ...(metadata === undefined ? {} : { private_metadata: metadata }),
  };
}

/** The view the adapter opens: the context id and the modal's own metadata encoded together. */
export function slackViewFor(modal: ModalElement, contextId?: string): SlackView {
  return modalToSlackView(
    modal,
    encodeModalMetadata({
      ...(contextId ? { contextId } : {}),
      ...(modal.privateMetadata ? { privateMetadata: modal.privateMetadata } : {}),
    }),
  );
}

interface StateValue {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_date?: string | null;
  selected_options?: Array<{ value?: string }>;
}

/** A submitted view's values keyed by input id (= action id), as strings. */
export function viewSubmissionValues(view: Record<string, unknown>): Record<string, string> {
  const state = (view.state as { values?: Record<string, Record<string, StateValue>> }) ?? {};
  const values: Record<string, string> = {};
  for (const block of Object.values(state.values ?? {})) {
    for (const [actionId, entry] of Object.entries(block)) {
      const value =
        entry.value ??
        entry.selected_option?.value ??
        entry.selected_date ??
        entry.selected_options?.map((option) => option.value ?? "").join(",");
      if (value !== undefined && value !== null) values[actionId] = value;
    }
  }
  return values;
}

/** The JSON body answering a `view_submission`, or undefined for "close" (an empty 200). */
export function modalResponseBody(
  response: ModalResponse | undefined,
  contextId: string | undefined,
): Record<string, unknown> | undefined {
  if (response === undefined || response.action === "close") return undefined;
  switch (response.action) {
    case "clear":
      return { response_action: "clear" };
    case "errors":
      return { response_action: "errors", errors: response.errors };
    case "update":
      return { response_action: "update", view: slackViewFor(response.modal, contextId) };
    case "push":
      return { response_action: "push", view: slackViewFor(response.modal, contextId) };
  }
}
