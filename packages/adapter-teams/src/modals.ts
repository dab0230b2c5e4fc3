import type { Logger, ModalChild, ModalElement, ModalResponse } from "@baton/core";
import {
  AdaptiveCard,
  type CardElement as AdaptiveElement,
  Choice,
  ChoiceSetInput,
  DateInput,
  Fact,
  FactSet,
  NumberInput,
  SubmitAction,
  TextBlock,
  TextInput,
} from "@microsoft/teams.cards";
import {
  ADAPTIVE_CARD_CONTENT_TYPE,
  ADAPTIVE_CARD_SCHEMA,
  ADAPTIVE_CARD_VERSION,
  type AdaptiveJson,
  toPlainData,
} from "./cards.js";

/** Keys of the dialog's submit data that carry Baton's own ids, not input values. */
export const DIALOG_CONTEXT_KEY = "__contextId";
export const DIALOG_CALLBACK_KEY = "__callbackId";

/** An Adaptive Card that is a dialog's content. */
export interface TeamsDialogCard {
  type: "AdaptiveCard";
  $schema: string;
  version: string;
  body: AdaptiveJson[];
  actions: AdaptiveJson[];
}

/** A task module answer: show (or keep showing) a dialog with this card. */
export interface TeamsTaskModuleResponse {
  task: {
    type: "continue";
    value: {
      title: string;
      card: { contentType: string; content: TeamsDialogCard | Record<string, unknown> };
    };
  };
}

function modalChild(child: ModalChild): AdaptiveElement | undefined {
  switch (child.type) {
    case "text_input": {
      const input = new TextInput()
        .withId(child.id)
        .withLabel(child.label)
        .withIsRequired(child.optional !== true)
        .withIsMultiline(child.multiline === true);
      if (child.placeholder !== undefined) input.withPlaceholder(child.placeholder);
      if (child.initialValue !== undefined) input.withValue(child.initialValue);
      if (child.maxLength !== undefined) input.withMaxLength(child.maxLength);
      return input;
    }
    case "date_input": {
      const input = new DateInput().withId(child.id).withLabel(child.label);
      input.withIsRequired(child.optional !== true);
      if (child.placeholder !== undefined) input.withPlaceholder(child.placeholder);
      if (child.initialValue !== undefined) input.withValue(child.initialValue);
      return input;
    }
    case "number_input": {
      const input = new NumberInput().withId(child.id).withLabel(child.label);
      input.withIsRequired(child.optional !== true);
      if (child.placeholder !== undefined) input.withPlaceholder(child.placeholder);
      if (child.initialValue !== undefined) input.withValue(child.initialValue);
      if (child.min !== undefined) input.withMin(child.min);
      if (child.max !== undefined) input.withMax(child.max);
      return input;
    }
    case "select":
    case "radio_select": {
      const input = new ChoiceSetInput(
        ...child.options.map((option) => new Choice({ title: option.label, value: option.value })),
      )
        .withId(child.id)
        .withLabel(child.label)
        .withStyle(child.type === "select" ? "compact" : "expanded")
        .withIsRequired(child.optional !== true);
      if (child.type === "select" && child.placeholder !== undefined) {
        input.withPlaceholder(child.placeholder);
      }
      if (child.initialOption !== undefined) input.withValue(child.initialOption);
      return input;
    }
    case "external_select": {
      // Teams dialogs have no server-loaded choice list; a free-text input is the closest.
      const input = new TextInput().withId(child.id).withLabel(child.label);
      input.withIsRequired(child.optional !== true);
      if (child.placeholder !== undefined) input.withPlaceholder(child.placeholder);
      return input;
    }
    case "text": {
      const block = new TextBlock(child.content, { wrap: true });
      if (child.style === "bold") block.withWeight("Bolder");
      if (child.style === "muted") block.withIsSubtle(true);
      return block;
    }
    case "fields":
      return new FactSet(...child.children.map((field) => new Fact(field.label, field.value)));
  }
}

/**
 * A Baton modal as the Adaptive Card of a Teams dialog: each input as its `Input.*` element and
 * one Submit action whose data carries the modal's context id and callback id, which the
 * task/submit invoke brings back.
 */
