import {
  Actions,
  Button,
  Card,
  CardText,
  DateInput,
  Field,
  Fields,
  Modal,
  type ModalCloseResponse,
  type ModalElement,
  type ModalErrorsResponse,
  type ModalPushResponse,
  type ModalUpdateResponse,
  NumberInput,
  RadioSelect,
  Select,
  SelectOption,
  TextInput,
} from "@baton/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  modalResponseToTaskModuleResponse,
  modalToAdaptiveCard,
  parseDialogSubmitValues,
  parseTeamsDialogSubmitValues,
  toTeamsTaskModuleResponse,
} from "../src/modals.js";
import { trackHarnesses } from "./teams-harness.js";

function makeModal(overrides: Partial<ModalElement> = {}): ModalElement {
  return Modal({
    callbackId: "cb-1",
    title: "Test Modal",
    ...overrides,
    children: overrides.children ?? [],
  });
}

// Ported from upstream packages/adapter-teams/src/modals.test.ts (titles verbatim).
describe("modalToAdaptiveCard", () => {
  it("produces a valid Adaptive Card structure", () => {
    const card = modalToAdaptiveCard(makeModal(), "ctx-1", "cb-1");
    expect(card.type).toBe("AdaptiveCard");
    expect(card.$schema).toBe("http://adaptivecards.io/schemas/adaptive-card.json");
    expect(card.version).toBe("1.4");
    expect(card.body).toBeInstanceOf(Array);
  });

  it("includes contextId and callbackId in submit action data", () => {
    const card = modalToAdaptiveCard(makeModal(), "ctx-1", "cb-1");
    expect(card.actions).toHaveLength(1);
    const action = card.actions[0] as unknown as { data: Record<string, unknown> };
    expect(action.data.__contextId).toBe("ctx-1");
    expect(action.data.__callbackId).toBe("cb-1");
  });

  it("uses custom submitLabel when provided", () => {
    const card = modalToAdaptiveCard(makeModal({ submitLabel: "Send it" }), "ctx-1", "cb-1");
    expect(card.actions[0]?.title).toBe("Send it");
  });

  it("defaults submitLabel to 'Submit'", () => {
    expect(modalToAdaptiveCard(makeModal(), "ctx-1", "cb-1").actions[0]?.title).toBe("Submit");
  });
});

describe("modal child element conversion", () => {
  it("converts text_input to TextInput", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [TextInput({ id: "name", label: "Your Name", placeholder: "Enter name" })],
      }),
      "ctx",
      "cb",
    );
    expect(card.body).toHaveLength(1);
    expect(card.body[0]).toMatchObject({
      type: "Input.Text",
      id: "name",
      label: "Your Name",
      placeholder: "Enter name",
      isRequired: true,
      isMultiline: false,
    });
  });

  it("converts select to ChoiceSetInput with compact style", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [
          Select({
            id: "color",
            label: "Favorite Color",
            options: [
              SelectOption({ label: "Red", value: "red" }),
              SelectOption({ label: "Blue", value: "blue" }),
            ],
          }),
        ],
      }),
      "ctx",
      "cb",
    );
    expect(card.body).toHaveLength(1);
    expect(card.body[0]).toMatchObject({
      type: "Input.ChoiceSet",
      id: "color",
      label: "Favorite Color",
      style: "compact",
      isRequired: true,
    });
    const choices = (card.body[0] as unknown as { choices: unknown[] }).choices;
    expect(choices).toHaveLength(2);
    expect(choices[0]).toMatchObject({ title: "Red", value: "red" });
  });

  it("converts radio_select to ChoiceSetInput with expanded style", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [
          RadioSelect({
            id: "size",
            label: "Size",
            options: [
              SelectOption({ label: "Small", value: "sm" }),
              SelectOption({ label: "Large", value: "lg" }),
            ],
          }),
        ],
      }),
      "ctx",
      "cb",
    );
    expect(card.body).toHaveLength(1);
    expect(card.body[0]).toMatchObject({
      type: "Input.ChoiceSet",
      id: "size",
      label: "Size",
      style: "expanded",
      isRequired: true,
    });
  });

  it("converts text to TextBlock with style support", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [
          CardText("Hello"),
          CardText("Bold text", { style: "bold" }),
          CardText("Muted text", { style: "muted" }),
        ],
      }),
      "ctx",
      "cb",
    );
    expect(card.body).toHaveLength(3);
    expect(card.body[0]).toMatchObject({ type: "TextBlock", text: "Hello", wrap: true });
    expect(card.body[1]).toMatchObject({ type: "TextBlock", weight: "Bolder" });
    expect(card.body[2]).toMatchObject({ type: "TextBlock", isSubtle: true });
  });

  it("converts fields to FactSet", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [
          Fields([
            Field({ label: "Name", value: "Alice" }),
            Field({ label: "Role", value: "Engineer" }),
          ]),
        ],
      }),
      "ctx",
      "cb",
    );
    expect(card.body).toHaveLength(1);
    expect(card.body[0]).toMatchObject({ type: "FactSet" });
    const facts = (card.body[0] as unknown as { facts: unknown[] }).facts;
    expect(facts).toHaveLength(2);
    expect(facts[0]).toMatchObject({ title: "Name", value: "Alice" });
  });
});

