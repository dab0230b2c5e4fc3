import { describe, expect, it } from "vitest";
import {
  DateInput,
  ExternalSelect,
  Field,
  Fields,
  Modal,
  modalInputIds,
  NumberInput,
  RadioSelect,
  Select,
  SelectOption,
  Text,
  TextInput,
  validateModalElement,
  validateModalResponse,
} from "../../src/content/index.js";
import { ValidationError } from "../../src/errors/index.js";

function validationError(build: () => unknown): ValidationError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error("expected a ValidationError, but nothing was thrown");
}

const feedback = Modal({
  callbackId: "feedback",
  title: "Feedback",
  children: [
    Text("Tell us how we did."),
    TextInput({ id: "comment", label: "Comment", multiline: true }),
    NumberInput({ id: "score", label: "Score", min: 1, max: 5 }),
    Fields([Field({ label: "Ticket", value: "#42" })]),
  ],
});

describe("modal elements are validated where they are built", () => {
  it("requires a callbackId and a title", () => {
    expect(validationError(() => Modal({ title: "T" } as never)).message).toMatch(
      /Modal requires a 'callbackId' prop/,
    );
    expect(validationError(() => Modal({ callbackId: "cb", title: "" })).message).toMatch(
      /Modal requires a 'title' prop/,
    );
  });

  it("refuses two inputs with one id, naming both positions", () => {
    const error = validationError(() =>
      Modal({
        callbackId: "cb",
        title: "T",
        children: [
          TextInput({ id: "name", label: "Name" }),
          Text("between"),
          DateInput({ id: "name", label: "Date" }),
        ],
      }),
    );
    expect(error.message).toBe(
      `Modal 'children[2].id' "name" is already the id of children[0]; input ids must be unique`,
    );
  });

  it("refuses a child that is not an input, text or fields", () => {
    const button = { type: "button", id: "b", label: "B" };
    expect(
      validationError(() => Modal({ callbackId: "cb", title: "T", children: [button] as never }))
        .message,
    ).toMatch(/^Modal 'children\[0\]' must be one of .* elements, got a "button" element$/);
  });

  it("checks text input lengths and date and number bounds", () => {
    expect(
      validationError(() => TextInput({ id: "t", label: "T", maxLength: 3, initialValue: "long" }))
        .message,
    ).toBe("TextInput 'initialValue' has 4 characters, more than its 'maxLength' 3");
    expect(validationError(() => TextInput({ id: "t", label: "T", maxLength: 0 })).message).toMatch(
      /'maxLength' must be at least 1/,
    );
    expect(
      validationError(() => DateInput({ id: "d", label: "D", initialValue: "2026-02-30" })).message,
    ).toBe(`DateInput 'initialValue' must be a calendar day written YYYY-MM-DD, got "2026-02-30"`);
    expect(DateInput({ id: "d", label: "D", initialValue: "2024-02-29" }).initialValue).toBe(
      "2024-02-29",
    );
    expect(
      validationError(() => NumberInput({ id: "n", label: "N", min: 5, max: 1 })).message,
    ).toBe("NumberInput 'min' 5 is greater than its 'max' 1");
    expect(
      validationError(() => NumberInput({ id: "n", label: "N", max: 10, initialValue: 11 }))
        .message,
    ).toMatch(/'initialValue' 11 is outside its bounds/);
    expect(
      validationError(() => NumberInput({ id: "n", label: "N", initialValue: 1.5 })).message,
    ).toMatch(/NumberInput 'initialValue' must be an integer/);
    expect(
      NumberInput({ id: "n", label: "N", initialValue: 1.5, decimal: true }).initialValue,
    ).toBe(1.5);
  });

  it("checks an external select's initial option and query length", () => {
    expect(
      validationError(() => ExternalSelect({ id: "p", label: "P", minQueryLength: -1 })).message,
    ).toMatch(/'minQueryLength' must be at least 0/);
    expect(
      validationError(() =>
        ExternalSelect({ id: "p", label: "P", initialOption: { label: "Ada" } as never }),
      ).message,
    ).toMatch(/SelectOption requires a 'value' prop/);
  });

  it("shares Select and RadioSelect with cards, with the same option checks", () => {
    const options = [SelectOption({ label: "Low", value: "low" })];
    expect(RadioSelect({ id: "r", label: "R", options, initialOption: "low" }).initialOption).toBe(
      "low",
    );
    expect(
      validationError(() => RadioSelect({ id: "r", label: "R", options, initialOption: "high" }))
        .message,
    ).toMatch(/RadioSelect 'initialOption' "high"/);
    expect(validationError(() => Select({ id: "", label: "S", options })).message).toMatch(
      /Select requires an 'id' prop/,
    );
  });

  it("builds a modal that survives a JSON round trip unchanged", () => {
    expect(JSON.parse(JSON.stringify(feedback))).toStrictEqual(feedback);
  });
});

