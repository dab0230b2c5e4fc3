import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness() {
  const created = await createSlackHarness();
  harnesses.push(created);
  return created;
}

const blockActions = {
  type: "block_actions",
  team: { id: "T0FAKE0001" },
  user: { id: "U123", username: "testuser", name: "Test User" },
  container: { type: "message", message_ts: "1234567890.123456", channel_id: "C456" },
  channel: { id: "C456", name: "general" },
  message: { ts: "1234567890.123456", thread_ts: "1234567890.000000" },
  trigger_id: "trigger-abc",
  actions: [{ type: "button", action_id: "approve_btn", value: "approved" }],
};

function interaction(h: SlackHarness, payload: unknown) {
  return h.deliverForm({ payload: JSON.stringify(payload) });
}

function view(extra: Record<string, unknown> = {}) {
  return {
    id: "V123",
    callback_id: "feedback_form",
    private_metadata: "",
    state: { values: { comment: { comment: { type: "plain_text_input", value: "Great!" } } } },
    ...extra,
  };
}

describe("handleWebhook - interactive payloads", () => {
  it("handles block_actions payload", async () => {
    const h = await harness();
    const seen: Array<Record<string, unknown>> = [];
    h.chat.onAction("approve_btn", (event) => {
      seen.push({
        actionId: event.actionId,
        value: event.value,
        thread: event.thread?.id,
        messageId: event.messageId,
        user: event.user.userId,
      });
    });
    const response = await interaction(h, blockActions);
    await h.settle();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(seen).toEqual([
      {
        actionId: "approve_btn",
        value: "approved",
        thread: "slack:C456:1234567890.000000",
        messageId: "T0FAKE0001:C456:1234567890.123456",
        user: "U123",
      },
    ]);
  });

  it("returns 400 for missing payload", async () => {
    const h = await harness();
    const response = await h.deliverForm({ foo: "bar" });
    expect(response.status).toBe(400);
  });

  it("returns 400 for invalid payload JSON", async () => {
    const h = await harness();
    const response = await h.deliverForm({ payload: "not-json" });
    expect(response.status).toBe(400);
  });

  it("includes trigger_id in block_actions event", async () => {
    const h = await harness();
    const triggers: Array<string | undefined> = [];
    h.chat.onAction((event) => {
      triggers.push(event.triggerId);
    });
    await interaction(h, blockActions);
    await h.settle();
    expect(triggers).toEqual(["trigger-abc"]);
  });

  it("handles view_submission payload", async () => {
    const h = await harness();
    const seen: Array<Record<string, unknown>> = [];
    h.chat.onModalSubmit("feedback_form", (event) => {
      seen.push({
        callbackId: event.callbackId,
        viewId: event.viewId,
        values: event.values,
        user: event.user.userId,
      });
      return undefined;
    });
    const response = await interaction(h, {
      type: "view_submission",
      user: { id: "U123" },
      view: view(),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(seen).toEqual([
      { callbackId: "feedback_form", viewId: "V123", values: { comment: "Great!" }, user: "U123" },
    ]);
  });

  it("answers validation errors with response_action errors", async () => {
    const h = await harness();
    h.chat.onModalSubmit("feedback_form", () => ({
      action: "errors",
      errors: { comment: "Too short" },
    }));
    const response = await interaction(h, {
      type: "view_submission",
      user: { id: "U123" },
      view: view(),
    });
    expect(await response.json()).toEqual({
      response_action: "errors",
      errors: { comment: "Too short" },
    });
  });

  it("flattens datepicker and number_input state into submitted values", async () => {
    const h = await harness();
    const values: Array<Record<string, string>> = [];
    h.chat.onModalSubmit((event) => {
      values.push(event.values);
    });
    await interaction(h, {
      type: "view_submission",
      user: { id: "U123" },
      view: view({
        state: {
          values: {
            due: { due: { type: "datepicker", selected_date: "2026-12-24" } },
            qty: { qty: { type: "number_input", value: "3" } },
            size: { size: { type: "static_select", selected_option: { value: "L" } } },
          },
        },
      }),
    });
    expect(values).toEqual([{ due: "2026-12-24", qty: "3", size: "L" }]);
  });

  it("responds with response_action: clear when handler returns clear", async () => {
    const h = await harness();
    h.chat.onModalSubmit(() => ({ action: "clear" }));
    const response = await interaction(h, {
      type: "view_submission",
      user: { id: "U123" },
      view: view(),
    });
    expect(await response.json()).toEqual({ response_action: "clear" });
  });

  it("keeps the context id of a modal opened from a thread through to the submit", async () => {
    const h = await harness();
    const origins: Array<string | undefined> = [];
    h.chat.onAction("open_form", async (event) => {
      await event.openModal?.({
        type: "modal",
        callbackId: "feedback_form",
        title: "Feedback",
        children: [{ type: "text_input", id: "comment", label: "Comment" }],
      });
    });
    h.chat.onModalSubmit("feedback_form", (event) => {
      origins.push(event.relatedThread?.id);
    });
    await interaction(h, {
      ...blockActions,
      actions: [{ type: "button", action_id: "open_form" }],
    });
    await h.settle();
    const opened = h.fake.callsOf("views.open")[0]?.args.view as Record<string, unknown>;
    expect(opened.private_metadata).toBeDefined();
    await interaction(h, {
      type: "view_submission",
      user: { id: "U123" },
      view: view({ private_metadata: opened.private_metadata }),
    });
    expect(origins).toEqual(["slack:C456:1234567890.000000"]);
  });

  it("handles view_closed payload", async () => {
    const h = await harness();
    const closed: string[] = [];
    h.chat.onModalClose("feedback_form", (event) => {
      closed.push(`${event.callbackId} ${event.viewId} ${event.user.userId}`);
    });
    const response = await interaction(h, {
      type: "view_closed",
      user: { id: "U123" },
      view: view(),
    });
    await h.settle();
    expect(response.status).toBe(200);
    expect(closed).toEqual(["feedback_form V123 U123"]);
  });

  it("handles block_suggestion payloads and returns options JSON", async () => {
    const h = await harness();
    h.chat.onOptionsLoad("assignee", (event) => [{ label: `Match ${event.query}`, value: "u1" }]);
    const response = await interaction(h, {
      type: "block_suggestion",
      user: { id: "U123" },
      action_id: "assignee",
      value: "ali",
    });
    expect(await response.json()).toEqual({
      options: [{ text: { type: "plain_text", text: "Match ali" }, value: "u1" }],
    });
  });

  it("handles block_suggestion with option_groups response", async () => {
    const h = await harness();
    h.chat.onOptionsLoad("assignee", () => [
      { label: "Team A", options: [{ label: "Ann", value: "a" }] },
    ]);
    const response = await interaction(h, {
      type: "block_suggestion",
      user: { id: "U123" },
      action_id: "assignee",
      value: "",
    });
    expect(await response.json()).toEqual({
      option_groups: [
        {
          label: { type: "plain_text", text: "Team A" },
          options: [{ text: { type: "plain_text", text: "Ann" }, value: "a" }],
        },
      ],
    });
  });
});

describe("handleWebhook - interactive payloads (deadlines)", () => {
  it("returns empty options when block_suggestion handler exceeds 2.5s budget", async () => {
    const h = await harness();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.chat.onOptionsLoad("slow", async () => {
      await gate;
      return [{ label: "late", value: "late" }];
    });
    const pending = interaction(h, {
      type: "block_suggestion",
      user: { id: "U123" },
      action_id: "slow",
      value: "x",
    });
    await h.clock.advance(2_499);
    let answered = false;
    void pending.then(() => {
      answered = true;
    });
    await h.clock.settle();
    expect(answered).toBe(false);
    await h.clock.advance(1);
    const response = await pending;
    expect(await response.json()).toEqual({ options: [] });
    release();
  });
});

describe("handleWebhook - slash commands", () => {
  const command = {
    command: "/deploy",
    text: "production",
    user_id: "U123",
    user_name: "jdoe",
    channel_id: "C456",
    team_id: "T0FAKE0001",
    trigger_id: "trigger-xyz",
    response_url: "https://hooks.slack.com/commands/x",
  };

  it("detects slash command payload (form-urlencoded with command field)", async () => {
    const h = await harness();
    const commands: string[] = [];
    h.chat.onSlashCommand((event) => {
      commands.push(event.command);
    });
    const response = await h.deliverForm(command);
    await h.settle();
    expect(response.status).toBe(200);
    expect(commands).toEqual(["/deploy"]);
  });

  it("passes command, text, user, and triggerId to processSlashCommand", async () => {
    const h = await harness();
    const seen: Array<Record<string, unknown>> = [];
    h.chat.onSlashCommand("/deploy", (event) => {
      seen.push({
        command: event.command,
        text: event.text,
        user: event.user.userId,
        triggerId: event.triggerId,
        channel: event.channelId,
      });
    });
    await h.deliverForm(command);
    await h.settle();
    expect(seen).toEqual([
      {
        command: "/deploy",
        text: "production",
        user: "U123",
        triggerId: "trigger-xyz",
        channel: "slack:C456",
      },
    ]);
  });

  it("does not treat interactive payload as slash command", async () => {
    const h = await harness();
    const commands: string[] = [];
    h.chat.onSlashCommand((event) => {
      commands.push(event.command);
    });
    await interaction(h, blockActions);
    await h.settle();
    expect(commands).toEqual([]);
  });

  it("returns 200 immediately for slash commands", async () => {
    const h = await harness();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    h.chat.onSlashCommand(async () => {
      await gate;
    });
    const response = await h.deliverForm(command);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    release();
    await h.settle();
  });

  it("includes raw payload in event", async () => {
    const h = await harness();
    const raws: unknown[] = [];
    h.chat.onSlashCommand((event) => {
      raws.push(event.raw);
    });
    await h.deliverForm(command);
    await h.settle();
    expect(raws).toEqual([command]);
  });
});
