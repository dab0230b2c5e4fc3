import {
  DateInput,
  ExternalSelect,
  Modal,
  NumberInput,
  RadioSelect,
  Select,
  SelectOption,
  TextInput,
} from "@baton/core";
import { describe, expect, it } from "vitest";
import { decodeModalMetadata, encodeModalMetadata, modalToSlackView } from "../src/index.js";

type Block = { type: string; element: Record<string, unknown> } & Record<string, unknown>;
const blocksOf = (view: Record<string, unknown>) => view.blocks as Block[];

describe("modalToSlackView", () => {
  it("converts a simple modal with text input", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "feedback_form",
        title: "Send Feedback",
        children: [TextInput({ id: "message", label: "Your Feedback" })],
      }),
    );
    expect(view.type).toBe("modal");
    expect(view.callback_id).toBe("feedback_form");
    expect(view.title).toEqual({ type: "plain_text", text: "Send Feedback" });
    expect(view.submit).toEqual({ type: "plain_text", text: "Submit" });
    expect(view.close).toEqual({ type: "plain_text", text: "Cancel" });
    expect(blocksOf(view)).toHaveLength(1);
    expect(blocksOf(view)[0]).toMatchObject({
      type: "input",
      block_id: "message",
      optional: false,
      label: { type: "plain_text", text: "Your Feedback" },
      element: { type: "plain_text_input", action_id: "message", multiline: false },
    });
  });

  it("converts a modal with custom submit/close labels", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test Modal",
        submitLabel: "Send",
        closeLabel: "Dismiss",
        children: [],
      }),
    );
    expect(view.submit).toEqual({ type: "plain_text", text: "Send" });
    expect(view.close).toEqual({ type: "plain_text", text: "Dismiss" });
  });

  it("converts multiline text input", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          TextInput({
            id: "description",
            label: "Description",
            multiline: true,
            placeholder: "Enter description...",
            maxLength: 500,
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      type: "input",
      element: {
        type: "plain_text_input",
        action_id: "description",
        multiline: true,
        placeholder: { type: "plain_text", text: "Enter description..." },
        max_length: 500,
      },
    });
  });

  it("converts optional text input", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [TextInput({ id: "notes", label: "Notes", optional: true })],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({ type: "input", optional: true });
  });

  it("converts text input with initial value", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [TextInput({ id: "name", label: "Name", initialValue: "John Doe" })],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({ element: { initial_value: "John Doe" } });
  });

  it("converts select element with options", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          Select({
            id: "category",
            label: "Category",
            options: [
              SelectOption({ label: "Bug Report", value: "bug" }),
              SelectOption({ label: "Feature Request", value: "feature" }),
            ],
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      type: "input",
      block_id: "category",
      label: { type: "plain_text", text: "Category" },
      element: {
        type: "static_select",
        action_id: "category",
        options: [
          { text: { type: "plain_text", text: "Bug Report" }, value: "bug" },
          { text: { type: "plain_text", text: "Feature Request" }, value: "feature" },
        ],
      },
    });
  });

  it("converts select with initial option", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          Select({
            id: "priority",
            label: "Priority",
            options: [
              SelectOption({ label: "Low", value: "low" }),
              SelectOption({ label: "Medium", value: "medium" }),
              SelectOption({ label: "High", value: "high" }),
            ],
            initialOption: "medium",
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      element: {
        initial_option: { text: { type: "plain_text", text: "Medium" }, value: "medium" },
      },
    });
  });

  it("converts select with placeholder", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          Select({
            id: "category",
            label: "Category",
            placeholder: "Select a category",
            options: [SelectOption({ label: "General", value: "general" })],
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      element: { placeholder: { type: "plain_text", text: "Select a category" } },
    });
  });

  it("converts external select with placeholder and min query length", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          ExternalSelect({
            id: "assignee",
            label: "Assignee",
            placeholder: "Search people",
            minQueryLength: 2,
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      type: "input",
      block_id: "assignee",
      element: {
        type: "external_select",
        action_id: "assignee",
        placeholder: { type: "plain_text", text: "Search people" },
        min_query_length: 2,
      },
    });
  });

  it("converts external select with initialOption", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          ExternalSelect({
            id: "assignee",
            label: "Assignee",
            initialOption: SelectOption({ label: "Ann", value: "u1" }),
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      element: { initial_option: { text: { type: "plain_text", text: "Ann" }, value: "u1" } },
    });
  });

  it("includes contextId as private_metadata when provided", () => {
    const view = modalToSlackView(
      Modal({ callbackId: "test", title: "Test", children: [] }),
      "context-uuid-123",
    );
    expect(view.private_metadata).toBe("context-uuid-123");
  });

  it("private_metadata is undefined when no contextId provided", () => {
    const view = modalToSlackView(Modal({ callbackId: "test", title: "Test", children: [] }));
    expect(view.private_metadata).toBeUndefined();
  });

  it("sets notify_on_close when provided", () => {
    const view = modalToSlackView(
      Modal({ callbackId: "test", title: "Test", notifyOnClose: true, children: [] }),
    );
    expect(view.notify_on_close).toBe(true);
  });

  it("truncates long titles to 24 chars", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "This is a very long modal title that exceeds the limit",
        children: [],
      }),
    );
    expect((view.title as { text: string }).text.length).toBeLessThanOrEqual(24);
  });

  it("converts a complete modal with multiple inputs", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "feedback_form",
        title: "Submit Feedback",
        submitLabel: "Send",
        closeLabel: "Cancel",
        notifyOnClose: true,
        children: [
          TextInput({
            id: "message",
            label: "Your Feedback",
            placeholder: "Tell us what you think...",
            multiline: true,
          }),
          Select({
            id: "category",
            label: "Category",
            options: [
              SelectOption({ label: "Bug", value: "bug" }),
              SelectOption({ label: "Feature", value: "feature" }),
              SelectOption({ label: "Other", value: "other" }),
            ],
          }),
          TextInput({ id: "email", label: "Email (optional)", optional: true }),
        ],
      }),
      "thread-context-123",
    );
    expect(view.callback_id).toBe("feedback_form");
    expect(view.private_metadata).toBe("thread-context-123");
    expect(blocksOf(view).map((b) => b.type)).toEqual(["input", "input", "input"]);
  });
});