describe("modal submit responses", () => {
  it("lists the input ids of a modal, leaving out text and fields", () => {
    expect(modalInputIds(feedback)).toEqual(["comment", "score"]);
  });

  it("accepts nothing (close) and each of upstream's actions", () => {
    expect(validateModalResponse(undefined, feedback)).toBeUndefined();
    expect(validateModalResponse({ action: "close" })).toEqual({ action: "close" });
    expect(validateModalResponse({ action: "clear" })).toEqual({ action: "clear" });
    expect(validateModalResponse({ action: "update", modal: feedback })).toEqual({
      action: "update",
      modal: feedback,
    });
    expect(validateModalResponse({ action: "push", modal: feedback })).toEqual({
      action: "push",
      modal: feedback,
    });
  });

  it("accepts errors keyed by the submitted modal's input ids", () => {
    const response = { action: "errors", errors: { score: "Pick 1 to 5" } } as const;
    expect(validateModalResponse(response, feedback)).toEqual(response);
  });

  it("refuses errors for an input the modal does not have, naming the key", () => {
    expect(
      validationError(() =>
        validateModalResponse({ action: "errors", errors: { scroe: "typo" } }, feedback),
      ).message,
    ).toBe(
      `ModalResponse 'errors.scroe' names no input of modal "feedback" (inputs: comment, score)`,
    );
  });

  it("refuses an empty errors map, an empty message and unknown actions", () => {
    expect(
      validationError(() => validateModalResponse({ action: "errors", errors: {} })).message,
    ).toMatch(/'errors' is empty/);
    expect(
      validationError(() => validateModalResponse({ action: "errors", errors: { score: "" } }))
        .message,
    ).toMatch(/'errors\.score' must be a non-empty message/);
    expect(validationError(() => validateModalResponse({ action: "reopen" })).message).toMatch(
      /'action' must be one of "close", "clear", "errors", "update", "push", got "reopen"/,
    );
    expect(validationError(() => validateModalResponse({ action: "update" })).message).toMatch(
      /'modal' must be a ModalElement for action "update"/,
    );
    expect(validationError(() => validateModalResponse("close")).message).toMatch(
      /must return a ModalResponse or nothing, got "close"/,
    );
  });
});

describe("modals written as plain data", () => {
  it("are held to the builders' rules, as upstream's openModal examples write them", () => {
    const literal = {
      type: "modal",
      callbackId: "feedback_modal",
      title: "Submit Feedback",
      children: [{ type: "text_input", id: "feedback", label: "Your feedback" }],
    };
    expect(validateModalElement(literal)).toStrictEqual(
      Modal({
        callbackId: "feedback_modal",
        title: "Submit Feedback",
        children: [TextInput({ id: "feedback", label: "Your feedback" })],
      }),
    );
    const duplicate = {
      ...literal,
      children: [...literal.children, { type: "date_input", id: "feedback", label: "When" }],
    };
    expect(validationError(() => validateModalElement(duplicate)).message).toMatch(
      /Modal 'children\[1\]\.id' "feedback" is already the id of children\[0\]/,
    );
    const badNumber = {
      ...literal,
      children: [{ type: "number_input", id: "n", label: "N", min: 3, max: 1 }],
    };
    expect(validationError(() => validateModalElement(badNumber)).message).toBe(
      "NumberInput 'min' 3 is greater than its 'max' 1",
    );
    expect(validationError(() => validateModalElement({ type: "card" })).message).toMatch(
      /a modal must be an object with type "modal"/,
    );
  });

  it("come back equal when valid", () => {
    expect(validateModalElement(JSON.parse(JSON.stringify(feedback)))).toStrictEqual(feedback);
  });
});