export function modalToAdaptiveCard(
  modal: ModalElement,
  context: string | undefined | { contextId?: string; callbackId?: string },
  callbackIdOverride?: string,
): TeamsDialogCard {
  // Upstream has both forms: (modal, contextId, callbackId) and (modal, { contextId, callbackId }).
  const options =
    typeof context === "object" ? context : { contextId: context, callbackId: callbackIdOverride };
  const contextId = options.contextId;
  const callbackId = options.callbackId ?? modal.callbackId;
  const body = modal.children
    .map(modalChild)
    .filter((element): element is AdaptiveElement => element !== undefined);
  const submit = new SubmitAction({
    title: modal.submitLabel ?? "Submit",
    data: {
      ...(contextId === undefined ? {} : { [DIALOG_CONTEXT_KEY]: contextId }),
      [DIALOG_CALLBACK_KEY]: callbackId,
    } as never,
  });
  const card = new AdaptiveCard(...body).withVersion(ADAPTIVE_CARD_VERSION).withActions(submit);
  const plain = toPlainData<Omit<TeamsDialogCard, "$schema">>(card);
  return {
    ...plain,
    $schema: ADAPTIVE_CARD_SCHEMA,
    body: plain.body ?? [],
    actions: plain.actions ?? [],
  };
}

/** What a task/submit carries: Baton's ids and the inputs' values (numbers as strings). */
export function parseDialogSubmitValues(data: unknown): {
  contextId: string | undefined;
  callbackId: string | undefined;
  values: Record<string, string>;
} {
  const fields = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === DIALOG_CONTEXT_KEY || key === DIALOG_CALLBACK_KEY || key === "msteams") continue;
    if (typeof value === "string") values[key] = value;
    else if (typeof value === "number" && Number.isFinite(value)) values[key] = String(value);
  }
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return {
    contextId: text(fields[DIALOG_CONTEXT_KEY]),
    callbackId: text(fields[DIALOG_CALLBACK_KEY]),
    values,
  };
}

/** A dialog (task module) answer showing `card` under `title`. */
export function taskContinue(title: string, card: TeamsDialogCard | Record<string, unknown>) {
  return {
    task: {
      type: "continue" as const,
      value: { title, card: { contentType: ADAPTIVE_CARD_CONTENT_TYPE, content: card } },
    },
  };
}

function errorCard(errors: Record<string, string>): Record<string, unknown> {
  const lines = Object.entries(errors).map(([field, message]) =>
    toPlainData(new TextBlock(`**${field}**: ${message}`, { wrap: true, color: "Attention" })),
  );
  const intro = toPlainData(
    new TextBlock("Please fix the following and submit again:", { wrap: true, weight: "Bolder" }),
  );
  return toPlainData({
    ...toPlainData<Record<string, unknown>>(new AdaptiveCard().withVersion(ADAPTIVE_CARD_VERSION)),
    $schema: ADAPTIVE_CARD_SCHEMA,
    body: [intro, ...lines],
  });
}

/**
 * The task module answer for a modal submit's `ModalResponse`: none (close the dialog) for no
 * answer, `close` or `clear`; the new modal for `update`; for `push`, the new modal in place —
 * Teams has no dialog stack (a warning is logged); for `errors`, a card listing each error.
 */
export function modalResponseToTaskModuleResponse(
  response: ModalResponse | undefined,
  logger?: Pick<Logger, "warn">,
  contextId?: string,
): TeamsTaskModuleResponse | undefined {
  if (response === undefined) return undefined;
  switch (response.action) {
    case "close":
    case "clear":
      return undefined;
    case "update":
      return taskContinue(response.modal.title, modalToAdaptiveCard(response.modal, contextId));
    case "push":
      logger?.warn(
        "teams: Teams does not support dialog stacking; the pushed modal replaces the open one",
        {
          callbackId: response.modal.callbackId,
        },
      );
      return taskContinue(response.modal.title, modalToAdaptiveCard(response.modal, contextId));
    case "errors":
      return taskContinue("Validation Error", errorCard(response.errors));
  }
}

/** Upstream's primitives name for {@link parseDialogSubmitValues}. */
export const parseTeamsDialogSubmitValues = parseDialogSubmitValues;

/** Upstream's primitives form of {@link modalResponseToTaskModuleResponse}, options last. */
export function toTeamsTaskModuleResponse(
  response: ModalResponse | undefined,
  options: { contextId?: string; logger?: Pick<Logger, "warn"> } = {},
): TeamsTaskModuleResponse | undefined {
  return modalResponseToTaskModuleResponse(response, options.logger, options.contextId);
}