describe("encodeModalMetadata", () => {
  it("returns undefined when both fields are empty", () => {
    expect(encodeModalMetadata({})).toBeUndefined();
  });

  it("encodes contextId only", () => {
    const parsed = JSON.parse(encodeModalMetadata({ contextId: "uuid-123" }) as string);
    expect(parsed.c).toBe("uuid-123");
    expect(parsed.m).toBeUndefined();
  });

  it("encodes privateMetadata only", () => {
    const parsed = JSON.parse(
      encodeModalMetadata({ privateMetadata: '{"chatId":"abc"}' }) as string,
    );
    expect(parsed.c).toBeUndefined();
    expect(parsed.m).toBe('{"chatId":"abc"}');
  });

  it("encodes both contextId and privateMetadata", () => {
    const parsed = JSON.parse(
      encodeModalMetadata({ contextId: "uuid-123", privateMetadata: '{"chatId":"abc"}' }) as string,
    );
    expect(parsed.c).toBe("uuid-123");
    expect(parsed.m).toBe('{"chatId":"abc"}');
  });
});

describe("decodeModalMetadata", () => {
  it("returns empty object for undefined input", () => {
    expect(decodeModalMetadata(undefined)).toEqual({});
  });

  it("returns empty object for empty string", () => {
    expect(decodeModalMetadata("")).toEqual({});
  });

  it("decodes contextId only", () => {
    expect(decodeModalMetadata(JSON.stringify({ c: "uuid-123" }))).toEqual({
      contextId: "uuid-123",
      privateMetadata: undefined,
    });
  });

  it("decodes privateMetadata only", () => {
    expect(decodeModalMetadata(JSON.stringify({ m: '{"chatId":"abc"}' }))).toEqual({
      contextId: undefined,
      privateMetadata: '{"chatId":"abc"}',
    });
  });

  it("decodes both contextId and privateMetadata", () => {
    expect(decodeModalMetadata(JSON.stringify({ c: "uuid-123", m: '{"chatId":"abc"}' }))).toEqual({
      contextId: "uuid-123",
      privateMetadata: '{"chatId":"abc"}',
    });
  });

  it("falls back to treating plain string as contextId (backward compat)", () => {
    expect(decodeModalMetadata("plain-uuid-456")).toEqual({ contextId: "plain-uuid-456" });
  });

  it("falls back for JSON without c/m keys", () => {
    expect(decodeModalMetadata('{"other":"value"}')).toEqual({ contextId: '{"other":"value"}' });
  });

  it("roundtrips encode then decode", () => {
    const original = { contextId: "ctx-1", privateMetadata: '{"key":"val"}' };
    expect(decodeModalMetadata(encodeModalMetadata(original))).toEqual(original);
  });
});