describe("parseDialogSubmitValues", () => {
  it("extracts callbackId, contextId, and user values", () => {
    const result = parseDialogSubmitValues({
      __contextId: "ctx-1",
      __callbackId: "cb-1",
      msteams: { some: "data" },
      name: "Alice",
      color: "blue",
    });
    expect(result.contextId).toBe("ctx-1");
    expect(result.callbackId).toBe("cb-1");
    expect(result.values).toEqual({ name: "Alice", color: "blue" });
  });

  it("returns empty result for undefined data", () => {
    const result = parseDialogSubmitValues(undefined);
    expect(result.contextId).toBeUndefined();
    expect(result.callbackId).toBeUndefined();
    expect(result.values).toEqual({});
  });
});

describe("modalResponseToTaskModuleResponse", () => {
  it("returns undefined for undefined response", () => {
    expect(modalResponseToTaskModuleResponse(undefined)).toBeUndefined();
  });

  it("returns undefined for close action", () => {
    const response: ModalCloseResponse = { action: "close" };
    expect(modalResponseToTaskModuleResponse(response)).toBeUndefined();
  });

  it("returns continue response for update action", () => {
    const response: ModalUpdateResponse = {
      action: "update",
      modal: makeModal({ title: "Updated" }),
    };
    const result = modalResponseToTaskModuleResponse(response, undefined, "ctx-1");
    expect(result).toBeDefined();
    expect(result?.task).toMatchObject({
      type: "continue",
      value: { title: "Updated", card: { contentType: "application/vnd.microsoft.card.adaptive" } },
    });
  });

  it("falls back to continue and warns for push action", () => {
    const response: ModalPushResponse = { action: "push", modal: makeModal({ title: "Pushed" }) };
    const logger = { warn: vi.fn() };
    const result = modalResponseToTaskModuleResponse(response, logger, "ctx-1");
    expect(result).toBeDefined();
    expect(result?.task).toMatchObject({ type: "continue" });
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining("does not support dialog stacking"),
      expect.any(Object),
    );
  });

  it("returns error card for errors action", () => {
    const response: ModalErrorsResponse = {
      action: "errors",
      errors: { name: "Required", email: "Invalid format" },
    };
    const result = modalResponseToTaskModuleResponse(response);
    expect(result).toBeDefined();
    expect(result?.task).toMatchObject({
      type: "continue",
      value: {
        title: "Validation Error",
        card: { contentType: "application/vnd.microsoft.card.adaptive" },
      },
    });
    const card = result?.task.value.card.content as { body: { text: string }[] };
    expect(card.body.length).toBeGreaterThanOrEqual(3);
    expect(card.body[0]?.text).toContain("Please fix");
  });
});