describe("modalToSlackView with radio select", () => {
  const plans = [
    SelectOption({ label: "Basic", value: "basic" }),
    SelectOption({ label: "Pro", value: "pro" }),
    SelectOption({ label: "Enterprise", value: "enterprise" }),
  ];

  it("converts radio select element with options", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [RadioSelect({ id: "plan", label: "Choose Plan", options: plans })],
      }),
    );
    expect(blocksOf(view)).toHaveLength(1);
    expect(blocksOf(view)[0]).toMatchObject({
      type: "input",
      block_id: "plan",
      label: { type: "plain_text", text: "Choose Plan" },
      element: { type: "radio_buttons", action_id: "plan" },
    });
    expect(blocksOf(view)[0]?.element.options).toHaveLength(3);
  });

  it("converts optional radio select", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          RadioSelect({
            id: "preference",
            label: "Preference",
            optional: true,
            options: [
              SelectOption({ label: "Yes", value: "yes" }),
              SelectOption({ label: "No", value: "no" }),
            ],
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({ type: "input", optional: true });
  });

  it("uses mrkdwn type for radio select labels", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          RadioSelect({
            id: "option",
            label: "Choose",
            options: [SelectOption({ label: "Option A", value: "a" })],
          }),
        ],
      }),
    );
    const options = blocksOf(view)[0]?.element.options as Array<{
      text: { type: string; text: string };
    }>;
    expect(options[0]?.text).toEqual({ type: "mrkdwn", text: "Option A" });
  });

  it("limits radio select options to 10", () => {
    const options = Array.from({ length: 15 }, (_, i) =>
      SelectOption({ label: `Option ${i + 1}`, value: `opt${i + 1}` }),
    );
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [RadioSelect({ id: "many_options", label: "Many Options", options })],
      }),
    );
    expect(blocksOf(view)[0]?.element.options).toHaveLength(10);
  });
});

describe("modalToSlackView with select option descriptions", () => {
  it("includes description in select options with plain_text type", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          Select({
            id: "plan",
            label: "Plan",
            options: [
              SelectOption({ label: "Basic", value: "basic", description: "For individuals" }),
              SelectOption({ label: "Pro", value: "pro", description: "For teams" }),
            ],
          }),
        ],
      }),
    );
    const options = blocksOf(view)[0]?.element.options as Array<{ description?: unknown }>;
    expect(options[0]?.description).toEqual({ type: "plain_text", text: "For individuals" });
    expect(options[1]?.description).toEqual({ type: "plain_text", text: "For teams" });
  });

  it("includes description in radio select options with mrkdwn type", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          RadioSelect({
            id: "plan",
            label: "Plan",
            options: [
              SelectOption({ label: "Basic", value: "basic", description: "For *individuals*" }),
              SelectOption({ label: "Pro", value: "pro", description: "For _teams_" }),
            ],
          }),
        ],
      }),
    );
    const options = blocksOf(view)[0]?.element.options as Array<{ description?: unknown }>;
    expect(options[0]?.description).toEqual({ type: "mrkdwn", text: "For *individuals*" });
    expect(options[1]?.description).toEqual({ type: "mrkdwn", text: "For _teams_" });
  });
});

describe("date and number inputs", () => {
  it("converts a date input to a Block Kit datepicker", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          DateInput({
            id: "due",
            label: "Due date",
            placeholder: "Pick a day",
            initialValue: "2026-12-24",
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]).toMatchObject({
      type: "input",
      block_id: "due",
      element: {
        type: "datepicker",
        action_id: "due",
        placeholder: { type: "plain_text", text: "Pick a day" },
        initial_date: "2026-12-24",
      },
    });
  });

  it("omits datepicker fields that were not provided", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [DateInput({ id: "due", label: "Due" })],
      }),
    );
    expect(blocksOf(view)[0]?.element).toEqual({ action_id: "due", type: "datepicker" });
  });

  it("drops an initial date that Slack would reject", () => {
    const view = modalToSlackView(
      // A modal built from stored JSON, not through the validating DateInput builder.
      {
        type: "modal",
        callbackId: "test",
        title: "Test",
        children: [{ type: "date_input", id: "due", label: "Due", initialValue: "24/12/2026" }],
      },
    );
    expect(blocksOf(view)[0]?.element.initial_date).toBeUndefined();
  });

  it("converts a number input to a Block Kit number_input with string bounds", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [
          NumberInput({
            id: "qty",
            label: "Quantity",
            min: 1,
            max: 10,
            initialValue: 2,
            decimal: true,
          }),
        ],
      }),
    );
    expect(blocksOf(view)[0]?.element).toMatchObject({
      type: "number_input",
      action_id: "qty",
      is_decimal_allowed: true,
      min_value: "1",
      max_value: "10",
      initial_value: "2",
    });
  });

  it("defaults number_input to integers only and keeps zero bounds", () => {
    const view = modalToSlackView(
      Modal({
        callbackId: "test",
        title: "Test",
        children: [NumberInput({ id: "qty", label: "Quantity", min: 0, max: 0 })],
      }),
    );
    expect(blocksOf(view)[0]?.element).toMatchObject({
      is_decimal_allowed: false,
      min_value: "0",
      max_value: "0",
    });
  });
});