describe("date and number inputs", () => {
  it("renders a date input as Input.Date", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [
          DateInput({
            id: "renewal_date",
            label: "Renewal Date",
            placeholder: "Pick a date",
            initialValue: "2026-08-01",
          }),
        ],
      }),
      "ctx-1",
      "cb-1",
    );
    expect(card.body[0]).toMatchObject({
      type: "Input.Date",
      id: "renewal_date",
      label: "Renewal Date",
      placeholder: "Pick a date",
      value: "2026-08-01",
      isRequired: true,
    });
  });

  it("marks an optional date input as not required", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [DateInput({ id: "renewal_date", label: "Renewal Date", optional: true })],
      }),
      "ctx-1",
      "cb-1",
    );
    expect(card.body[0]).toMatchObject({ type: "Input.Date", isRequired: false });
  });

  it("renders a number input as Input.Number with numeric bounds", () => {
    const card = modalToAdaptiveCard(
      makeModal({
        children: [
          NumberInput({
            id: "quantity",
            label: "Quantity",
            placeholder: "How many?",
            initialValue: 3,
            min: 1,
            max: 10,
          }),
        ],
      }),
      "ctx-1",
      "cb-1",
    );
    expect(card.body[0]).toMatchObject({
      type: "Input.Number",
      id: "quantity",
      label: "Quantity",
      placeholder: "How many?",
      value: 3,
      min: 1,
      max: 10,
      isRequired: true,
    });
  });

  it("stringifies numeric submit values", () => {
    const parsed = parseDialogSubmitValues({
      __contextId: "ctx-1",
      __callbackId: "cb-1",
      renewal_date: "2026-08-01",
      quantity: 3,
      ratio: 0,
    });
    expect(parsed.values).toEqual({ renewal_date: "2026-08-01", quantity: "3", ratio: "0" });
  });
});

const harnesses = trackHarnesses();
afterEach(() => harnesses.closeAll());

describe("dialogs through the real entry point (Baton)", () => {
  it("opens a modal from a modal button's task/fetch and answers its task/submit", async () => {
    const h = await harnesses.open();
    const submitted: Record<string, string>[] = [];
    h.chat.onAction("feedback", async (event) => {
      await event.openModal(
        Modal({
          callbackId: "feedback-form",
          title: "Feedback",
          children: [TextInput({ id: "note", label: "Note" })],
        }),
      );
    });
    h.chat.onModalSubmit("feedback-form", async (event) => {
      submitted.push(event.values);
      return event.values.note === ""
        ? { action: "errors", errors: { note: "Required" } }
        : undefined;
    });
    // The card's button is a modal button: Teams sends task/fetch with the button's data.
    const card = Card({
      children: [
        Actions([Button({ id: "feedback", label: "Give feedback", actionType: "modal" })]),
      ],
    });
    expect(JSON.stringify(card)).toContain("modal");
    const fetched = await h.deliver(
      h.message("", {
        type: "invoke",
        name: "task/fetch",
        value: { data: { actionId: "feedback", msteams: { type: "task/fetch" } } },
      }),
    );
    const opened = (await fetched.json()) as {
      task: {
        type: string;
        value: {
          title: string;
          card: { content: { actions: Array<{ data: Record<string, string> }> } };
        };
      };
    };
    expect(opened.task).toMatchObject({ type: "continue", value: { title: "Feedback" } });
    const data = opened.task.value.card.content.actions[0]?.data ?? {};
    expect(data.__callbackId).toBe("feedback-form");

    const refused = await h.deliver(
      h.message("", {
        type: "invoke",
        name: "task/submit",
        value: { data: { ...data, note: "" } },
      }),
    );
    expect(await refused.json()).toMatchObject({ task: { value: { title: "Validation Error" } } });
    const accepted = await h.deliver(
      h.message("", {
        type: "invoke",
        name: "task/submit",
        value: { data: { ...data, note: "great" } },
      }),
    );
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toBe("");
    expect(submitted).toEqual([{ note: "" }, { note: "great" }]);
  });

  it("answers a task/fetch with no dialog when the handler opens none, and refuses stale triggers", async () => {
    const h = await harnesses.open();
    h.chat.onAction("noop", async () => undefined);
    const response = await h.deliver(
      h.message("", { type: "invoke", name: "task/fetch", value: { data: { actionId: "noop" } } }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    await expect(h.adapter.openModal("teams-dialog:stale", makeModal())).rejects.toThrow(
      /no dialog is waiting/,
    );
  });
});

const deployModal = {
  callbackId: "deploy-modal",
  children: [
    { content: "Deploy?", style: "bold", type: "text" },
    { id: "reason", label: "Reason", placeholder: "Why?", type: "text_input" },
  ],
  title: "Deploy",
  type: "modal",
} as ModalElement;

// Ported from upstream packages/adapter-teams/src/modals-primitives/index.test.ts (titles verbatim).
describe("Teams modal primitives", () => {
  it("converts modal objects to Adaptive Cards", () => {
    expect(modalToAdaptiveCard(deployModal, { contextId: "ctx" })).toMatchObject({
      actions: [
        {
          data: { __callbackId: "deploy-modal", __contextId: "ctx" },
          title: "Submit",
          type: "Action.Submit",
        },
      ],
      body: [
        { text: "Deploy?", type: "TextBlock", weight: "Bolder" },
        { id: "reason", label: "Reason", type: "Input.Text" },
      ],
      type: "AdaptiveCard",
    });
  });

  it("parses dialog submit values", () => {
    expect(
      parseTeamsDialogSubmitValues({
        __callbackId: "cb",
        __contextId: "ctx",
        msteams: {},
        reason: "approved",
      }),
    ).toEqual({ callbackId: "cb", contextId: "ctx", values: { reason: "approved" } });
  });

  it("creates task module responses", () => {
    expect(
      toTeamsTaskModuleResponse({ action: "update", modal: deployModal }, { contextId: "ctx" }),
    ).toMatchObject({
      task: {
        type: "continue",
        value: {
          card: { contentType: "application/vnd.microsoft.card.adaptive" },
          title: "Deploy",
        },
      },
    });
    expect(toTeamsTaskModuleResponse({ action: "close" })).toBeUndefined();
  });

  it("renders validation errors as a continue response", () => {
    expect(
      toTeamsTaskModuleResponse({ action: "errors", errors: { reason: "Required" } }),
    ).toMatchObject({
      task: {
        value: {
          card: {
            content: {
              body: expect.arrayContaining([
                expect.objectContaining({ text: "**reason**: Required" }),
              ]),
            },
          },
          title: "Validation Error",
        },
      },
    });
  });

  it("converts every modal child type with options and styles", () => {
    const card = modalToAdaptiveCard(
      {
        callbackId: "cb",
        children: [
          { content: "Muted", style: "muted", type: "text" },
          { children: [{ label: "Owner", value: "Ada", type: "field" }], type: "fields" },
          {
            id: "summary",
            initialValue: "init",
            label: "Summary",
            maxLength: 200,
            multiline: true,
            placeholder: "Describe",
            type: "text_input",
          },
          {
            id: "env",
            initialOption: "prod",
            label: "Env",
            optional: true,
            options: [{ label: "Prod", value: "prod" }],
            placeholder: "Pick",
            type: "select",
          },
          {
            id: "strategy",
            label: "Strategy",
            options: [{ label: "BG", value: "bg" }],
            type: "radio_select",
          },
        ],
        submitLabel: "Go",
        title: "All",
        type: "modal",
      } as ModalElement,
      {},
    );
    expect(card).toMatchObject({
      actions: [expect.objectContaining({ data: { __callbackId: "cb" }, title: "Go" })],
      body: expect.arrayContaining([
        expect.objectContaining({ isSubtle: true, text: "Muted" }),
        expect.objectContaining({ type: "FactSet" }),
        expect.objectContaining({
          id: "summary",
          isMultiline: true,
          isRequired: true,
          maxLength: 200,
          placeholder: "Describe",
          type: "Input.Text",
          value: "init",
        }),
        expect.objectContaining({
          id: "env",
          isRequired: false,
          placeholder: "Pick",
          style: "compact",
          type: "Input.ChoiceSet",
          value: "prod",
        }),
        expect.objectContaining({
          id: "strategy",
          isRequired: true,
          style: "expanded",
          type: "Input.ChoiceSet",
        }),
      ]),
    });
  });

  it("prefers the callbackId option over the modal callbackId", () => {
    expect(modalToAdaptiveCard(deployModal, { callbackId: "override" })).toMatchObject({
      actions: [expect.objectContaining({ data: { __callbackId: "override" } })],
    });
  });

  it("returns empty submit values when data is missing", () => {
    expect(parseTeamsDialogSubmitValues(undefined)).toEqual({
      callbackId: undefined,
      contextId: undefined,
      values: {},
    });
  });

  it("stringifies numeric submit values and ignores other non-strings", () => {
    expect(parseTeamsDialogSubmitValues({ count: 5, note: "ok", flag: true })).toEqual({
      callbackId: undefined,
      contextId: undefined,
      values: { count: "5", note: "ok" },
    });
  });

  it("creates continue responses for push actions", () => {
    expect(toTeamsTaskModuleResponse({ action: "push", modal: deployModal })).toMatchObject({
      task: { type: "continue", value: { title: "Deploy" } },
    });
  });

  it("returns undefined when there is no response", () => {
    expect(toTeamsTaskModuleResponse(undefined)).toBeUndefined();
  });
});
